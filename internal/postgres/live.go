package postgres

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
)

// chatChannel carries a notification for every new chat message (its id, company id and session
// id, sent by a trigger at commit) and for every change of who has a conversation (id 0).
const chatChannel = "leadchat_chat"

// messagesAfter reads a session's messages after an id through chat_messages_session; the
// session row comes first, so a known session without new messages is one row of NULLs and an
// unknown one none.
const messagesAfter = `
SELECT m.id, m.visitor, m.agent_name, m.text, m.created_at
FROM chat_sessions s
LEFT JOIN LATERAL (
    SELECT id, visitor, agent_name, text, created_at FROM chat_messages
    WHERE company_id = $1 AND session_id = $2 AND id > $3 ORDER BY id LIMIT $4) m ON true
WHERE s.company_id = $1 AND s.session_id = $2`

type messageRow struct {
	ID        sql.NullInt64  `db:"id"`
	Visitor   sql.NullBool   `db:"visitor"`
	AgentName sql.NullString `db:"agent_name"`
	Text      sql.NullString `db:"text"`
	CreatedAt sql.NullTime   `db:"created_at"`
}

func (r messageRow) message() chat.Message {
	m := chat.Message{ID: r.ID.Int64, Role: chat.RoleAssistant, Text: r.Text.String, At: r.CreatedAt.Time}
	switch {
	case r.Visitor.Bool:
		m.Role = chat.RoleVisitor
	case r.AgentName.Valid:
		m.Role, m.AgentName = chat.RoleAgent, r.AgentName.String
	}
	return m
}

// Messages returns a session's messages after an id; see chat.LiveStore.
func (s *Store) Messages(ctx context.Context, companyID uuid.UUID, sessionID string, after int64, n int) ([]chat.Message, error) {
	var rows []messageRow
	if err := (runner{s: s}).selectAll(ctx, &rows, messagesAfter, companyID, sessionID, after, n); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.E(errs.NotFound, errs.CodeNotFound)
	}
	out := make([]chat.Message, 0, len(rows))
	for _, r := range rows {
		if r.ID.Valid {
			out = append(out, r.message())
		}
	}
	return out, nil
}

// selectConversations lists conversations through chat_sessions_active; the unread count reads
// the session's messages after the seen one through chat_messages_session.
const selectConversations = `
SELECT s.session_id, s.lead_id, s.first_name, s.last_name, s.language, s.updated_at, s.waiting_since,
       s.agent_id, u.email AS agent_email,
       (SELECT count(*) FROM chat_messages m
        WHERE m.company_id = $1 AND m.session_id = s.session_id AND m.id > s.seen_id AND m.visitor) AS unread
FROM chat_sessions s
LEFT JOIN users u ON u.id = s.agent_id
WHERE s.company_id = $1 AND s.updated_at >= $2 AND ($3 = '' OR s.session_id = $3)
ORDER BY s.updated_at DESC, s.session_id
LIMIT 500`

type conversationRow struct {
	SessionID    string         `db:"session_id"`
	LeadID       *uuid.UUID     `db:"lead_id"`
	FirstName    sql.NullString `db:"first_name"`
	LastName     sql.NullString `db:"last_name"`
	Language     sql.NullString `db:"language"`
	UpdatedAt    time.Time      `db:"updated_at"`
	WaitingSince *time.Time     `db:"waiting_since"`
	AgentID      *uuid.UUID     `db:"agent_id"`
	AgentEmail   sql.NullString `db:"agent_email"`
	Unread       int            `db:"unread"`
}

func (r conversationRow) conversation() chat.Conversation {
	c := chat.Conversation{SessionID: r.SessionID, LeadID: r.LeadID, LastAt: r.UpdatedAt, Unread: r.Unread,
		WaitingSince: r.WaitingSince,
		Name:         chat.Contact{FirstName: r.FirstName.String, LastName: r.LastName.String}.NameIn(r.Language.String)}
	if r.AgentID != nil {
		c.Agent = &chat.Agent{ID: *r.AgentID, Name: chat.AgentName(r.AgentEmail.String)}
	}
	return c
}

