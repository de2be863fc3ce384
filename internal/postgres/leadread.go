package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
)

// selectLead is the columns of a lead as the read calls return it, in leadRecord.dest's order,
// with the chat session that made it, found through chat_sessions_lead (unique: a lead comes
// from one session at most). The note comes out of details as text, which spares decoding JSON.
const selectLead = `
SELECT l.id, l.first_name, l.last_name, l.email, l.phone, l.phone_e164, l.service,
       l.details->>'note', l.source, l.referral_data, l.status, l.over_limit, l.created_at,
       l.updated_at, s.session_id, l.consent, l.assignee_id
FROM leads l
LEFT JOIN chat_sessions s ON s.company_id = $1 AND s.lead_id = l.id`

// A page of the list is selectLead with the conditions of the filter that are set, each a
// parameter, then listOrder with the page size written in: every shape of filter and size is a
// statement of its own, so that a prepared one is neither parsed nor planned again per page
// (most of PostgreSQL's work for a page), and its generic plan still walks
// leads_company_created_id from the cursor's position, which the row comparison names, so a
// deep page costs what the first does. A single statement with "$n IS NULL OR" conditions would
// need planning per run to drop the absent ones, and with the size a parameter the generic plan
// would expect a tenth of the table and never be used. Only the usual page sizes are kept
// prepared (listPrepared), so the statements a connection holds stay few.
//
// The text is matched with ILIKE as the list is walked: a trigram index would find a rare text
// at once, but it doubled PostgreSQL's work per lead create, the hot path, for a search people
// run now and then.
const (
	listCompany = `
WHERE l.company_id = $1`
	listStatus = `
  AND l.status = $%d`
	listSource = `
  AND l.source = $%d`
	listSince = `
  AND l.created_at >= $%d`
	listUntil = `
  AND l.created_at < $%d`
	listAfter = `
  AND (l.created_at, l.id) < ($%d, $%d)`
	listEmail = `
  AND lower(l.email) = lower($%d)`
	listAssignee = `
  AND l.assignee_id = $%d`
	listUnassigned = `
  AND l.assignee_id IS NULL`
	listText = `
  AND concat_ws(' ', l.first_name, l.last_name, l.email, l.phone, l.phone_e164, l.service,
                l.details->>'note') ILIKE $%d`
	listOrder = `
ORDER BY l.created_at DESC, l.id DESC
LIMIT %d`
)

// listPrepared reports whether the statements of a page size are kept prepared: the default
// size, and the largest, which lead.All reads.
func listPrepared(size int) bool { return size == limits.ListDefault || size == limits.ListMax }

// listQuery is the statement and arguments of the page f selects, one lead longer than the
// page so that the last one tells whether another page follows.
func listQuery(companyID uuid.UUID, f lead.Filter) (string, []any) {
	var q strings.Builder
	q.WriteString(selectLead + listCompany)
	args := []any{companyID}
	add := func(cond string, vals ...any) {
		nums := make([]any, len(vals))
		for i, v := range vals {
			args = append(args, v)
			nums[i] = len(args)
		}
		fmt.Fprintf(&q, cond, nums...)
	}
	if f.Status != "" {
		add(listStatus, string(f.Status))
	}
	if f.Source != "" {
		add(listSource, string(f.Source))
	}
	if !f.Since.IsZero() {
		add(listSince, f.Since)
	}
	if !f.Until.IsZero() {
		add(listUntil, f.Until)
	}
	if f.After != nil {
		add(listAfter, f.After.CreatedAt, f.After.ID)
	}
	if f.Text != "" {
		add(listText, likePattern(f.Text))
	}
	if f.Email != "" {
		add(listEmail, f.Email)
	}
	if f.Assignee != uuid.Nil {
		add(listAssignee, f.Assignee)
	}
	if f.Unassigned {
		add(listUnassigned)
	}
	fmt.Fprintf(&q, listOrder, f.Limit+1)
	return q.String(), args
}

