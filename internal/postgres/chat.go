package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
)

// readTurn reads what a turn needs in one round trip: the session (NULLs when it is new), its
// newest $3 messages oldest first, and the stored answer to message id $4, if any. It takes no
// lock: the turn's write checks the version it read.
const readTurn = `
SELECT s.version, s.lead_id, s.visitor_messages, s.first_name, s.last_name, s.email, s.phone,
       s.phone_e164, s.referral_data, s.service, s.note, s.language, s.summary, s.agent_id, s.waiting_since,
       h.visitor AS history_visitor, h.text AS history_text,
       CASE WHEN a.visitor THEN '' ELSE a.text END AS answered,
       a.request_contact AS answered_request_contact, a.visitor AS answered_held
FROM (SELECT 1) one
LEFT JOIN chat_sessions s ON s.company_id = $1 AND s.session_id = $2
CROSS JOIN LATERAL (
    SELECT array_agg(visitor ORDER BY id) AS visitor, array_agg(text ORDER BY id) AS text
    FROM (SELECT id, visitor, text FROM chat_messages
          WHERE company_id = $1 AND session_id = $2 ORDER BY id DESC LIMIT $3) recent) h
LEFT JOIN LATERAL (
    -- The reply carries the message's id; a message stored while a person had the conversation
    -- has none, and then the visitor's own row answers.
    SELECT text, request_contact, visitor FROM chat_messages
    WHERE company_id = $1 AND session_id = $2 AND message_id = $4
    ORDER BY visitor, id LIMIT 1) a ON $4 <> ''`

// saveTurns stores chat turns ($1: a JSON array of turnWrite): each one's session state and
// its two messages, only while the session is at the version the turn read. The insert carries
// the version the turn writes (read + 1), so a new session starts at 1 and an existing one is
// updated only when it is still at excluded.version - 1; a racing first turn finds the row
// and its version moved on. A turn missing from the rows returned lost its race and wrote
// nothing; of two turns of one session in a group, the later loses. A repeated message id fails the unique index; a group holding it is then retried
// one turn at a time (group.go), so only that turn fails. Session rows are taken in key order
// so concurrent groups cannot deadlock. A turn held by a person (held) stores no reply and
// marks since when the visitor waits, unless an earlier message waits already.
const saveTurns = `
WITH arrived AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
        ord int, company_id uuid, session_id text, version int, lead_id uuid,
        visitor_messages int, first_name text, last_name text, email text, phone text,
        phone_e164 text, referral_data jsonb, service text, note text, language text,
        summary jsonb, message_id text, message text, handed_over boolean, reply text,
        request_contact boolean, held boolean)
), batch AS (
    -- One turn per session: a later turn of a session in the same group read the same version,
    -- so it has lost the race already.
    SELECT DISTINCT ON (company_id, session_id) * FROM arrived ORDER BY company_id, session_id, ord
), session AS (
    INSERT INTO chat_sessions AS s (company_id, session_id, version, lead_id, visitor_messages,
        first_name, last_name, email, phone, phone_e164, referral_data, service, note, language,
        summary, waiting_since)
    SELECT company_id, session_id, version + 1, lead_id, visitor_messages, first_name,
           last_name, email, phone, phone_e164, referral_data, service, note, language, summary,
           CASE WHEN held THEN now() END
    FROM batch ORDER BY company_id, session_id
    ON CONFLICT (company_id, session_id) DO UPDATE SET version = excluded.version,
        lead_id = excluded.lead_id, visitor_messages = excluded.visitor_messages,
        first_name = excluded.first_name, last_name = excluded.last_name, email = excluded.email,
        phone = excluded.phone, phone_e164 = excluded.phone_e164,
        referral_data = excluded.referral_data, service = excluded.service, note = excluded.note,
        language = excluded.language, summary = excluded.summary, updated_at = now(),
        waiting_since = coalesce(s.waiting_since, excluded.waiting_since)
    WHERE s.version = excluded.version - 1
    RETURNING company_id, session_id
), stored AS (
    SELECT b.* FROM batch b JOIN session USING (company_id, session_id)
), messages AS (
    INSERT INTO chat_messages (company_id, session_id, visitor, text, message_id, request_contact,
        handed_over)
    SELECT company_id, session_id, m.visitor, m.text, message_id, m.request_contact, m.handed_over
    FROM stored, LATERAL (VALUES (1, true, stored.message, NULL::boolean, coalesce(stored.handed_over, false)),
                                 (2, false, stored.reply, stored.request_contact, false))
        AS m(n, visitor, text, request_contact, handed_over)
    WHERE m.n = 1 OR NOT coalesce(stored.held, false)
    ORDER BY stored.ord, m.n
)
SELECT ord FROM stored`

