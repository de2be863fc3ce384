package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// readTurn reads what a turn needs in one round trip: the session (NULLs when it is new), its
// newest $3 messages oldest first, and the stored answer to message id $4, if any. It takes no
// lock: the turn's write checks the version it read.
const readTurn = `
SELECT s.version, s.lead_id, s.visitor_messages, s.first_name, s.last_name, s.email, s.phone,
       s.phone_e164, s.referral_data,
       (SELECT jsonb_agg(jsonb_build_object('v', h.visitor, 't', h.text) ORDER BY h.id)
        FROM (SELECT id, visitor, text FROM chat_messages
              WHERE company_id = $1 AND session_id = $2 ORDER BY id DESC LIMIT $3) h) AS history,
       a.text AS answered, a.request_contact AS answered_request_contact
FROM (SELECT 1) one
LEFT JOIN chat_sessions s ON s.company_id = $1 AND s.session_id = $2
LEFT JOIN LATERAL (
    SELECT text, request_contact FROM chat_messages
    WHERE company_id = $1 AND session_id = $2 AND message_id = $4 AND NOT visitor
    ORDER BY id LIMIT 1) a ON $4 <> ''`

// saveTurn stores a turn's session state and its two messages in one statement, only while the
// session is at the version the turn read ($3; a new session is inserted whatever it says, and
// a racing first turn finds the row and its version moved on). No row back means the turn lost
// a race and nothing was written. A repeated message id fails the unique index, likewise
// leaving nothing.
const saveTurn = `
WITH session AS (
    INSERT INTO chat_sessions AS s (company_id, session_id, version, lead_id, visitor_messages,
        first_name, last_name, email, phone, phone_e164, referral_data)
    VALUES ($1, $2, 1, $4, $5, $6, $7, $8, $9, $10, $11)
    ON CONFLICT (company_id, session_id) DO UPDATE SET version = s.version + 1,
        lead_id = excluded.lead_id, visitor_messages = excluded.visitor_messages,
        first_name = excluded.first_name, last_name = excluded.last_name, email = excluded.email,
        phone = excluded.phone, phone_e164 = excluded.phone_e164,
        referral_data = excluded.referral_data, updated_at = now()
    WHERE s.version = $3
    RETURNING s.version
), messages AS (
    INSERT INTO chat_messages (company_id, session_id, visitor, text, message_id, request_contact)
    SELECT $1, $2, m.visitor, m.text, $12, m.request_contact
    FROM session, (VALUES (1, true, $13::text, NULL::boolean), (2, false, $14::text, $15::boolean))
        AS m(ord, visitor, text, request_contact)
    ORDER BY m.ord
)
SELECT version FROM session`

// updateLeadContact writes a session's details to its lead and records each change ($3, a JSON
// array of {field, value, origin}) in the lead's history with the value it replaces. The old
// values come from the row as locked before the update, so history and lead always agree.
const updateLeadContact = `
WITH old AS (
    SELECT first_name, last_name, email, phone FROM leads
    WHERE company_id = $1 AND id = $2 FOR UPDATE
), changed AS (
    UPDATE leads SET first_name = $4, last_name = $5, email = $6, phone = $7, phone_e164 = $8,
        updated_at = now()
    WHERE company_id = $1 AND id = $2
)
INSERT INTO lead_history (company_id, lead_id, field, old_value, new_value, origin)
SELECT $1, $2, c.field, o.value, nullif(c.value, ''), c.origin
FROM jsonb_to_recordset($3::jsonb) AS c(field text, value text, origin text)
CROSS JOIN old
CROSS JOIN LATERAL (SELECT CASE c.field WHEN 'first_name' THEN old.first_name
    WHEN 'last_name' THEN old.last_name WHEN 'email' THEN old.email WHEN 'phone' THEN old.phone END) AS o(value)
WHERE o.value IS DISTINCT FROM nullif(c.value, '')`

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
	History         []byte         `db:"history"`
	Answered        sql.NullString `db:"answered"`
	AnsweredRC      sql.NullBool   `db:"answered_request_contact"`
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
			Email: row.Email.String, Phone: row.Phone.String, PhoneE164: row.PhoneE164.String}}}
	if row.ReferralData != nil {
		if err := json.Unmarshal(row.ReferralData, &st.Session.ReferralData); err != nil {
			return chat.State{}, fmt.Errorf("session referral data: %w", err)
		}
	}
	if row.History != nil {
		var h []struct {
			V bool   `json:"v"`
			T string `json:"t"`
		}
		if err := json.Unmarshal(row.History, &h); err != nil {
			return chat.State{}, fmt.Errorf("session history: %w", err)
		}
		st.History = make([]assistant.Message, len(h))
		for i, m := range h {
			st.History[i] = assistant.Message{Visitor: m.V, Text: m.T}
		}
	}
	if row.Answered.Valid {
		st.Answered = &chat.Answered{Reply: row.Answered.String, RequestContact: row.AnsweredRC.Bool}
	}
	return st, nil
}

// SaveTurn stores a chat turn in one transaction; see chat.Store. A turn that changes no lead
// is one statement, which is its own transaction.
func (s *Store) SaveTurn(ctx context.Context, companyID uuid.UUID, w chat.Write) (*lead.Created, error) {
	if w.NewLead == nil && len(w.Changes) == 0 {
		return nil, saveTurnSession(ctx, runner{s: s}, companyID, w)
	}
	var created *lead.Created
	err := s.inTx(ctx, func(sqltx *sqlx.Tx) error {
		tx := runner{s: s, tx: sqltx}
		// The lead first: the session refers to it.
		if l := w.NewLead; l != nil {
			out, err := storeLeads(ctx, tx, []leadCreate{{companyID: companyID, lead: *l, limit: w.Limit}})
			if err != nil {
				return err
			}
			created = &out[0]
		}
		if len(w.Changes) > 0 && w.Session.LeadID != nil {
			if err := changeLeadContact(ctx, tx, companyID, *w.Session.LeadID, w.Session.Contact, w.Changes); err != nil {
				return err
			}
		}
		return saveTurnSession(ctx, tx, companyID, w)
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

func saveTurnSession(ctx context.Context, q runner, companyID uuid.UUID, w chat.Write) error {
	var referral []byte
	if len(w.Session.ReferralData) > 0 {
		var err error
		if referral, err = json.Marshal(w.Session.ReferralData); err != nil {
			return fmt.Errorf("encoding referral data: %w", err)
		}
	}
	c := w.Session.Contact
	var version int
	err := q.get(ctx, &version, saveTurn, companyID, w.Session.ID, w.Session.Version, w.Session.LeadID,
		w.Session.VisitorMessages, null(c.FirstName), null(c.LastName), null(c.Email), null(c.Phone),
		null(c.PhoneE164), jsonText(referral), null(w.MessageID), w.Message, w.Answered.Reply,
		w.Answered.RequestContact)
	if errs.Is(err, errs.NotFound) {
		return errs.Wrap(errs.Conflict, "session_busy", err)
	}
	return err
}

// changeLeadContact writes the contact details to the lead, recording changes in its history.
func changeLeadContact(ctx context.Context, q runner, companyID, leadID uuid.UUID, c chat.Contact, changes []lead.Change) error {
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
	return q.exec(ctx, updateLeadContact, companyID, leadID, string(arg), null(c.FirstName),
		null(c.LastName), null(c.Email), null(c.Phone), null(c.PhoneE164))
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
