package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// selectLeadFile reads a lead's page in one statement: the rows are of leadColumns, the lead $2
// first and then up to $3 of the same person's other leads (the same address, whatever its
// letters' case, or the same E.164 number, each half through its own partial index), newest
// first; the lead's row alone carries its transcript, history, notes and the company's users
// as JSON (CASE runs a subquery only for the row that takes its branch), their times in
// microseconds as leadColumns' are. Six reads in one round trip: the server's work per
// statement (database/sql, the driver, a write and a read of the socket) was more than
// decoding the lists' JSON costs, and PostgreSQL's about what building it costs. An unknown
// lead gives no row: the related halves start from the lead.
const selectLeadFile = `
SELECT ` + leadColumns + `,
       CASE WHEN l.id = $2 THEN (
           SELECT json_agg(json_build_object('visitor', m.visitor, 'text', m.text, 'at', (extract(epoch FROM m.created_at) * 1000000)::int8,
                                             'agent', m.agent_name) ORDER BY m.id)
           FROM chat_messages m WHERE m.company_id = $1 AND m.session_id = s.session_id) END,
       CASE WHEN l.id = $2 THEN (
           SELECT json_agg(json_build_object('field', h.field, 'old', coalesce(h.old_value, ''),
                                             'new', coalesce(h.new_value, ''), 'origin', h.origin,
                                             'at', (extract(epoch FROM h.created_at) * 1000000)::int8) ORDER BY h.id)
           FROM lead_history h WHERE h.company_id = $1 AND h.lead_id = l.id) END,
       CASE WHEN l.id = $2 THEN (
           SELECT json_agg(json_build_object('id', n.id, 'author_id', n.author_id, 'author', n.author_email,
                                             'text', n.body, 'at', (extract(epoch FROM n.created_at) * 1000000)::int8) ORDER BY n.id)
           FROM lead_notes n WHERE n.company_id = $1 AND n.lead_id = l.id) END,
       CASE WHEN l.id = $2 THEN (
           SELECT json_agg(json_build_object('id', u.id, 'email', u.email,
                                             'password_set', u.password_hash IS NOT NULL AND m.accepted_at IS NOT NULL,
                                             'created_at', m.created_at, 'company_id', m.company_id, 'role', m.role)
                           ORDER BY m.created_at, u.id)
           FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.company_id = $1) END
FROM leads l
LEFT JOIN chat_sessions s ON s.company_id = $1 AND s.lead_id = l.id
WHERE l.company_id = $1 AND l.id IN (
    SELECT $2::uuid
    UNION
    SELECT o.id FROM leads me JOIN leads o ON o.company_id = $1 AND lower(o.email) = lower(me.email)
    WHERE me.company_id = $1 AND me.id = $2 AND me.email IS NOT NULL AND o.email IS NOT NULL
    UNION
    SELECT o.id FROM leads me JOIN leads o ON o.company_id = $1 AND o.phone_e164 = me.phone_e164
    WHERE me.company_id = $1 AND me.id = $2 AND me.phone_e164 IS NOT NULL AND o.phone_e164 IS NOT NULL)
ORDER BY l.id <> $2, l.created_at DESC, l.id DESC
LIMIT $3::int + 1`

// The JSON shapes of selectLeadFile's lists.
type (
	fileMessage struct {
		Visitor bool    `json:"visitor"`
		Text    string  `json:"text"`
		At      int64   `json:"at"` // microseconds since 1970, as leadColumns' times
		Agent   *string `json:"agent"`
	}
	fileChange struct {
		Field  lead.Field  `json:"field"`
		Old    string      `json:"old"`
		New    string      `json:"new"`
		Origin lead.Origin `json:"origin"`
		At     int64       `json:"at"`
	}
	fileNote struct {
		ID       int64      `json:"id"`
		AuthorID *uuid.UUID `json:"author_id"`
		Author   string     `json:"author"`
		Text     string     `json:"text"`
		At       int64      `json:"at"`
	}
)

// LeadFile returns what a company's lead's page shows, with up to related of the same
// person's other leads, and the company's users (the longest-standing member first), whom the
// lead may be given to.
func (s *Store) LeadFile(ctx context.Context, companyID, leadID uuid.UUID, related int) (lead.File, []user.User, error) {
	// Prepared: planned once per connection, its plan over the two self-joins and four
	// subqueries cost PostgreSQL more than running it does.
	st, err := s.stmt(ctx, selectLeadFile)
	if err != nil {
		return lead.File{}, nil, err
	}
	rows, err := st.QueryContext(ctx, companyID, leadID, related)
	if err != nil {
		return lead.File{}, nil, translate(err)
	}
	defer rows.Close()
	var (
		f                             lead.File
		users                         []user.User
		r                             leadRecord // reused as readPage does
		msgs, changes, notes, members []byte
	)
	dest := append(r.dest(), &msgs, &changes, &notes, &members)
	first := true
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return lead.File{}, nil, translate(err)
		}
		l, err := r.stored()
		if err != nil {
			return lead.File{}, nil, err
		}
		if !first {
			f.Related = append(f.Related, l)
			continue
		}
		first, f.Lead = false, l
		if users, err = readLists(&f, msgs, changes, notes, members); err != nil {
			return lead.File{}, nil, fmt.Errorf("lead %s: %w", leadID, err)
		}
	}
	if err := rows.Err(); err != nil {
		return lead.File{}, nil, translate(err)
	}
	if first {
		return lead.File{}, nil, errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	return f, users, nil
}

// readLists decodes the lead's row's JSON lists into f, and returns the users; a list that is
// NULL (none) is empty.
func readLists(f *lead.File, msgs, changes, notes, members []byte) ([]user.User, error) {
	var (
		ms    []fileMessage
		cs    []fileChange
		ns    []fileNote
		users []user.User
	)
	for _, l := range []struct {
		what string
		src  []byte
		dst  any
	}{{"transcript", msgs, &ms}, {"history", changes, &cs}, {"notes", notes, &ns}, {"users", members, &users}} {
		if l.src == nil {
			continue
		}
		if err := json.Unmarshal(l.src, l.dst); err != nil {
			return nil, fmt.Errorf("reading the %s: %w", l.what, err)
		}
	}
	f.Messages = make([]lead.Message, len(ms))
	for i, m := range ms {
		f.Messages[i] = lead.Message{Visitor: m.Visitor, Text: m.Text, At: time.UnixMicro(m.At).UTC()}
		if m.Agent != nil {
			f.Messages[i].AgentName = *m.Agent
		}
	}
	f.History = make([]lead.HistoryEntry, len(cs))
	for i, c := range cs {
		f.History[i] = lead.HistoryEntry{Field: c.Field, Old: c.Old, New: c.New, Origin: c.Origin, At: time.UnixMicro(c.At).UTC()}
	}
	f.Notes = make([]lead.InternalNote, len(ns))
	for i, n := range ns {
		f.Notes[i] = lead.InternalNote{ID: n.ID, Author: n.Author, Text: n.Text, At: time.UnixMicro(n.At).UTC()}
		if n.AuthorID != nil {
			f.Notes[i].AuthorID = *n.AuthorID
		}
	}
	return users, nil
}
