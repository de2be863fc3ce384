package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// selectLeadFile reads a lead's page in one statement: the rows are of leadColumns, the lead $2
// first and then up to $3 of the same person's other leads (the same address, whatever its
// letters' case, or the same E.164 number), newest first. The lead's row alone carries its
// transcript, history and notes, each as arrays of its columns in the list's order, times in
// microseconds as leadColumns' are, and the company's users as JSON; the other rows have NULL
// there. Each list is sorted once, in a subquery whose order array_agg keeps: an ORDER BY in
// each array_agg sorts once per array. Arrays rather than JSON objects for the long lists:
// encoding/json's decoding of them was a sixth of the page's server CPU, lib/pq's arrays cost
// half that (and textArray's a string per array, not per element), and PostgreSQL builds
// either in about the same time. Six reads in one round trip: PostgreSQL's and the server's
// work per statement was more than the lists' own. An unknown lead gives no row: the related
// leads are found from the lead.
//
// The lead and the others are two halves of a UNION ALL, so that the lists' subqueries are set
// up for the lead alone, and the others are read straight from the rows the address and number
// indexes find (one bitmap of both), rather than found by id again and joined to the lists per
// row, which cost PostgreSQL more than the page's lists did.
//
// The notes carry what the page shows of them (author's address, text, time): their ids and
// their authors' ids, which the page does not show, were a quarter to a third of what PostgreSQL spent on
// the notes (an id turned to text and back per note).
//
// The others carry what their rows on the page show (names, address, phone, source, status,
// times), the rest NULL: their chat sessions (a join per row), notes, referral data and consent
// cost PostgreSQL and the server more than the rest of the page's leads did. There is no ORDER
// BY over both halves, which sorted every row with the lead's lists in it: each row says which
// half it is (place), and LeadFile puts the others in order.
//
// The others are compared with the lead's address or number read by a scalar subquery, not by
// joining the lead: the planner estimates "column = a value known only when run" from the
// column's distinct values, a handful of rows whatever the table holds, and so always reads
// the indexes. A join was estimated from the most common values of both sides: once one address
// filled a tenth of the table (a sender that always posts the same test lead), each half was
// estimated at thousands of a million leads, and the custom plans (a connection's first five,
// and its next one after every ANALYZE) read the company's whole table, for seconds, instead of
// 21 rows.
const selectLeadFile = `
SELECT ` + leadColumns + `,
       tm.visitor, tm.text, tm.at, tm.agent,
       th.field, th.old, th.new, th.origin, th.at,
       tn.author, tn.body, tn.at,
       (SELECT json_agg(json_build_object('id', u.id, 'email', u.email,
                                          'password_set', u.password_hash IS NOT NULL AND m.accepted_at IS NOT NULL,
                                          'created_at', m.created_at, 'company_id', m.company_id, 'role', m.role)
                        ORDER BY m.created_at, u.id)
        FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.company_id = $1),
       0 AS place
FROM leads l
LEFT JOIN chat_sessions s ON s.company_id = $1 AND s.lead_id = l.id
CROSS JOIN LATERAL (
    SELECT array_agg(m.visitor) AS visitor, array_agg(m.text) AS text, array_agg(m.at) AS at, array_agg(m.agent) AS agent
    FROM (SELECT m.visitor, m.text, (extract(epoch FROM m.created_at) * 1000000)::int8 AS at, coalesce(m.agent_name, '') AS agent
          FROM chat_messages m WHERE m.company_id = $1 AND m.session_id = s.session_id ORDER BY m.id) m) tm
CROSS JOIN LATERAL (
    SELECT array_agg(h.field) AS field, array_agg(h.old) AS old, array_agg(h.new) AS new, array_agg(h.origin) AS origin,
           array_agg(h.at) AS at
    FROM (SELECT h.field, coalesce(h.old_value, '') AS old, coalesce(h.new_value, '') AS new, h.origin,
                 (extract(epoch FROM h.created_at) * 1000000)::int8 AS at
          FROM lead_history h WHERE h.company_id = $1 AND h.lead_id = l.id ORDER BY h.id) h) th
CROSS JOIN LATERAL (
    SELECT array_agg(n.author) AS author, array_agg(n.body) AS body, array_agg(n.at) AS at
    FROM (SELECT n.author_email AS author, n.body, (extract(epoch FROM n.created_at) * 1000000)::int8 AS at
          FROM lead_notes n WHERE n.company_id = $1 AND n.lead_id = l.id ORDER BY n.id) n) tn
WHERE l.company_id = $1 AND l.id = $2
UNION ALL
(SELECT ` + relatedColumns + `,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1
 FROM leads l
 WHERE l.company_id = $1 AND l.id <> $2
   AND (l.email IS NOT NULL
        AND lower(l.email) = (SELECT lower(me.email) FROM leads me WHERE me.company_id = $1 AND me.id = $2)
     OR l.phone_e164 IS NOT NULL
        AND l.phone_e164 = (SELECT me.phone_e164 FROM leads me WHERE me.company_id = $1 AND me.id = $2))
 ORDER BY l.created_at DESC, l.id DESC
 LIMIT $3)`