// leadRecord is a row of selectLead.
type leadRecord struct {
	ID           uuid.UUID
	FirstName    sql.NullString
	LastName     sql.NullString
	Email        sql.NullString
	Phone        sql.NullString
	PhoneE164    sql.NullString
	Service      sql.NullString
	Note         sql.NullString
	Source       lead.Source
	ReferralData []byte
	Status       lead.Status
	OverLimit    bool
	CreatedAt    time.Time
	UpdatedAt    time.Time
	SessionID    sql.NullString
	Consent      []byte
	AssigneeID   uuid.NullUUID
}

// dest is where Scan puts selectLead's columns. Scanning by position spares sqlx's reflection
// per row, a good part of a page's cost.
func (r *leadRecord) dest() []any {
	return []any{&r.ID, &r.FirstName, &r.LastName, &r.Email, &r.Phone, &r.PhoneE164, &r.Service,
		&r.Note, &r.Source, &r.ReferralData, &r.Status, &r.OverLimit, &r.CreatedAt, &r.UpdatedAt, &r.SessionID, &r.Consent, &r.AssigneeID}
}

func (r *leadRecord) stored() (lead.Stored, error) {
	st := lead.Stored{Status: r.Status, OverLimit: r.OverLimit, SessionID: r.SessionID.String,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, AssigneeID: r.AssigneeID.UUID, Lead: lead.Lead{
			ID: r.ID, FirstName: r.FirstName.String, LastName: r.LastName.String,
			Email: r.Email.String, Phone: r.Phone.String, PhoneE164: r.PhoneE164.String,
			Service: r.Service.String, Note: r.Note.String, Source: r.Source,
		}}
	if r.ReferralData != nil {
		if err := json.Unmarshal(r.ReferralData, &st.ReferralData); err != nil {
			return lead.Stored{}, fmt.Errorf("lead %s referral data: %w", r.ID, err)
		}
	}
	if r.Consent != nil {
		if err := json.Unmarshal(r.Consent, &st.Consent); err != nil {
			return lead.Stored{}, fmt.Errorf("lead %s consent: %w", r.ID, err)
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
	query, args := listQuery(companyID, f)
	var rows *sql.Rows
	if listPrepared(f.Limit) {
		var st *sqlx.Stmt
		if st, err = s.stmt(ctx, query); err != nil {
			return lead.Page{}, err
		}
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = s.db.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return lead.Page{}, translate(err)
	}
	defer rows.Close()
	var page lead.Page
	page.Leads = make([]lead.Stored, 0, f.Limit)
	for rows.Next() {
		if len(page.Leads) == f.Limit {
			last := page.Leads[f.Limit-1]
			page.Next = &lead.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
			break
		}
		var r leadRecord
		if err := rows.Scan(r.dest()...); err != nil {
			return lead.Page{}, translate(err)
		}
		l, err := r.stored()
		if err != nil {
			return lead.Page{}, err
		}
		page.Leads = append(page.Leads, l)
	}
	if err := rows.Err(); err != nil {
		return lead.Page{}, translate(err)
	}
	return page, nil
}

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
	st, err := s.stmt(ctx, selectOneLead)
	if err != nil {
		return lead.Stored{}, err
	}
	var r leadRecord
	if err := st.QueryRowContext(ctx, companyID, leadID).Scan(r.dest()...); err != nil {
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
ORDER BY m.id`

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

// eraseLeads erases leads $2 (uuid[]) of company $1 in one statement, so in one transaction:
// their chat messages and sessions, the idempotency records of their creates, what their
// events' receivers answered (a receiver may echo the lead back), and the leads, whose history
// goes with them (ON DELETE CASCADE). The outbox keeps no copy of a lead (a delivery reads the
// lead when it sends, and finds none), so nothing else of the person remains. The foreign keys
// between them are checked at the statement's end, when every part is gone. The month's
// counter is left as it is. It returns the ids erased: none for leads that are not there.
const eraseLeads = `
WITH doomed AS (
    SELECT id FROM leads WHERE company_id = $1 AND id = ANY($2::uuid[]) FOR UPDATE
), answers AS (
    UPDATE event_deliveries d SET last_response = NULL, last_error = NULL
    FROM lead_events e
    WHERE e.company_id = $1 AND e.lead_id IN (SELECT id FROM doomed)
        AND d.company_id = $1 AND d.event_id = e.id
        AND (d.last_response IS NOT NULL OR d.last_error IS NOT NULL)
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

// DeleteLead erases one of a company's leads and records its lead.erased event, in one
// transaction; see lead.Store.
func (s *Store) DeleteLead(ctx context.Context, companyID, leadID uuid.UUID) error {
	n, err := s.EraseLeads(ctx, companyID, []uuid.UUID{leadID})
	if err == nil && n == 0 {
		return errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	return err
}

// EraseLeads erases those of ids that are the company's leads, with everything held on them,
// and records lead.erased for each, in one transaction; it returns how many it erased. Every
// erasure (the API's DELETE, the CLI, the dashboard, retention) goes through it.
func (s *Store) EraseLeads(ctx context.Context, companyID uuid.UUID, ids []uuid.UUID) (int, error) {
	var erased []uuid.UUID
	err := s.inTx(ctx, func(sqltx *sqlx.Tx) error {
		tx := runner{s: s, tx: sqltx}
		if err := tx.selectAll(ctx, &erased, eraseLeads, companyID, uuidArray(ids)); err != nil || len(erased) == 0 {
			return err
		}
		return recordErased(ctx, tx, companyID, erased)
	})
	if err != nil {
		return 0, err
	}
	return len(erased), nil
}

// selectLeadsByEmail finds a company's leads with an address, whatever its letters' case.
const selectLeadsByEmail = `
SELECT id FROM leads WHERE company_id = $1 AND lower(email) = lower($2) ORDER BY created_at, id`

// LeadsByEmail returns the ids of the company's leads with the address email, oldest first.
func (s *Store) LeadsByEmail(ctx context.Context, companyID uuid.UUID, email string) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := s.db.SelectContext(ctx, &ids, selectLeadsByEmail, companyID, email)
	return ids, translate(err)
}

// selectRelatedLeads reads the company's other leads with the same
// address (whatever its letters' case) or the same E.164 number as lead $2, newest first. Each
// half is found through its own partial index; the lead itself is left out.
const selectRelatedLeads = selectLead + `
WHERE l.company_id = $1 AND l.id <> $2 AND l.id IN (
    SELECT o.id FROM leads me JOIN leads o ON o.company_id = $1 AND lower(o.email) = lower(me.email)
    WHERE me.company_id = $1 AND me.id = $2 AND me.email IS NOT NULL AND o.email IS NOT NULL
    UNION
    SELECT o.id FROM leads me JOIN leads o ON o.company_id = $1 AND o.phone_e164 = me.phone_e164
    WHERE me.company_id = $1 AND me.id = $2 AND me.phone_e164 IS NOT NULL AND o.phone_e164 IS NOT NULL)
ORDER BY l.created_at DESC, l.id DESC
LIMIT $3`

// RelatedLeads returns up to limit of the company's other leads of the same person as leadID:
// the same e-mail address or the same E.164 phone number, newest first.
func (s *Store) RelatedLeads(ctx context.Context, companyID, leadID uuid.UUID, limit int) ([]lead.Stored, error) {
	rows, err := s.db.QueryContext(ctx, selectRelatedLeads, companyID, leadID, limit)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []lead.Stored
	for rows.Next() {
		var r leadRecord
		if err := rows.Scan(r.dest()...); err != nil {
			return nil, translate(err)
		}
		l, err := r.stored()
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, translate(rows.Err())
}
