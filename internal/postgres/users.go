package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/user"
)

// accountRow is a row of users without the password hash: the person, in no company.
type accountRow struct {
	ID          uuid.UUID `db:"id"`
	Email       string    `db:"email"`
	PasswordSet bool      `db:"password_set"`
	CreatedAt   time.Time `db:"created_at"`
}

// userRow is a user as a member of one company.
type userRow struct {
	accountRow
	CompanyID uuid.UUID `db:"company_id"`
	Role      user.Role `db:"role"`
}

func (r accountRow) user() user.User {
	return user.User{ID: r.ID, Email: r.Email, PasswordSet: r.PasswordSet, CreatedAt: r.CreatedAt}
}

func (r userRow) user() user.User {
	u := r.accountRow.user()
	u.CompanyID, u.Role = r.CompanyID, r.Role
	return u
}

// In a company, a member's password is "set" once they have one and came in to the company
// (accepted_at): an address invited while it has an account elsewhere shows as invited, as a
// new one does, until its person comes in. A member's created_at is when they were added.
const (
	accountColumns = `u.id, u.email, u.password_hash IS NOT NULL AS password_set, u.created_at`
	memberColumns  = `u.id, u.email, u.password_hash IS NOT NULL AND m.accepted_at IS NOT NULL AS password_set,
m.created_at, m.company_id, m.role`
)

// Inviting a new address and an address that has an account already (in another company, or
// none left) take the same statements, so neither the answer nor its time tells them apart.
// The user statement inserts the account or finds the existing one in one round trip (the
// UNION's second half does not see the first's insert, so exactly one row comes back); an
// existing account keeps its password, and its link (sets_password false) only brings it to
// the dashboard, since whoever invited it must not set that account's password.
const (
	upsertAccount = `
WITH created AS (
    INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)
    ON CONFLICT (email) DO NOTHING
    RETURNING id, email, password_hash, created_at
)
SELECT id, email, password_hash IS NOT NULL AS password_set, created_at, true AS created FROM created
UNION ALL
SELECT id, email, password_hash IS NOT NULL, created_at, false FROM users WHERE email = $2`
	insertMembership = `
INSERT INTO memberships (company_id, user_id, role, accepted_at) VALUES ($1, $2, $3, CASE WHEN $4 THEN now() END)
RETURNING created_at`
	insertPasswordToken = `
INSERT INTO password_tokens (hash, user_id, expires_at, sets_password, company_id) VALUES ($1, $2, $3, $4, $5)`
)

// CreateUser makes an address a member of a company: a new account with a password hash
// (passwordHash non-empty) or a one-time link that sets one, or an existing account (its
// password unchanged) with a link that brings it to the dashboard. errs.Conflict when the
// address is a member of the company already.
func (s *Store) CreateUser(ctx context.Context, companyID uuid.UUID, email string, role user.Role, passwordHash string, link *user.Link) (user.User, error) {
	var r struct {
		accountRow
		Created bool `db:"created"`
	}
	var joined time.Time
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &r, upsertAccount, uuid.New(), email, null(passwordHash))
		if errors.Is(err, sql.ErrNoRows) {
			// Another transaction made the account after this statement's snapshot: the
			// next statement sees it.
			err = tx.GetContext(ctx, &r, upsertAccount, uuid.New(), email, null(passwordHash))
		}
		if err != nil {
			return translate(err)
		}
		// A new account made with its password has come in; every other membership waits.
		accepted := r.Created && passwordHash != ""
		if err := tx.GetContext(ctx, &joined, insertMembership, companyID, r.ID, role, accepted); err != nil {
			return translate(err)
		}
		if link != nil {
			_, err := tx.ExecContext(ctx, insertPasswordToken, link.Hash[:], r.ID, link.Expires, r.Created, companyID)
			return translate(err)
		}
		return nil
	})
	u := r.accountRow.user()
	u.CompanyID, u.Role, u.CreatedAt = companyID, role, joined
	u.PasswordSet = r.Created && passwordHash != ""
	return u, err
}

const acceptMembership = `
UPDATE memberships SET accepted_at = now() WHERE company_id = $1 AND user_id = $2 AND accepted_at IS NULL`

// AcceptMembership records that a member came in to the company (a login opened it, or they
// switched to it), unless they had before.
func (s *Store) AcceptMembership(ctx context.Context, companyID, userID uuid.UUID) error {
	_, err := s.db.ExecContext(ctx, acceptMembership, companyID, userID)
	return translate(err)
}

const selectUsers = `SELECT ` + memberColumns + `
FROM memberships m JOIN users u ON u.id = m.user_id
WHERE m.company_id = $1 ORDER BY m.created_at, u.id`

