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
	"github.com/leadchat/leadchat/internal/lead"
)

// lockSession creates the session on its first message or locks it, in one statement: the
// no-op update takes the row lock, so two messages of one session run one after the other.
const lockSession = `
INSERT INTO chat_sessions AS s (company_id, session_id) VALUES ($1, $2)
ON CONFLICT (company_id, session_id) DO UPDATE SET updated_at = now()
RETURNING s.lead_id, s.visitor_messages, s.first_name, s.last_name, s.email, s.phone,
          s.phone_e164, s.referral_data`

const updateSession = `
UPDATE chat_sessions SET lead_id = $3, visitor_messages = $4, first_name = $5, last_name = $6,
    email = $7, phone = $8, phone_e164 = $9, referral_data = $10, updated_at = now()
WHERE company_id = $1 AND session_id = $2`

const insertMessage = `
INSERT INTO chat_messages (company_id, session_id, visitor, text) VALUES ($1, $2, $3, $4)`

// updateLead writes the session's newer details to its lead; the status and the month's count
// are the create's and stay.
const updateLead = `
UPDATE leads SET first_name = $3, last_name = $4, email = $5, phone = $6, phone_e164 = $7,
    updated_at = now()
WHERE company_id = $1 AND id = $2`

// The newest messages, returned oldest first.
const selectHistory = `
SELECT visitor, text FROM (
    SELECT id, visitor, text FROM chat_messages
    WHERE company_id = $1 AND session_id = $2
    ORDER BY id DESC LIMIT $3
) recent ORDER BY id`

type sessionRow struct {
	LeadID          *uuid.UUID     `db:"lead_id"`
	VisitorMessages int            `db:"visitor_messages"`
	FirstName       sql.NullString `db:"first_name"`
	LastName        sql.NullString `db:"last_name"`
	Email           sql.NullString `db:"email"`
	Phone           sql.NullString `db:"phone"`
	PhoneE164       sql.NullString `db:"phone_e164"`
	ReferralData    []byte         `db:"referral_data"`
}

// Turn runs one change of a chat session; see chat.Store.
func (s *Store) Turn(ctx context.Context, companyID uuid.UUID, sessionID string, limit *int, decide func(chat.Session) (chat.Update, error)) (chat.Session, []assistant.Message, error) {
	var next chat.Session
	var history []assistant.Message
	err := s.inTx(ctx, func(sqltx *sqlx.Tx) error {
		tx := runner{s: s, tx: sqltx}
		var row sessionRow
		if err := tx.get(ctx, &row, lockSession, companyID, sessionID); err != nil {
			return err
		}
		cur := chat.Session{ID: sessionID, LeadID: row.LeadID, VisitorMessages: row.VisitorMessages,
			Contact: chat.Contact{FirstName: row.FirstName.String, LastName: row.LastName.String,
				Email: row.Email.String, Phone: row.Phone.String, PhoneE164: row.PhoneE164.String}}
		if row.ReferralData != nil {
			if err := json.Unmarshal(row.ReferralData, &cur.ReferralData); err != nil {
				return fmt.Errorf("session referral data: %w", err)
			}
		}
		upd, err := decide(cur)
		if err != nil {
			return err
		}
		next = upd.Session
		if upd.Lead != nil {
			if next.LeadID == nil {
				created, err := insertLeadWith(ctx, tx, companyID, *upd.Lead, limit)
				if err != nil {
					return err
				}
				next.NewLead = &created
				id := upd.Lead.ID
				next.LeadID = &id
			} else {
				l := upd.Lead
				if err := tx.exec(ctx, updateLead, companyID, *next.LeadID, null(l.FirstName),
					null(l.LastName), null(l.Email), null(l.Phone), null(l.PhoneE164)); err != nil {
					return err
				}
			}
		}
		var referral []byte
		if len(next.ReferralData) > 0 {
			if referral, err = json.Marshal(next.ReferralData); err != nil {
				return err
			}
		}
		c := next.Contact
		if err := tx.exec(ctx, updateSession, companyID, sessionID, next.LeadID, next.VisitorMessages,
			null(c.FirstName), null(c.LastName), null(c.Email), null(c.Phone), null(c.PhoneE164), jsonText(referral)); err != nil {
			return err
		}
		if upd.Message != "" {
			if err := tx.exec(ctx, insertMessage, companyID, sessionID, true, upd.Message); err != nil {
				return err
			}
		}
		var rows []struct {
			Visitor bool   `db:"visitor"`
			Text    string `db:"text"`
		}
		if err := tx.selectAll(ctx, &rows, selectHistory, companyID, sessionID, chat.HistoryLen+1); err != nil {
			return err
		}
		history = make([]assistant.Message, len(rows))
		for i, r := range rows {
			history[i] = assistant.Message{Visitor: r.Visitor, Text: r.Text}
		}
		return nil
	})
	if err != nil {
		return chat.Session{}, nil, err
	}
	return next, history, nil
}

// SaveReply records an assistant reply.
func (s *Store) SaveReply(ctx context.Context, companyID uuid.UUID, sessionID, text string) error {
	return runner{s: s}.exec(ctx, insertMessage, companyID, sessionID, false, text)
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
