package postgres

import (
	"bytes"
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
)

// CreateLead counts and stores a lead; see lead.Store for the idempotency rules. Without an
// idempotency key the create joins the lead writers' next group; with one it runs in a
// transaction of its own that holds the key's lock, as a group of one.
func (s *Store) CreateLead(ctx context.Context, companyID uuid.UUID, l lead.Lead, limit *int, idem *lead.Idempotency) (lead.Created, error) {
	c := leadCreate{companyID: companyID, lead: l, limit: limit, idem: idem}
	if idem == nil {
		return s.leads.submit(ctx, c)
	}
	var created lead.Created
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		created, err = createIdempotent(ctx, runner{s: s, tx: tx}, c)
		return err
	})
	return created, err
}

// null stores an absent (empty) value as NULL.
func null(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// The advisory lock is held until the transaction ends: a second request with the same key
// that arrives meanwhile fails to take it and is told the first is in flight (409) instead of
// waiting. Keys older than 24 hours no longer count.
const (
	lockIdempotencyKey = `SELECT pg_try_advisory_xact_lock(hashtextextended($1::text || ':' || $2, 0))`

	selectIdempotencyKey = `
SELECT request_hash, lead_id, over_limit, lead_limit, lead_count
FROM idempotency_keys
WHERE company_id = $1 AND key = $2 AND created_at > now() - interval '24 hours'`
)

func createIdempotent(ctx context.Context, tx runner, c leadCreate) (lead.Created, error) {
	companyID, idem := c.companyID, *c.idem
	var locked bool
	if err := tx.get(ctx, &locked, lockIdempotencyKey, companyID, idem.Key); err != nil {
		return lead.Created{}, err
	}
	if !locked {
		return lead.Created{}, errs.E(errs.Conflict, errs.CodeIdempotencyKeyInUse)
	}
	var prev struct {
		RequestHash []byte    `db:"request_hash"`
		LeadID      uuid.UUID `db:"lead_id"`
		OverLimit   bool      `db:"over_limit"`
		LeadLimit   *int      `db:"lead_limit"`
		LeadCount   int       `db:"lead_count"`
	}
	err := tx.get(ctx, &prev, selectIdempotencyKey, companyID, idem.Key)
	switch {
	case err == nil:
		if !bytes.Equal(prev.RequestHash, idem.RequestHash[:]) {
			return lead.Created{}, errs.E(errs.Unprocessable, errs.CodeIdempotencyKeyReused)
		}
		return lead.Created{ID: prev.LeadID, OverLimit: prev.OverLimit, Limit: prev.LeadLimit,
			Count: prev.LeadCount, Replayed: true}, nil
	case !errs.Is(err, errs.NotFound):
		return lead.Created{}, err
	}
	created, err := storeLeads(ctx, tx, []leadCreate{c})
	if err != nil {
		return lead.Created{}, err
	}
	return created[0], nil
}

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return translate(err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return translate(tx.Commit())
}

const deleteOldIdempotencyKeys = `
DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`

// PurgeIdempotencyKeys deletes the keys past their 24 hours, for every company at once.
func (s *Store) PurgeIdempotencyKeys(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, deleteOldIdempotencyKeys)
	if err != nil {
		return 0, translate(err)
	}
	return res.RowsAffected()
}

// setLeadStatus moves a lead to a status and records the move in its history and its
// lead.updated event, in one statement; setting the status it has changes nothing. No row back
// means no such lead of the company.
var setLeadStatus = `
WITH old AS (
    SELECT status FROM leads WHERE company_id = $1 AND id = $2 FOR UPDATE
), moved AS (
    UPDATE leads SET status = $3, updated_at = now()
    WHERE company_id = $1 AND id = $2 AND status <> $3
    RETURNING *
), history AS (
    INSERT INTO lead_history (company_id, lead_id, field, old_value, new_value, origin)
    SELECT $1, $2, 'status', old.status, $3, $4 FROM old, moved
), ` + recordEvents(`SELECT company_id, id AS lead_id, '`+string(event.LeadUpdated)+`' AS type, m.email IS NOT NULL OR m.phone IS NOT NULL AS reachable, NULL::uuid AS assignee
    FROM moved m`) + `
SELECT status FROM old`

// SetLeadStatus moves a company's lead to a lifecycle status, kept in the lead's history with
// origin; see lead.Store.
func (s *Store) SetLeadStatus(ctx context.Context, companyID, leadID uuid.UUID, status lead.Status, origin lead.Origin) error {
	if !status.Lifecycle() {
		return errs.Field(errs.CodeInvalidStatus, "status")
	}
	var old lead.Status
	return leadNotFound(translate(s.db.GetContext(ctx, &old, setLeadStatus, companyID, leadID, status, origin)))
}

