package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// selectLeadFile reads a lead's page in one statement, one row: the lead $2 in leadColumns,
// then its transcript, history and notes, each as arrays of its columns in the list's order,
// each list's times as one timestamptz array in binary (array_send, timeArray), the company's
// users' ids and addresses as arrays, and up to $3 of the same person's other leads (the same
// address, whatever its letters' case, or the same E.164 number), newest first, as arrays of
// their columns too. Each list is sorted once, in a subquery whose order array_agg keeps: an
// ORDER BY in each array_agg sorts once per array.
// Arrays rather than JSON objects for the long lists: encoding/json's decoding of them was a
// sixth of the page's server CPU, lib/pq's arrays cost half that (and textArray's a string per
// array, not per element), and PostgreSQL builds either in about the same time. Six reads in
// one round trip: PostgreSQL's and the server's work per statement was more than the lists'
// own. An unknown lead gives no row.
//
// The other leads were rows of their own (the second half of a UNION ALL, every row as wide as
// the lead's): as arrays on the lead's row, PostgreSQL writes one row instead of 21 and the
// server scans one (lib/pq makes a string of every text column of every row). They carry what
// their rows on the page show (names, address, phone, source, status, times): their chat
// sessions (a join per row), notes, referral data and consent cost PostgreSQL and the server
// more than the rest of the page's leads did; their over_limit flags and update times, which
// the page does not show either, were a fifth of the ten arrays PostgreSQL built and the server
// read for them.
//
// The notes carry what the page shows of them (author's address, text, time): their ids and
// their authors' ids, which the page does not show, were a quarter to a third of what
// PostgreSQL spent on the notes (an id turned to text and back per note). The users, likewise,
// carry their ids and addresses, what the assignee's list shows: as JSON objects of all their
// fields, their join times written as text, PostgreSQL spent as much on them as on the lead's
// history, and the server decoded them with encoding/json's reflection.
//
// The times are those of the lead reads (sentTimes), and the lists' times the same eight
// bytes each, in one array_send of the list: the microseconds as text (extract's numeric
// arithmetic, three operations a time, then digits to parse) cost both sides more.
//
// The others are compared with the lead's address and number as a lateral subquery's
// parameters, values known only when run, which the planner estimates from the column's
// distinct values, a handful of rows whatever the table holds, and so always reads the
// indexes (one bitmap of both). A join was estimated from the most common values of both
// sides: once one address filled a tenth of the table (a sender that always posts the same
// test lead), it was estimated at thousands of a million leads, and the custom plans (a
// connection's first five, and its next one after every ANALYZE) read the company's whole
// table, for seconds, instead of 21 rows.
const selectLeadFile = `
SELECT ` + leadFileColumns + `
FROM leads l` + leadFileLists + `$3` + leadFileListsEnd + `
WHERE l.company_id = $1 AND l.id = $2`

// leadFileColumns are selectLeadFile's columns, in leadRecord.dest's then fileLists.dest's
// order, of the lead l and the lists leadFileLists joins to it.
const leadFileColumns = `` + leadColumns + `,
       tm.visitor, tm.text, tm.at, tm.agent,
       th.field, th.old, th.new, th.origin, th.at,
       tn.author, tn.body, tn.at,
       tu.id, tu.email,
       tr.id, tr.first_name, tr.last_name, tr.email, tr.phone, tr.source, tr.status, tr.at`

// leadFileLists, a parameter (how many of the same person's other leads), and leadFileListsEnd
// are the lateral subqueries of the lead l's lists. They find the company's rows by
// l.company_id, the lead's own, so that the session lookup can read the file of a lead of the
// session's company (findSessionLeadFile) with its own parameters.
const leadFileLists = `
CROSS JOIN LATERAL (
    SELECT array_agg(m.visitor) AS visitor, array_agg(m.text) AS text, array_send(array_agg(m.at)) AS at, array_agg(m.agent) AS agent
    FROM (SELECT m.visitor, m.text, m.created_at AS at, coalesce(m.agent_name, '') AS agent
          FROM chat_messages m WHERE m.company_id = l.company_id AND m.session_id = l.session_id ORDER BY m.id) m) tm
CROSS JOIN LATERAL (
    SELECT array_agg(h.field) AS field, array_agg(h.old) AS old, array_agg(h.new) AS new, array_agg(h.origin) AS origin,
           array_send(array_agg(h.at)) AS at
    FROM (SELECT h.field, coalesce(h.old_value, '') AS old, coalesce(h.new_value, '') AS new, h.origin,
                 h.created_at AS at
          FROM lead_history h WHERE h.company_id = l.company_id AND h.lead_id = l.id ORDER BY h.id) h) th
CROSS JOIN LATERAL (
    SELECT array_agg(n.author) AS author, array_agg(n.body) AS body, array_send(array_agg(n.at)) AS at
    FROM (SELECT n.author_email AS author, n.body, n.created_at AS at
          FROM lead_notes n WHERE n.company_id = l.company_id AND n.lead_id = l.id ORDER BY n.id) n) tn
CROSS JOIN LATERAL (
    SELECT array_agg(o.id) AS id, array_agg(o.first_name) AS first_name, array_agg(o.last_name) AS last_name,
           array_agg(o.email) AS email, array_agg(o.phone) AS phone, array_agg(o.source) AS source,
           array_agg(o.status) AS status, array_send(array_agg(o.at)) AS at
    FROM (SELECT o.id, o.first_name, o.last_name, o.email, o.phone, o.source, o.status, o.created_at AS at
          FROM leads o
          WHERE o.company_id = l.company_id AND o.id <> l.id
            AND (lower(o.email) = lower(l.email) OR o.phone_e164 = l.phone_e164)
          ORDER BY o.created_at DESC, o.id DESC
          LIMIT `

