package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// selectLead is the columns of a lead as the read calls return it, with the chat session that
// made it (the first, should a lead ever have two), read through chat_sessions_lead.
const selectLead = `
SELECT l.id, l.first_name, l.last_name, l.email, l.phone, l.phone_e164, l.service, l.details,
       l.source, l.referral_data, l.status, l.over_limit, l.created_at, l.updated_at, s.session_id
FROM leads l
LEFT JOIN LATERAL (
    SELECT session_id FROM chat_sessions
    WHERE company_id = $1 AND lead_id = l.id ORDER BY created_at LIMIT 1) s ON true`

// selectLeadPage reads one page of a company's leads, newest first, plus one lead that tells
// whether another page follows. The page starts after the position ($6, $7) by a row comparison
// that leads_company_created_id answers directly, so a deep page costs what the first does.
// An absent filter is a NULL parameter: the statement is not prepared, so each run is planned
// with its values and the planner drops the conditions that are NULL. The text is matched with
// ILIKE as the list is walked: a trigram index would find a rare text at once, but it doubled
// PostgreSQL's work per lead create, the hot path, for a search people run now and then.
const selectLeadPage = selectLead + `
WHERE l.company_id = $1
  AND ($2::text IS NULL OR l.status = $2)
  AND ($3::text IS NULL OR l.source = $3)
  AND ($4::timestamptz IS NULL OR l.created_at >= $4)
  AND ($5::timestamptz IS NULL OR l.created_at < $5)
  AND ($6::timestamptz IS NULL OR (l.created_at, l.id) < ($6, $7::uuid))
  AND ($8::text IS NULL OR concat_ws(' ', l.first_name, l.last_name, l.email, l.phone,
                                     l.phone_e164, l.service, l.details->>'note') ILIKE $8)
ORDER BY l.created_at DESC, l.id DESC
LIMIT $9`

// leadRecord is a row of selectLead.
type leadRecord struct {
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
	UpdatedAt    time.Time      `db:"updated_at"`
	SessionID    sql.NullString `db:"session_id"`
}

func (r leadRecord) stored() (lead.Stored, error) {
	st := lead.Stored{Status: r.Status, OverLimit: r.OverLimit, SessionID: r.SessionID.String,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Lead: lead.Lead{
			ID: r.ID, FirstName: r.FirstName.String, LastName: r.LastName.String,
			Email: r.Email.String, Phone: r.Phone.String, PhoneE164: r.PhoneE164.String,
			Service: r.Service.String, Source: r.Source,
		}}
	if r.Details != nil {
		var d struct {
			Note string `json:"note"`
		}
		if err := json.Unmarshal(r.Details, &d); err != nil {
			return lead.Stored{}, fmt.Errorf("lead %s details: %w", r.ID, err)
		}
		st.Note = d.Note
	}
	if r.ReferralData != nil {
		if err := json.Unmarshal(r.ReferralData, &st.ReferralData); err != nil {
			return lead.Stored{}, fmt.Errorf("lead %s referral data: %w", r.ID, err)
		}
	}
	return st, nil
}

// ListLeads returns one page of a company's leads, newest first; see lead.Filter.
func (s *Store) ListLeads(ctx context.Context, companyID uuid.UUID, f lead.Filter) (lead.Page, error) {
	f, err := f.Check()
	if err != nil {
		return lead.Page{}, err
	}
	var after sql.NullTime
	var afterID uuid.NullUUID
	if f.After != nil {
		after = sql.NullTime{Time: f.After.CreatedAt, Valid: true}
		afterID = uuid.NullUUID{UUID: f.After.ID, Valid: true}
	}
	var rows []leadRecord
	err = s.db.SelectContext(ctx, &rows, selectLeadPage, companyID, null(string(f.Status)), null(string(f.Source)),
		nullTime(f.Since), nullTime(f.Until), after, afterID, null(likePattern(f.Text)), f.Limit+1)
	if err != nil {
		return lead.Page{}, translate(err)
	}
	var page lead.Page
	if len(rows) > f.Limit {
		rows = rows[:f.Limit]
		page.Next = &lead.Cursor{CreatedAt: rows[f.Limit-1].CreatedAt, ID: rows[f.Limit-1].ID}
	}
	page.Leads = make([]lead.Stored, len(rows))
	for i, r := range rows {
		if page.Leads[i], err = r.stored(); err != nil {
			return lead.Page{}, err
		}
	}
	return page, nil
}