// Conversations lists a company's conversations active since then; see chat.LiveStore.
func (s *Store) Conversations(ctx context.Context, companyID uuid.UUID, since time.Time) ([]chat.Conversation, error) {
	var rows []conversationRow
	if err := s.db.SelectContext(ctx, &rows, selectConversations, companyID, since, ""); err != nil {
		return nil, translate(err)
	}
	out := make([]chat.Conversation, len(rows))
	for i, r := range rows {
		out[i] = r.conversation()
	}
	return out, nil
}

// Conversation is one of a company's conversations; see chat.LiveStore.
func (s *Store) Conversation(ctx context.Context, companyID uuid.UUID, sessionID string) (chat.Conversation, error) {
	var rows []conversationRow
	if err := s.db.SelectContext(ctx, &rows, selectConversations, companyID, time.Time{}, sessionID); err != nil {
		return chat.Conversation{}, translate(err)
	}
	if len(rows) == 0 {
		return chat.Conversation{}, errs.E(errs.NotFound, errs.CodeNotFound)
	}
	return rows[0].conversation(), nil
}

// holdSession gives a session to a user of the company ($3) or back to the assistant (NULL).
// The version moves on, so a turn that read the session before answers again as it now is;
// the notification tells every instance's views.
const holdSession = `
UPDATE chat_sessions SET agent_id = $3, waiting_since = NULL, version = version + 1, updated_at = now()
WHERE company_id = $1 AND session_id = $2
    AND ($3::uuid IS NULL OR EXISTS (SELECT FROM memberships m WHERE m.company_id = $1 AND m.user_id = $3))
RETURNING pg_notify('` + chatChannel + `', '0 ' || company_id || ' ' || session_id)`

// Hold gives a conversation to a person or back to the assistant; see chat.LiveStore.
func (s *Store) Hold(ctx context.Context, companyID uuid.UUID, sessionID string, agent *uuid.UUID) error {
	res, err := s.db.ExecContext(ctx, holdSession, companyID, sessionID, agent)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.E(errs.NotFound, errs.CodeNotFound)
	}
	return nil
}

// insertAgentMessage stores a person's message and takes the session over for them unless
// someone has it; the visitor waits no longer. Updating the session first holds its row, so
// the session's message ids are committed in order (a stream reads by id).
const insertAgentMessage = `
WITH s AS (
    UPDATE chat_sessions SET agent_id = coalesce(agent_id, $3), waiting_since = NULL,
        version = version + 1, updated_at = now()
    WHERE company_id = $1 AND session_id = $2
        AND EXISTS (SELECT FROM memberships m WHERE m.company_id = $1 AND m.user_id = $3)
    RETURNING company_id, session_id
)
INSERT INTO chat_messages (company_id, session_id, visitor, text, agent_id, agent_name)
SELECT company_id, session_id, false, $4, $3, $5 FROM s
RETURNING id, visitor, agent_name, text, created_at`

// AgentMessage stores a person's message; see chat.LiveStore.
func (s *Store) AgentMessage(ctx context.Context, companyID uuid.UUID, sessionID string, agent chat.Agent, text string) (chat.Message, error) {
	var row messageRow
	err := s.db.GetContext(ctx, &row, insertAgentMessage, companyID, sessionID, agent.ID, text, agent.Name)
	if err != nil {
		return chat.Message{}, translate(err)
	}
	return row.message(), nil
}

const markSeen = `
UPDATE chat_sessions SET seen_id = greatest(seen_id, $3)
WHERE company_id = $1 AND session_id = $2`

// MarkSeen records what the company's people have read; see chat.LiveStore.
func (s *Store) MarkSeen(ctx context.Context, companyID uuid.UUID, sessionID string, id int64) error {
	_, err := s.db.ExecContext(ctx, markSeen, companyID, sessionID, id)
	return translate(err)
}