const leadFileListsEnd = `) o) tr
CROSS JOIN LATERAL (
    SELECT array_agg(u.id) AS id, array_agg(u.email) AS email
    FROM (SELECT u.id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.company_id = l.company_id ORDER BY m.created_at, u.id) u) tu`

// fileLists are the lead's row's lists as selectLeadFile returns them.
type fileLists struct {
	msgVisitor                              boolArray
	msgText, msgAgent                       textArray
	msgAt                                   timeArray
	histField, histOld, histNew, histOrigin textArray
	histAt                                  timeArray
	noteAt                                  timeArray
	noteAuthor, noteBody                    textArray
	userID, userEmail                       textArray
	relID, relFirst, relLast, relEmail      textArray
	relPhone, relSource, relStatus          textArray
	relAt                                   timeArray
}

func (x *fileLists) dest() []any {
	return []any{&x.msgVisitor, &x.msgText, &x.msgAt, &x.msgAgent,
		&x.histField, &x.histOld, &x.histNew, &x.histOrigin, &x.histAt,
		&x.noteAuthor, &x.noteBody, &x.noteAt, &x.userID, &x.userEmail,
		&x.relID, &x.relFirst, &x.relLast, &x.relEmail, &x.relPhone, &x.relSource, &x.relStatus, &x.relAt}
}

// LeadFile returns what a company's lead's page shows, with up to related of the same
// person's other leads (each with what its row on the page shows: no OverLimit, no
// UpdatedAt), and the company's users (the longest-standing member first; their ids and
// addresses), whom the lead may be given to.
func (s *Store) LeadFile(ctx context.Context, companyID, leadID uuid.UUID, related int) (lead.File, []user.User, error) {
	// Prepared: planned once per connection, its plan over the five subqueries cost
	// PostgreSQL more than running it does.
	st, err := s.stmt(ctx, selectLeadFile)
	if err != nil {
		return lead.File{}, nil, err
	}
	var row fileRow
	err = st.QueryRowContext(ctx, companyID, leadID, related).Scan(row.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return lead.File{}, nil, errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	if err != nil {
		return lead.File{}, nil, translate(err)
	}
	return row.file()
}

// fileRow is a row of leadFileColumns.
type fileRow struct {
	r     leadRecord
	lists fileLists
}

func (x *fileRow) dest() []any { return append(x.r.dest(), x.lists.dest()...) }

// file is the lead's file and the company's users of the row.
func (x *fileRow) file() (lead.File, []user.User, error) {
	var (
		f   lead.File
		err error
	)
	if f.Lead, err = x.r.stored(); err != nil {
		return lead.File{}, nil, err
	}
	users, err := x.lists.read(&f)
	if err != nil {
		return lead.File{}, nil, fmt.Errorf("lead %s: %w", f.Lead.ID, err)
	}
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
	n = len(x.relID)
	if len(x.relFirst) != n || len(x.relLast) != n || len(x.relEmail) != n || len(x.relPhone) != n ||
		len(x.relSource) != n || len(x.relStatus) != n || len(x.relAt) != n {
		return nil, fmt.Errorf("the related leads' columns differ in length")
	}
	if n > 0 { // a lead with none allocates nothing
		f.Related = make([]lead.Stored, n)
	}
	for i := range n {
		id, err := uuid.Parse(x.relID[i])
		if err != nil {
			return nil, fmt.Errorf("a related lead's id: %w", err)
		}
		f.Related[i] = lead.Stored{Status: lead.Status(x.relStatus[i]), CreatedAt: time.UnixMicro(x.relAt[i]).UTC(), Lead: lead.Lead{
			ID: id, FirstName: x.relFirst[i], LastName: x.relLast[i], Email: x.relEmail[i], Phone: x.relPhone[i],
			Source: lead.Source(x.relSource[i])}}
	}
	n = len(x.userID)
	if len(x.userEmail) != n {
		return nil, fmt.Errorf("the users' columns differ in length")
	}
	var users []user.User
	if n > 0 {
		users = make([]user.User, n)
	}
	for i := range n {
		id, err := uuid.Parse(x.userID[i])
		if err != nil {
			return nil, fmt.Errorf("a user's id: %w", err)
		}
		users[i] = user.User{ID: id, Email: x.userEmail[i]}
	}
	return users, nil
}
