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

// insertLead counts the lead against the company's month and stores it in one statement, so it
// is one round trip and atomic: a failing insert rolls the counter back with it. The upsert takes
// the counter row's lock until commit, which serialises a company's creates and makes each count
// exact and distinct under concurrency. The month is UTC, as the limit is defined.
const insertLead = `
WITH counter AS (
    INSERT INTO lead_counters AS lc (company_id, month, count)
    VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 1)
    ON CONFLICT (company_id, month) DO UPDATE SET count = lc.count + 1
    RETURNING count
)
INSERT INTO leads (company_id, id, first_name, last_name, email, phone, phone_e164, service,
                   details, source, referral_data, status)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
       CASE WHEN $12::int IS NOT NULL AND counter.count > $12::int THEN 'over_limit' ELSE 'new' END
FROM counter
RETURNING status, (SELECT count FROM counter) AS count`

// CreateLead counts and stores a lead; see lead.Store for the idempotency rules.
func (s *Store) CreateLead(ctx context.Context, companyID uuid.UUID, l lead.Lead, limit *int, idem *lead.Idempotency) (lead.Created, error) {
	switch {
	case idem == nil && s.writers != nil:
		return s.writers.submit(ctx, companyID, l, limit)
	case idem == nil:
		return insertLeadWith(ctx, runner{s: s}, companyID, l, limit)
	}
	var created lead.Created
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		created, err = createIdempotent(ctx, runner{s: s, tx: tx}, companyID, l, limit, *idem)
		return err
	})
	return created, err
}

func insertLeadWith(ctx context.Context, q runner, companyID uuid.UUID, l lead.Lead, limit *int) (lead.Created, error) {
	args, err := leadArgs(companyID, l, limit)
	if err != nil {
		return lead.Created{}, err
	}
	var row struct {
		Status lead.Status `db:"status"`
		Count  int         `db:"count"`
	}
	if err := q.get(ctx, &row, insertLead, args...); err != nil {
		return lead.Created{}, err
	}
	return lead.Created{ID: l.ID, OverLimit: row.Status == lead.StatusOverLimit, Limit: limit, Count: row.Count}, nil
}

func leadArgs(companyID uuid.UUID, l lead.Lead, limit *int) ([]any, error) {
	var details, referral []byte
	var err error
	if d := leadDetails(l); d != nil {
		if details, err = json.Marshal(d); err != nil {
			return nil, fmt.Errorf("encoding details: %w", err)
		}
	}
	if len(l.ReferralData) > 0 {
		if referral, err = json.Marshal(l.ReferralData); err != nil {
			return nil, fmt.Errorf("encoding referral data: %w", err)
		}
	}
	return []any{companyID, l.ID, null(l.FirstName), null(l.LastName), null(l.Email), null(l.Phone),
		null(l.PhoneE164), null(l.Service), jsonText(details), string(l.Source), jsonText(referral), limit}, nil
}

// leadDetails is the details column of a lead: its note, or nil (NULL) without one.
func leadDetails(l lead.Lead) map[string]string {
	if l.Note == "" {
		return nil
	}
	return map[string]string{"note": l.Note}
}

// null stores an absent (empty) value as NULL.
func null(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// jsonText passes JSON for a jsonb column as text, NULL when empty: with binary_parameters a
// []byte would go out in jsonb's binary format, which it is not.
func jsonText(b []byte) sql.NullString { return sql.NullString{String: string(b), Valid: len(b) > 0} }

// The advisory lock is held until the transaction ends: a second request with the same key
// that arrives meanwhile fails to take it and is told the first is in flight (409) instead of
// waiting. Keys older than 24 hours no longer count.
const (
	lockIdempotencyKey = `SELECT pg_try_advisory_xact_lock(hashtextextended($1::text || ':' || $2, 0))`

	selectIdempotencyKey = `
SELECT request_hash, lead_id, over_limit, lead_limit, lead_count
FROM idempotency_keys
WHERE company_id = $1 AND key = $2 AND created_at > now() - interval '24 hours'`

	upsertIdempotencyKey = `
INSERT INTO idempotency_keys (company_id, key, request_hash, lead_id, over_limit, lead_limit, lead_count)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (company_id, key) DO UPDATE SET
    request_hash = excluded.request_hash, lead_id = excluded.lead_id,
    over_limit = excluded.over_limit, lead_limit = excluded.lead_limit,
    lead_count = excluded.lead_count, created_at = now()`
)

func createIdempotent(ctx context.Context, tx runner, companyID uuid.UUID, l lead.Lead, limit *int, idem lead.Idempotency) (lead.Created, error) {
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
	created, err := insertLeadWith(ctx, tx, companyID, l, limit)
	if err != nil {
		return lead.Created{}, err
	}
	err = tx.exec(ctx, upsertIdempotencyKey, companyID, idem.Key, idem.RequestHash[:],
		created.ID, created.OverLimit, created.Limit, created.Count)
	if err != nil {
		return lead.Created{}, err
	}
	return created, nil
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
       referral_data, status, created_at
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
		CreatedAt    time.Time      `db:"created_at"`
	}
	if err := s.db.SelectContext(ctx, &rows, selectLeads, companyID); err != nil {
		return nil, translate(err)
	}
	out := make([]lead.Stored, 0, len(rows))
	for _, r := range rows {
		st := lead.Stored{Status: r.Status, CreatedAt: r.CreatedAt, Lead: lead.Lead{
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
