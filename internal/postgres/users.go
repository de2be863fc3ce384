package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/user"
)

// userRow is a row of users without the password hash.
type userRow struct {
	ID          uuid.UUID `db:"id"`
	CompanyID   uuid.UUID `db:"company_id"`
	Email       string    `db:"email"`
	Role        user.Role `db:"role"`
	PasswordSet bool      `db:"password_set"`
	CreatedAt   time.Time `db:"created_at"`
}

func (r userRow) user() user.User {
	return user.User{ID: r.ID, CompanyID: r.CompanyID, Email: r.Email, Role: r.Role, PasswordSet: r.PasswordSet, CreatedAt: r.CreatedAt}
}

const userColumns = `id, company_id, email, role, password_hash IS NOT NULL AS password_set, created_at`

// A user is created with either a password hash or a one-time link that sets one, in one
// transaction: there is never a user that nobody can log in as and no link for.
const (
	insertUser = `
INSERT INTO users (id, company_id, email, role, password_hash) VALUES ($2, $1, $3, $4, $5)
RETURNING ` + userColumns
	insertPasswordToken = `
INSERT INTO password_tokens (hash, user_id, expires_at) VALUES ($1, $2, $3)`
)

// CreateUser stores a user of a company with a password hash (passwordHash non-empty) or with
// a one-time link; errs.Conflict when the email is taken.
func (s *Store) CreateUser(ctx context.Context, companyID uuid.UUID, email string, role user.Role, passwordHash string, link *user.Link) (user.User, error) {
	var r userRow
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &r, insertUser, companyID, uuid.New(), email, role, null(passwordHash)); err != nil {
			return translate(err)
		}
		if link != nil {
			_, err := tx.ExecContext(ctx, insertPasswordToken, link.Hash[:], r.ID, link.Expires)
			return translate(err)
		}
		return nil
	})
	return r.user(), err
}

const selectUsers = `SELECT ` + userColumns + ` FROM users WHERE company_id = $1 ORDER BY created_at, id`

// Users lists a company's users, oldest first.
func (s *Store) Users(ctx context.Context, companyID uuid.UUID) ([]user.User, error) {
	var rows []userRow
	if err := s.db.SelectContext(ctx, &rows, selectUsers, companyID); err != nil {
		return nil, translate(err)
	}
	users := make([]user.User, len(rows))
	for i, r := range rows {
		users[i] = r.user()
	}
	return users, nil
}

const selectUser = `SELECT ` + userColumns + ` FROM users WHERE company_id = $1 AND id = $2`

// User returns one user of a company; errs.NotFound when the company has no such user.
func (s *Store) User(ctx context.Context, companyID, userID uuid.UUID) (user.User, error) {
	var r userRow
	if err := s.db.GetContext(ctx, &r, selectUser, companyID, userID); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

// The one user query without a company id: the email is what tells whose dashboard a login opens.
const selectUserByEmail = `SELECT ` + userColumns + `, coalesce(password_hash, '') AS password_hash
FROM users WHERE email = $1`

// UserByEmail returns the user with that (normalized) email and its password hash ("" when
// none is set); errs.NotFound when there is none.
func (s *Store) UserByEmail(ctx context.Context, email string) (user.User, string, error) {
	var r struct {
		userRow
		Hash string `db:"password_hash"`
	}
	if err := s.db.GetContext(ctx, &r, selectUserByEmail, email); err != nil {
		return user.User{}, "", translate(err)
	}
	return r.user(), r.Hash, nil
}

// Removing by user id alone is the operator's command (it holds only the id from `user list`);
// the dashboard passes its company, so another company's user is not found.
const deleteUser = `
DELETE FROM users WHERE id = $1 AND ($2::uuid IS NULL OR company_id = $2)
RETURNING ` + userColumns

// RemoveUser deletes a user (its links go with it); errs.NotFound when there is none.
func (s *Store) RemoveUser(ctx context.Context, userID uuid.UUID) (user.User, error) {
	return s.removeUser(ctx, nil, userID)
}

// RemoveCompanyUser deletes a user of a company; errs.NotFound when the company has no such user.
func (s *Store) RemoveCompanyUser(ctx context.Context, companyID, userID uuid.UUID) (user.User, error) {
	return s.removeUser(ctx, &companyID, userID)
}

func (s *Store) removeUser(ctx context.Context, companyID *uuid.UUID, userID uuid.UUID) (user.User, error) {
	var r userRow
	if err := s.db.GetContext(ctx, &r, deleteUser, userID, companyID); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

const selectLinkUser = `
SELECT ` + userColumns + ` FROM users
WHERE id = (SELECT user_id FROM password_tokens WHERE hash = $1 AND expires_at > now())`

// LinkUser returns the user a one-time link is for; errs.NotFound when the link is unknown,
// used or expired.
func (s *Store) LinkUser(ctx context.Context, link [32]byte) (user.User, error) {
	var r userRow
	if err := s.db.GetContext(ctx, &r, selectLinkUser, link[:]); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

// Using a link deletes it, and every other link of the user, in the statement that sets the
// password: a link works once, and a second use finds nothing.
const usePasswordToken = `
WITH used AS (
    DELETE FROM password_tokens WHERE hash = $1 AND expires_at > now() RETURNING user_id
), others AS (
    DELETE FROM password_tokens WHERE user_id IN (SELECT user_id FROM used)
)
UPDATE users SET password_hash = $2, updated_at = now()
WHERE id IN (SELECT user_id FROM used)
RETURNING ` + userColumns

// SetPasswordByLink sets the password of the link's user and uses the link up; errs.NotFound
// when the link is unknown, used or expired.
func (s *Store) SetPasswordByLink(ctx context.Context, link [32]byte, passwordHash string) (user.User, error) {
	var r userRow
	if err := s.db.GetContext(ctx, &r, usePasswordToken, link[:], passwordHash); err != nil {
		return user.User{}, translate(err)
	}
	return r.user(), nil
}

var _ user.Store = (*Store)(nil)