// turnWrite is one turn as saveTurns reads it; an omitted field is NULL.
type turnWrite struct {
	Ord             int               `json:"ord"`
	CompanyID       uuid.UUID         `json:"company_id"`
	SessionID       string            `json:"session_id"`
	Version         int               `json:"version"`
	LeadID          *uuid.UUID        `json:"lead_id,omitempty"`
	VisitorMessages int               `json:"visitor_messages"`
	FirstName       string            `json:"first_name,omitempty"`
	LastName        string            `json:"last_name,omitempty"`
	Email           string            `json:"email,omitempty"`
	Phone           string            `json:"phone,omitempty"`
	PhoneE164       string            `json:"phone_e164,omitempty"`
	ReferralData    map[string]string `json:"referral_data,omitempty"`
	Service         string            `json:"service,omitempty"`
	Note            string            `json:"note,omitempty"`
	Language        string            `json:"language,omitempty"`
	Summary         *summaryJSON      `json:"summary,omitempty"`
	MessageID       string            `json:"message_id,omitempty"`
	Message         string            `json:"message"`
	HandedOver      bool              `json:"handed_over,omitempty"`
	Reply           string            `json:"reply"`
	RequestContact  bool              `json:"request_contact"`
	Held            bool              `json:"held,omitempty"`
}

// summaryJSON is a chat.Summary as chat_sessions.summary keeps it.
type summaryJSON struct {
	Wants      []chat.Want  `json:"wants,omitempty"`
	Topics     []chat.Topic `json:"topics,omitempty"`
	Asked      []string     `json:"asked,omitempty"`
	Unanswered []string     `json:"unanswered,omitempty"`
}

func newTurnWrite(companyID uuid.UUID, w chat.Write) turnWrite {
	c := w.Session.Contact
	t := turnWrite{CompanyID: companyID, SessionID: w.Session.ID, Version: w.Session.Version,
		LeadID: w.Session.LeadID, VisitorMessages: w.Session.VisitorMessages, FirstName: c.FirstName,
		LastName: c.LastName, Email: c.Email, Phone: c.Phone, PhoneE164: c.PhoneE164,
		ReferralData: w.Session.ReferralData, Service: w.Session.Service, Note: w.Session.Note,
		Language: w.Session.Language, MessageID: w.MessageID, Message: w.Message,
		HandedOver: w.HandedOver, Reply: w.Answered.Reply, RequestContact: w.Answered.RequestContact,
		Held: w.Answered.ByAgent}
	if sum := summaryJSON(w.Session.Summary); sum.Wants != nil || sum.Topics != nil || sum.Asked != nil || sum.Unanswered != nil {
		t.Summary = &sum
	}
	return t
}

// storeTurns stores turns with saveTurns on q and reports which were stored; the others lost
// a race to another turn of their session.
func storeTurns(ctx context.Context, q runner, turns []turnWrite) ([]bool, error) {
	for i := range turns {
		turns[i].Ord = i
	}
	arg, err := json.Marshal(turns)
	if err != nil {
		return nil, fmt.Errorf("encoding chat turns: %w", err)
	}
	var ords []int
	if err := q.selectAll(ctx, &ords, saveTurns, string(arg)); err != nil {
		return nil, err
	}
	stored := make([]bool, len(turns))
	for _, o := range ords {
		stored[o] = true
	}
	return stored, nil
}