// Users lists a company's users, the longest-standing member first.
func (s *Store) Users(ctx context.Context, companyID uuid.UUID) ([]user.User, error) {
	var rows []userRow
	if err := (runner{s: s}).selectAll(ctx, &rows, selectUsers, companyID); err != nil {
		return nil, translate(err)
	}
	users := make([]user.User, len(rows))
	for i, r := range rows {
		users[i] = r.user()
	}
	return users, nil
}

const selectUser = `SELECT ` + memberColumns + `
FROM memberships m JOIN users u ON u.id = m.user_id
WHERE m.company_id = $1 AND m.user_id = $2`

// User returns one user of a company; errs.NotFound when the company has no such member.
func (s *Store) User(ctx context.Context, companyID, userID uuid.UUID) (user.User, error) {
	var r userRow
	if err := (runner{s: s}).get(ctx, &r, selectUser, companyID, userID); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

// A person's own companies, for the switcher: by user id alone, since it lists the companies
// the session's user may choose between.
const selectMemberships = `
SELECT m.company_id, c.name AS company_name, m.role
FROM memberships m JOIN companies c ON c.id = m.company_id
WHERE m.user_id = $1 ORDER BY m.created_at, c.name`

// Memberships lists the companies a user is a member of, the first joined first.
func (s *Store) Memberships(ctx context.Context, userID uuid.UUID) ([]user.Membership, error) {
	var rows []struct {
		CompanyID   uuid.UUID `db:"company_id"`
		CompanyName string    `db:"company_name"`
		Role        user.Role `db:"role"`
	}
	if err := (runner{s: s}).selectAll(ctx, &rows, selectMemberships, userID); err != nil {
		return nil, translate(err)
	}
	ms := make([]user.Membership, len(rows))
	for i, r := range rows {
		ms[i] = user.Membership{CompanyID: r.CompanyID, CompanyName: r.CompanyName, Role: r.Role}
	}
	return ms, nil
}

// selectViewer reads a session's user as a member of company $1, that company, and every company
// the user is a member of (the switcher's list, in selectMemberships' order), in one
// statement: every dashboard page reads the three, and one round trip costs less than three.
const selectViewer = `
SELECT ` + viewerColumns + `
FROM memberships m JOIN users u ON u.id = m.user_id JOIN companies c ON c.id = m.company_id
WHERE m.company_id = $1 AND m.user_id = $2`

// viewerColumns are a viewer's columns, over memberships m, users u and companies c, in
// scanViewer's order.
const viewerColumns = viewerOwnColumns + `,
       (SELECT json_agg(json_build_object('company_id', mm.company_id, 'company_name', cc.name, 'role', mm.role)
                        ORDER BY mm.created_at, cc.name)
        FROM memberships mm JOIN companies cc ON cc.id = mm.company_id WHERE mm.user_id = m.user_id) AS companies`

// viewerOwnColumns are viewerColumns without the user's companies, in scanViewerThen's order.
const viewerOwnColumns = memberColumns + `,
       c.name AS company_name, c.plan, c.has_limit_override, c.lead_limit_override, c.retention_months,
       c.round_robin, c.created_at AS company_created_at`

// Viewer returns a user of a company, the company, and the companies the user may switch
// between; errs.NotFound when the company has no such member.
func (s *Store) Viewer(ctx context.Context, companyID, userID uuid.UUID) (user.User, company.Company, []user.Membership, error) {
	st, err := s.stmt(ctx, selectViewer)
	if err != nil {
		return user.User{}, company.Company{}, nil, err
	}
	v, err := scanViewer(st.QueryRowContext(ctx, companyID, userID))
	if err != nil {
		return user.User{}, company.Company{}, nil, err
	}
	return v.User, v.Company, v.Companies, nil
}

// scanViewer reads a row whose columns are viewerColumns, after those of extra.
func scanViewer(row *sql.Row, extra ...any) (user.Viewer, error) {
	var companies []byte
	v, err := scanViewerThen(row, extra, &companies)
	if err != nil {
		return user.Viewer{}, err
	}
	if err := json.Unmarshal(companies, &v.Companies); err != nil { // never NULL: the user is a member of the company
		return user.Viewer{}, fmt.Errorf("reading a user's companies: %w", err)
	}
	return v, nil
}

// scanViewerThen reads a row whose columns are those of extra, viewerOwnColumns, then those of
// then: a viewer without Companies.
func scanViewerThen(row *sql.Row, extra []any, then ...any) (user.Viewer, error) {
	var (
		u userRow
		c companyRow
	)
	// Scanned by position: every dashboard page reads the viewer, and sqlx's matching of the
	// columns to the fields by reflection was most of this call's own CPU.
	dest := append(extra, &u.ID, &u.Email, &u.PasswordSet, &u.CreatedAt,
		&u.CompanyID, &u.Role, &c.Name, &c.Plan, &c.HasLimitOverride, &c.LeadLimitOverride, &c.RetentionMonths,
		&c.RoundRobin, &c.CreatedAt)
	if err := row.Scan(append(dest, then...)...); err != nil {
		return user.Viewer{}, translate(err)
	}
	c.ID = u.CompanyID
	return user.Viewer{User: u.user(), Company: c.company()}, nil
}

// The one user query without a company id: the email is what tells whose dashboard a login opens.
const selectUserByEmail = `SELECT ` + accountColumns + `, coalesce(u.password_hash, '') AS password_hash
FROM users u WHERE u.email = $1`

// UserByEmail returns the account with that (normalized) email, in no company, and its password
// hash ("" when none is set); errs.NotFound when there is none.
func (s *Store) UserByEmail(ctx context.Context, email string) (user.User, string, error) {
	var r struct {
		accountRow
		Hash string `db:"password_hash"`
	}
	if err := s.db.GetContext(ctx, &r, selectUserByEmail, email); err != nil {
		return user.User{}, "", translate(err)
	}
	return r.user(), r.Hash, nil
}

// Removing a membership removes the account too when it was the last one: nobody keeps a login
// that opens no company. Removing by user id alone is the operator's command (it holds only the
// id from `user list`) and takes every membership.
const (
	deleteMembership = `
DELETE FROM memberships m USING users u
WHERE m.company_id = $1 AND m.user_id = $2 AND u.id = m.user_id
RETURNING ` + memberColumns
	deleteLonelyUser = `DELETE FROM users WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM memberships WHERE user_id = $1)`
	// A member who leaves a company leaves its leads unassigned, as removing the user does
	// (the foreign key's ON DELETE SET NULL), also when the account stays for another company.
	unassignMember = `UPDATE leads SET assignee_id = NULL WHERE company_id = $1 AND assignee_id = $2`
	deleteUser     = `DELETE FROM users u WHERE u.id = $1 RETURNING ` + accountColumns
)

// RemoveUser deletes a user with every membership and link; errs.NotFound when there is none.
func (s *Store) RemoveUser(ctx context.Context, userID uuid.UUID) (user.User, error) {
	var r accountRow
	if err := s.db.GetContext(ctx, &r, deleteUser, userID); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

// RemoveCompanyUser ends a user's membership of a company, and the user with it when it was
// their last; errs.NotFound when the company has no such member.
func (s *Store) RemoveCompanyUser(ctx context.Context, companyID, userID uuid.UUID) (user.User, error) {
	var r userRow
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &r, deleteMembership, companyID, userID); err != nil {
			return translate(err)
		}
		if _, err := tx.ExecContext(ctx, unassignMember, companyID, userID); err != nil {
			return translate(err)
		}
		_, err := tx.ExecContext(ctx, deleteLonelyUser, userID)
		return translate(err)
	})
	return r.user(), err
}