func nullTime(t time.Time) sql.NullTime { return sql.NullTime{Time: t, Valid: !t.IsZero()} }

// likePattern finds text anywhere, its own % _ and \ taken literally; "" for no text.
func likePattern(text string) string {
	if text == "" {
		return ""
	}
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(text) + "%"
}

const selectOneLead = selectLead + `
WHERE l.company_id = $1 AND l.id = $2`

// GetLead returns one of a company's leads.
func (s *Store) GetLead(ctx context.Context, companyID, leadID uuid.UUID) (lead.Stored, error) {
	var r leadRecord
	if err := s.db.GetContext(ctx, &r, selectOneLead, companyID, leadID); err != nil {
		return lead.Stored{}, leadNotFound(translate(err))
	}
	return r.stored()
}

// leadNotFound gives a missing lead its code.
func leadNotFound(err error) error {
	if errs.Is(err, errs.NotFound) {
		return errs.Wrap(errs.NotFound, errs.CodeLeadNotFound, err)
	}
	return err
}

// selectLeadMessages reads the transcript of the chat that made a lead, oldest first. The lead
// row comes first so that a lead without a chat is one row of NULLs and an unknown lead none.
const selectLeadMessages = `
SELECT m.visitor, m.text, m.created_at
FROM leads l
LEFT JOIN chat_sessions s ON s.company_id = $1 AND s.lead_id = l.id
LEFT JOIN chat_messages m ON m.company_id = $1 AND m.session_id = s.session_id
WHERE l.company_id = $1 AND l.id = $2
ORDER BY s.created_at, m.id`

// LeadMessages returns the transcript of a company's lead, empty for a lead without a chat.
func (s *Store) LeadMessages(ctx context.Context, companyID, leadID uuid.UUID) ([]lead.Message, error) {
	var rows []struct {
		Visitor   sql.NullBool   `db:"visitor"`
		Text      sql.NullString `db:"text"`
		CreatedAt sql.NullTime   `db:"created_at"`
	}
	if err := s.db.SelectContext(ctx, &rows, selectLeadMessages, companyID, leadID); err != nil {
		return nil, translate(err)
	}
	if len(rows) == 0 {
		return nil, errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	out := make([]lead.Message, 0, len(rows))
	for _, r := range rows {
		if r.Visitor.Valid {
			out = append(out, lead.Message{Visitor: r.Visitor.Bool, Text: r.Text.String, At: r.CreatedAt.Time})
		}
	}
	return out, nil
}

// deleteLead erases a lead in one statement, so in one transaction: its chat messages and
// sessions, the idempotency record of its create, and the lead, whose history goes with it
// (ON DELETE CASCADE). The foreign keys between them are checked at the statement's end,
// when every part is gone. The month's counter is left as it is. No row back: no such lead.
const deleteLead = `
WITH doomed AS (
    SELECT id FROM leads WHERE company_id = $1 AND id = $2 FOR UPDATE
), sessions AS (
    SELECT session_id FROM chat_sessions WHERE company_id = $1 AND lead_id IN (SELECT id FROM doomed)
), messages AS (
    DELETE FROM chat_messages WHERE company_id = $1 AND session_id IN (SELECT session_id FROM sessions)
), chats AS (
    DELETE FROM chat_sessions WHERE company_id = $1 AND session_id IN (SELECT session_id FROM sessions)
), keys AS (
    DELETE FROM idempotency_keys WHERE company_id = $1 AND lead_id IN (SELECT id FROM doomed)
)
DELETE FROM leads WHERE company_id = $1 AND id IN (SELECT id FROM doomed)
RETURNING id`

// DeleteLead erases one of a company's leads; see lead.Store.
func (s *Store) DeleteLead(ctx context.Context, companyID, leadID uuid.UUID) error {
	var id uuid.UUID
	return leadNotFound(translate(s.db.GetContext(ctx, &id, deleteLead, companyID, leadID)))
}