// updateLeadContact writes a session's details to its lead and records each change ($3, a JSON
// array of {field, value, origin}) in the lead's history with the value it replaces. The old
// values come from the row as locked before the update, so history and lead always agree.
// The session's service ($9) and summary ($10, the lead's details: its note and unanswered
// questions, NULL to keep them) are written too; the details' changes are not history (they
// only sum up the kept messages), the service's are.
// When a contact detail changed, the lead's lead.updated event is recorded too (the ev_ entries);
// a new service or note alone is no event. A consent ($11, NULL when the turn sent none) replaces
// the lead's; its history keeps both as JSON, and it is an event like a contact detail.
var updateLeadContact = `
WITH old AS (
    SELECT first_name, last_name, email, phone, service, consent FROM leads
    WHERE company_id = $1 AND id = $2 FOR UPDATE
), changed AS (
    UPDATE leads SET first_name = $4, last_name = $5, email = $6, phone = $7, phone_e164 = $8,
        service = $9, consent = coalesce($11::jsonb, consent),
        details = CASE WHEN $10::jsonb IS NULL THEN details
                       ELSE coalesce(details, '{}'::jsonb) || $10::jsonb END,
        updated_at = now()
    WHERE company_id = $1 AND id = $2
    RETURNING *
), history AS (
INSERT INTO lead_history (company_id, lead_id, field, old_value, new_value, origin)
SELECT $1, $2, c.field, o.value, nullif(c.value, ''), c.origin
FROM jsonb_to_recordset($3::jsonb) AS c(field text, value text, origin text)
CROSS JOIN old
CROSS JOIN LATERAL (SELECT CASE c.field WHEN 'first_name' THEN old.first_name
    WHEN 'last_name' THEN old.last_name WHEN 'email' THEN old.email WHEN 'phone' THEN old.phone
    WHEN 'service' THEN old.service WHEN 'consent' THEN old.consent::text END) AS o(value)
WHERE c.field <> 'note' AND o.value IS DISTINCT FROM nullif(c.value, '')
RETURNING field
), ` + recordEvents(`SELECT company_id, id AS lead_id, '`+string(event.LeadUpdated)+`' AS type, c.email IS NOT NULL OR c.phone IS NOT NULL AS reachable, NULL::uuid AS assignee
    FROM changed c WHERE EXISTS (SELECT FROM history WHERE field <> 'service')`) + `
SELECT count(*) FROM history`

type turnRow struct {
	Version         sql.NullInt64  `db:"version"`
	LeadID          *uuid.UUID     `db:"lead_id"`
	VisitorMessages sql.NullInt64  `db:"visitor_messages"`
	FirstName       sql.NullString `db:"first_name"`
	LastName        sql.NullString `db:"last_name"`
	Email           sql.NullString `db:"email"`
	Phone           sql.NullString `db:"phone"`
	PhoneE164       sql.NullString `db:"phone_e164"`
	ReferralData    []byte         `db:"referral_data"`
	Service         sql.NullString `db:"service"`
	Note            sql.NullString `db:"note"`
	Language        sql.NullString `db:"language"`
	Summary         []byte         `db:"summary"`
	AgentID         *uuid.UUID     `db:"agent_id"`
	WaitingSince    *time.Time     `db:"waiting_since"`
	HistoryVisitor  pq.BoolArray   `db:"history_visitor"`
	HistoryText     pq.StringArray `db:"history_text"`
	Answered        sql.NullString `db:"answered"`
	AnsweredRC      sql.NullBool   `db:"answered_request_contact"`
	AnsweredHeld    sql.NullBool   `db:"answered_held"`
}

// ReadTurn reads what a chat turn needs; see chat.Store.
func (s *Store) ReadTurn(ctx context.Context, companyID uuid.UUID, sessionID, messageID string) (chat.State, error) {
	var row turnRow
	if err := (runner{s: s}).get(ctx, &row, readTurn, companyID, sessionID, chat.HistoryLen, messageID); err != nil {
		return chat.State{}, err
	}
	st := chat.State{Session: chat.Session{ID: sessionID, Version: int(row.Version.Int64), LeadID: row.LeadID,
		VisitorMessages: int(row.VisitorMessages.Int64),
		Contact: chat.Contact{FirstName: row.FirstName.String, LastName: row.LastName.String,
			Email: row.Email.String, Phone: row.Phone.String, PhoneE164: row.PhoneE164.String},
		Service: row.Service.String, Note: row.Note.String, Language: row.Language.String,
		Agent: row.AgentID, WaitingSince: row.WaitingSince}}
	if row.ReferralData != nil {
		if err := json.Unmarshal(row.ReferralData, &st.Session.ReferralData); err != nil {
			return chat.State{}, fmt.Errorf("session referral data: %w", err)
		}
	}
	if row.Summary != nil {
		var sum summaryJSON
		if err := json.Unmarshal(row.Summary, &sum); err != nil {
			return chat.State{}, fmt.Errorf("session summary: %w", err)
		}
		st.Session.Summary = chat.Summary(sum)
	}
	if len(row.HistoryVisitor) != len(row.HistoryText) {
		return chat.State{}, fmt.Errorf("session history: %d senders for %d messages", len(row.HistoryVisitor), len(row.HistoryText))
	}
	st.History = make([]assistant.Message, len(row.HistoryText))
	for i, text := range row.HistoryText {
		st.History[i] = assistant.Message{Visitor: row.HistoryVisitor[i], Text: text}
	}
	if row.Answered.Valid {
		st.Answered = &chat.Answered{Reply: row.Answered.String, RequestContact: row.AnsweredRC.Bool,
			ByAgent: row.AnsweredHeld.Bool}
	}
	return st, nil
}