// relatedColumns are leadColumns with only what a row of the same person's other leads shows.
const relatedColumns = `l.id, l.first_name, l.last_name, l.email, l.phone, NULL, NULL,
        NULL, l.source, l.status, NULL, NULL,
        NULL, NULL, l.over_limit,
        (extract(epoch FROM l.created_at) * 1000000)::int8, (extract(epoch FROM l.updated_at) * 1000000)::int8,
        NULL`

// fileLists are the lead's row's lists as selectLeadFile returns them.
type fileLists struct {
	msgVisitor                              boolArray
	msgText, msgAgent                       textArray
	msgAt                                   int64Array
	histField, histOld, histNew, histOrigin textArray
	histAt                                  int64Array
	noteAt                                  int64Array
	noteAuthor, noteBody                    textArray
	users                                   []byte
	place                                   int // 0 for the lead, 1 for another
}

func (x *fileLists) dest() []any {
	return []any{&x.msgVisitor, &x.msgText, &x.msgAt, &x.msgAgent,
		&x.histField, &x.histOld, &x.histNew, &x.histOrigin, &x.histAt,
		&x.noteAuthor, &x.noteBody, &x.noteAt, &x.users, &x.place}
}

// LeadFile returns what a company's lead's page shows, with up to related of the same
// person's other leads (each with what its row on the page shows), and the company's users
// (the longest-standing member first), whom the lead may be given to.
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
		f     lead.File
		users []user.User
		r     leadRecord // reused as readPage does
		lists fileLists
	)
	dest := append(r.dest(), lists.dest()...)
	found := false
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return lead.File{}, nil, translate(err)
		}
		l, err := r.stored()
		if err != nil {
			return lead.File{}, nil, err
		}
		if lists.place != 0 {
			if f.Related == nil {
				// Room for as many as are shown, at once: growing it a lead at a time
				// allocated three times what it held. A lead with none allocates nothing.
				f.Related = make([]lead.Stored, 0, related)
			}
			f.Related = append(f.Related, l)
			continue
		}
		found, f.Lead = true, l
		if users, err = lists.read(&f); err != nil {
			return lead.File{}, nil, fmt.Errorf("lead %s: %w", leadID, err)
		}
	}
	if err := rows.Err(); err != nil {
		return lead.File{}, nil, translate(err)
	}
	if !found {
		return lead.File{}, nil, errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	// Newest first, as the statement's second half reads them (its order is not kept through
	// the UNION ALL by any rule, only by how PostgreSQL runs it).
	slices.SortFunc(f.Related, func(a, b lead.Stored) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return bytes.Compare(b.ID[:], a.ID[:])
	})
	return f, users, nil
}

// read puts the lists into f and returns the users; a list that is NULL (none) is empty.
func (x *fileLists) read(f *lead.File) ([]user.User, error) {
	n := len(x.msgText)
	if len(x.msgVisitor) != n || len(x.msgAt) != n || len(x.msgAgent) != n {
		return nil, fmt.Errorf("the transcript's columns differ in length")
	}
	f.Messages = make([]lead.Message, n)
	for i := range n {
		f.Messages[i] = lead.Message{Visitor: x.msgVisitor[i], Text: x.msgText[i], At: time.UnixMicro(x.msgAt[i]).UTC(),
			AgentName: x.msgAgent[i]}
	}
	n = len(x.histField)
	if len(x.histOld) != n || len(x.histNew) != n || len(x.histOrigin) != n || len(x.histAt) != n {
		return nil, fmt.Errorf("the history's columns differ in length")
	}
	f.History = make([]lead.HistoryEntry, n)
	for i := range n {
		f.History[i] = lead.HistoryEntry{Field: lead.Field(x.histField[i]), Old: x.histOld[i], New: x.histNew[i],
			Origin: lead.Origin(x.histOrigin[i]), At: time.UnixMicro(x.histAt[i]).UTC()}
	}
	n = len(x.noteBody)
	if len(x.noteAuthor) != n || len(x.noteAt) != n {
		return nil, fmt.Errorf("the notes' columns differ in length")
	}
	f.Notes = make([]lead.InternalNote, n)
	for i := range n {
		f.Notes[i] = lead.InternalNote{Author: x.noteAuthor[i], Text: x.noteBody[i], At: time.UnixMicro(x.noteAt[i]).UTC()}
	}
	var users []user.User
	if x.users != nil {
		if err := json.Unmarshal(x.users, &users); err != nil {
			return nil, fmt.Errorf("reading the users: %w", err)
		}
	}
	return users, nil
}
