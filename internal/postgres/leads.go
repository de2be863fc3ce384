package postgres

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/errs"
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

const selectLeads = `
SELECT id, first_name, last_name, email, phone, phone_e164, service, details, source,
       referral_data, status, over_limit, created_at
FROM leads WHERE company_id = $1
ORDER BY created_at DESC, id`

// ListLeads lists a company's leads, newest first.
func (s *Store) ListLeads(ctx context.Context, companyID uuid.UUID) ([]lead.Stored, error) {
	var rows []struct {
		ID           uuid.UUID      `db:"id"`
		FirstName    sql.NullString `db:"first_name"`
		LastName     sql.NullString `db:"last_name"`
		Email        sql.NullString `db:"email"`
		Phone        sql.NullString `db:"phone"`
		PhoneE164    sql.NullString `db:"phone_e164"`
		Service      sql.NullString `db:"service"`
		Details      []byte         `db:"details"`
		Source       lead.Source    `db:"source"`
		ReferralData []byte         `db:"referral_data"`
		Status       lead.Status    `db:"status"`
		OverLimit    bool           `db:"over_limit"`
		CreatedAt    time.Time      `db:"created_at"`
	}
	if err := s.db.SelectContext(ctx, &rows, selectLeads, companyID); err != nil {
		return nil, translate(err)
	}
	out := make([]lead.Stored, 0, len(rows))
	for _, r := range rows {
		st := lead.Stored{Status: r.Status, OverLimit: r.OverLimit, CreatedAt: r.CreatedAt, Lead: lead.Lead{
			ID: r.ID, FirstName: r.FirstName.String, LastName: r.LastName.String,
			Email: r.Email.String, Phone: r.Phone.String, PhoneE164: r.PhoneE164.String,
			Service: r.Service.String, Source: r.Source,
		}}
		if r.Details != nil {
			var d struct {
				Note string `json:"note"`
			}
			if err := json.Unmarshal(r.Details, &d); err != nil {
				return nil, fmt.Errorf("lead %s details: %w", r.ID, err)
			}
			st.Note = d.Note
		}
		if r.ReferralData != nil {
			if err := json.Unmarshal(r.ReferralData, &st.ReferralData); err != nil {
				return nil, fmt.Errorf("lead %s referral data: %w", r.ID, err)
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// setLeadStatus moves a lead to a status and records the move in its history, in one
// statement; setting the status it has changes nothing. No row back means no such lead of the
// company.
const setLeadStatus = `
WITH old AS (
    SELECT status FROM leads WHERE company_id = $1 AND id = $2 FOR UPDATE
), moved AS (
    UPDATE leads SET status = $3, updated_at = now()
    WHERE company_id = $1 AND id = $2 AND status <> $3
    RETURNING id
), history AS (
    INSERT INTO lead_history (company_id, lead_id, field, old_value, new_value, origin)
    SELECT $1, $2, 'status', old.status, $3, $4 FROM old, moved
)
SELECT status FROM old`

// SetLeadStatus moves a company's lead to a lifecycle status, kept in the lead's history with
// origin; see lead.Store.
func (s *Store) SetLeadStatus(ctx context.Context, companyID, leadID uuid.UUID, status lead.Status, origin lead.Origin) error {
	if !status.Lifecycle() {
		return errs.Field(errs.CodeInvalidStatus, "status")
	}
	var old lead.Status
	err := s.db.GetContext(ctx, &old, setLeadStatus, companyID, leadID, status, origin)
	if errs.Is(translate(err), errs.NotFound) {
		return errs.Wrap(errs.NotFound, errs.CodeLeadNotFound, err)
	}
	return translate(err)
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
	if err := s.db.SelectContext(ctx, &rows, selectLeadHistory, companyID, leadID); err != nil {
		return nil, translate(err)
	}
	out := make([]lead.HistoryEntry, len(rows))
	for i, r := range rows {
		out[i] = lead.HistoryEntry{Field: r.Field, Old: r.Old, New: r.New, Origin: r.Origin, At: r.CreatedAt}
	}
	return out, nil
}