// SaveTurn stores a chat turn in one transaction; see chat.Store. A turn that changes no lead
// joins the turn writers' next group; one that creates or changes the lead runs in a
// transaction of its own, the lead first (the session refers to it), then the turn as a group
// of one.
func (s *Store) SaveTurn(ctx context.Context, companyID uuid.UUID, w chat.Write) (*lead.Created, error) {
	turn := newTurnWrite(companyID, w)
	if w.NewLead == nil && len(w.Changes) == 0 {
		stored, err := s.turns.submit(ctx, turn)
		return nil, lostRace(stored, err)
	}
	var created *lead.Created
	err := s.inTx(ctx, func(sqltx *sqlx.Tx) error {
		tx := runner{s: s, tx: sqltx}
		if l := w.NewLead; l != nil {
			out, err := storeLeads(ctx, tx, []leadCreate{{companyID: companyID, lead: *l, limit: w.Limit}})
			if err != nil {
				return err
			}
			created = &out[0]
		}
		if len(w.Changes) > 0 && w.Session.LeadID != nil {
			if err := changeLeadContact(ctx, tx, companyID, *w.Session.LeadID, w); err != nil {
				return err
			}
		}
		stored, err := storeTurns(ctx, tx, []turnWrite{turn})
		if err != nil {
			return err
		}
		return lostRace(stored[0], nil)
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// lostRace is the error of a turn that was not stored because its session moved on.
func lostRace(stored bool, err error) error {
	if err == nil && !stored {
		return errs.E(errs.Conflict, errs.CodeSessionBusy)
	}
	return err
}

// changeLeadContact writes the session's contact details, service, note and the turn's consent
// to the lead, recording changes in its history.
func changeLeadContact(ctx context.Context, q runner, companyID, leadID uuid.UUID, w chat.Write) error {
	s, changes := w.Session, w.Changes
	c := s.Contact
	type change struct {
		Field  lead.Field  `json:"field"`
		Value  string      `json:"value"`
		Origin lead.Origin `json:"origin"`
	}
	cs := make([]change, len(changes))
	for i, ch := range changes {
		cs[i] = change(ch)
	}
	arg, err := json.Marshal(cs)
	if err != nil {
		return fmt.Errorf("encoding lead changes: %w", err)
	}
	var consent any
	if w.Consent != nil {
		v, err := json.Marshal(w.Consent)
		if err != nil {
			return fmt.Errorf("encoding consent: %w", err)
		}
		consent = string(v)
	}
	var details any
	if s.Note != "" {
		v, err := json.Marshal(leadDetails(s.Note, s.Summary.Unanswered))
		if err != nil {
			return fmt.Errorf("encoding lead details: %w", err)
		}
		details = string(v)
	}
	var n int
	return q.get(ctx, &n, updateLeadContact, companyID, leadID, string(arg), null(c.FirstName),
		null(c.LastName), null(c.Email), null(c.Phone), null(c.PhoneE164), null(s.Service), details, consent)
}

// useModelReply counts a reply only while under the budget: the conditional upsert returns no
// row once the day's budget is spent. A NULL budget means no cap.
const useModelReply = `
INSERT INTO model_usage AS u (company_id, day, replies)
VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 1)
ON CONFLICT (company_id, day) DO UPDATE SET replies = u.replies + 1
    WHERE $2::int IS NULL OR u.replies < $2::int
RETURNING replies`

// UseModelReply counts one AI model reply against today's budget; false when it is spent.
func (s *Store) UseModelReply(ctx context.Context, companyID uuid.UUID, budget *int) (bool, error) {
	if budget != nil && *budget <= 0 {
		return false, nil
	}
	var n int
	err := s.db.GetContext(ctx, &n, useModelReply, companyID, budget)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, translate(err)
}

var (
	_ chat.Store = (*Store)(nil)
	_ lead.Store = (*Store)(nil)
)