const selectLinkUser = `
SELECT ` + accountColumns + ` FROM users u
WHERE u.id = (SELECT user_id FROM password_tokens WHERE hash = $1 AND expires_at > now())`

// LinkUser returns the account a one-time link is for; errs.NotFound when the link is unknown,
// used or expired.
func (s *Store) LinkUser(ctx context.Context, link [32]byte) (user.User, error) {
	var r accountRow
	if err := s.db.GetContext(ctx, &r, selectLinkUser, link[:]); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

// Using a link deletes it in the statement that sets the password and accepts its membership:
// a link works once, and a second use finds nothing. A link that sets the password takes the user's other links with
// it; an invitation of an existing account leaves its password, and its other links, alone.
const usePasswordToken = `
WITH used AS (
    DELETE FROM password_tokens WHERE hash = $1 AND expires_at > now() RETURNING user_id, sets_password, company_id
), others AS (
    DELETE FROM password_tokens WHERE user_id IN (SELECT user_id FROM used WHERE sets_password)
), accepted AS (
    UPDATE memberships m SET accepted_at = coalesce(m.accepted_at, now())
    FROM used WHERE m.user_id = used.user_id AND m.company_id = used.company_id
)
UPDATE users u SET password_hash = CASE WHEN used.sets_password THEN $2 ELSE u.password_hash END,
    updated_at = now()
FROM used WHERE u.id = used.user_id
RETURNING ` + accountColumns

// SetPasswordByLink sets the password of the link's user (unless the link is an existing
// account's invitation) and uses the link up; errs.NotFound when the link is unknown, used or
// expired.
func (s *Store) SetPasswordByLink(ctx context.Context, link [32]byte, passwordHash string) (user.User, error) {
	var r accountRow
	if err := s.db.GetContext(ctx, &r, usePasswordToken, link[:], passwordHash); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

var _ user.Store = (*Store)(nil)