// resumeWaiting gives held sessions whose visitor has waited since before $1 back to the
// assistant, with its message in the session's language ($4 English, $5 otherwise), in bounded
// batches. Locked rows are skipped: a turn or another instance is at them. $2 and $3 narrow
// it to one session.
const resumeWaiting = `
WITH due AS (
    SELECT company_id, session_id FROM chat_sessions
    WHERE waiting_since IS NOT NULL AND waiting_since <= $1 AND agent_id IS NOT NULL
        AND ($2::uuid IS NULL OR (company_id = $2 AND session_id = $3))
    ORDER BY waiting_since LIMIT 500
    FOR UPDATE SKIP LOCKED
), released AS (
    UPDATE chat_sessions s SET agent_id = NULL, waiting_since = NULL, version = s.version + 1,
        updated_at = now()
    FROM due WHERE s.company_id = due.company_id AND s.session_id = due.session_id
    RETURNING s.company_id, s.session_id, s.language
)
INSERT INTO chat_messages (company_id, session_id, visitor, text, request_contact)
SELECT company_id, session_id, false, CASE WHEN language = 'en' THEN $4 ELSE $5 END, true
FROM released`

// ResumeWaiting gives conversations whose visitor waited too long back to the assistant; see
// chat.LiveStore.
func (s *Store) ResumeWaiting(ctx context.Context, cutoff time.Time, companyID *uuid.UUID, sessionID string, text func(lang string) string) (int, error) {
	total := 0
	for {
		res, err := s.db.ExecContext(ctx, resumeWaiting, cutoff, companyID, sessionID, text("en"), text("hu"))
		if err != nil {
			return total, translate(err)
		}
		n, _ := res.RowsAffected()
		total += int(n)
		if n < 500 {
			return total, nil
		}
	}
}

var _ chat.LiveStore = (*Store)(nil)

// agentsOnline: the session is held by a person, or a person's dashboard presence has not run
// out.
const agentsOnline = `
SELECT EXISTS (SELECT FROM chat_sessions WHERE company_id = $1 AND session_id = $2 AND agent_id IS NOT NULL)
    OR EXISTS (SELECT FROM chat_presence WHERE company_id = $1 AND until > now())`

// AgentsOnline reports whether a person can answer the session now; see chat.LiveStore.
func (s *Store) AgentsOnline(ctx context.Context, companyID uuid.UUID, sessionID string) (bool, error) {
	var on bool
	err := (runner{s: s}).get(ctx, &on, agentsOnline, companyID, sessionID)
	return on, err
}

// presentUntil records a person's presence; a person who was not present (or whose presence
// ran out) is news to the company's visitors' streams.
const presentUntil = `
WITH old AS (
    SELECT until FROM chat_presence WHERE company_id = $1 AND user_id = $2
), up AS (
    INSERT INTO chat_presence (company_id, user_id, until) VALUES ($1, $2, $3)
    ON CONFLICT (company_id, user_id) DO UPDATE SET until = excluded.until
    RETURNING company_id
)
SELECT pg_notify('` + chatChannel + `', 'p ' || $1::uuid)
FROM up WHERE NOT EXISTS (SELECT FROM old WHERE until > now())`

const absent = `
WITH gone AS (DELETE FROM chat_presence WHERE company_id = $1 AND user_id = $2 RETURNING company_id)
SELECT pg_notify('` + chatChannel + `', 'p ' || $1::uuid) FROM gone`

// Present records or ends a person's presence; see chat.LiveStore.
func (s *Store) Present(ctx context.Context, companyID, userID uuid.UUID, until *time.Time) error {
	var err error
	if until == nil {
		_, err = s.db.ExecContext(ctx, absent, companyID, userID)
	} else {
		_, err = s.db.ExecContext(ctx, presentUntil, companyID, userID, *until)
	}
	return translate(err)
}