// companyUser is the condition that user $u may be given a company $c's leads, a member of it:
// the one place an assignment asks who belongs to a company.
func companyUser(c, u string) string {
	return `EXISTS (SELECT FROM memberships cm WHERE cm.company_id = ` + c + ` AND cm.user_id = ` + u + `)`
}

// updateLead changes a lead's status ($3, NULL to keep it) and, when $5, its assignee ($6, NULL
// for nobody), in one statement: each change that is one goes to the history, and the lead's
// lead.updated is recorded once, carrying the new assignee so that they get the lead's new-lead
// e-mail. An assignee who is not a user of the company changes nothing, status included, and
// the row back says so. No row in old means no such lead of the company.
var updateLead = `
WITH old AS (
    SELECT status, assignee_id FROM leads WHERE company_id = $1 AND id = $2 FOR UPDATE
), ok AS (
    SELECT NOT $5 OR $6::uuid IS NULL OR ` + companyUser("$1", "$6::uuid") + ` AS member
), moved AS (
    UPDATE leads l SET status = coalesce($3::text, l.status),
        assignee_id = CASE WHEN $5 THEN $6::uuid ELSE l.assignee_id END, updated_at = now()
    FROM ok
    WHERE l.company_id = $1 AND l.id = $2 AND ok.member
        AND (($3::text IS NOT NULL AND l.status <> $3::text) OR ($5 AND l.assignee_id IS DISTINCT FROM $6::uuid))
    RETURNING l.*
), history AS (
    INSERT INTO lead_history (company_id, lead_id, field, old_value, new_value, origin)
    SELECT $1, $2, 'status', old.status, m.status, $4 FROM old, moved m WHERE old.status <> m.status
    UNION ALL
    SELECT $1, $2, 'assignee', old.assignee_id::text, m.assignee_id::text, $4 FROM old, moved m
    WHERE old.assignee_id IS DISTINCT FROM m.assignee_id
), ` + recordEvents(`SELECT m.company_id, m.id AS lead_id, '`+string(event.LeadUpdated)+`' AS type, m.email IS NOT NULL OR m.phone IS NOT NULL AS reachable,
        CASE WHEN m.assignee_id IS DISTINCT FROM old.assignee_id THEN m.assignee_id END AS assignee
    FROM moved m, old`) + `
SELECT EXISTS (SELECT FROM old) AS found, (SELECT member FROM ok) AS member`

// UpdateLead changes a company's lead's status, assignee or both, kept in its history with
// origin; see lead.Store.
func (s *Store) UpdateLead(ctx context.Context, companyID, leadID uuid.UUID, u lead.Update, origin lead.Origin) error {
	if err := u.Check(); err != nil {
		return err
	}
	var status sql.NullString
	if u.Status != "" {
		status = sql.NullString{String: string(u.Status), Valid: true}
	}
	assignee := uuid.NullUUID{UUID: u.Assignee, Valid: u.Assignee != uuid.Nil}
	var res struct {
		Found  bool `db:"found"`
		Member bool `db:"member"`
	}
	if err := s.db.GetContext(ctx, &res, updateLead, companyID, leadID, status, origin, u.Assign, assignee); err != nil {
		return translate(err)
	}
	switch {
	case !res.Found:
		return errs.E(errs.NotFound, errs.CodeLeadNotFound)
	case !res.Member:
		return errs.Field(errs.CodeInvalidAssignee, "assignee_id")
	}
	return nil
}

// selectLeadHistory reads a lead's history in the order it happened.
const selectLeadHistory = `
SELECT field, coalesce(old_value, '') AS old_value, coalesce(new_value, '') AS new_value, origin, created_at
FROM lead_history WHERE company_id = $1 AND lead_id = $2 ORDER BY id`

// LeadHistory returns what changed on a company's lead after it was created, oldest first.
func (s *Store) LeadHistory(ctx context.Context, companyID, leadID uuid.UUID) ([]lead.HistoryEntry, error) {
	var rows []struct {
		Field     lead.Field  `db:"field"`
		Old       string      `db:"old_value"`
		New       string      `db:"new_value"`
		Origin    lead.Origin `db:"origin"`
		CreatedAt time.Time   `db:"created_at"`
	}
	if err := (runner{s: s}).selectAll(ctx, &rows, selectLeadHistory, companyID, leadID); err != nil {
		return nil, translate(err)
	}
	out := make([]lead.HistoryEntry, len(rows))
	for i, r := range rows {
		out[i] = lead.HistoryEntry{Field: r.Field, Old: r.Old, New: r.New, Origin: r.Origin, At: r.CreatedAt}
	}
	return out, nil
}
