package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// selectLeadFile reads a lead's page in one statement, one row: the lead $2 in leadColumns,
// then its transcript, history and notes, the company's users (ids and addresses) and up to $3
// of the same person's other leads (the same address, whatever its letters' case, or the same
// E.164 number), newest first: each list one column, an array of records (ROW) in
// PostgreSQL's binary form (array_send), read by recordArray. An unknown lead gives no row.
//
// Each list is a scalar subquery of one array_agg, sorted by its aggregate (the other leads,
// whose LIMIT needs the order first, by their subquery). They were lateral subqueries joined
// to the lead, an array of each of their columns (22 arrays, and 22 columns to the server):
// PostgreSQL set up, for every page, a nested loop per list, each carrying all the columns of
// the lists before it, and an aggregate state per array; that set-up (ExecutorStart) was a
// quarter of the statement's CPU. As records, PostgreSQL's CPU for the lead page's statement
// fell by about a tenth (BenchmarkLeadFileParts), and the server reads five columns for 22,
// its times and ids in binary, its texts substrings of one copy of each list.
//
// Arrays rather than JSON objects for the long lists: encoding/json's decoding of them was a
// sixth of the page's server CPU, and PostgreSQL builds either in about the same time. Six
// reads in one round trip: PostgreSQL's and the server's work per statement was more than the
// lists' own. The other leads were rows of their own (the second half of a UNION ALL, every
// row as wide as the lead's): as an array on the lead's row, PostgreSQL writes one row instead
// of 21. They carry what their rows on the page show (names, address, phone, source, status,
// creation time): their chat sessions, notes, referral data, consent, over_limit flags and
// update times, which the page does not show, cost both sides more than the rest of the page's
// leads did. The notes carry what the page shows of them (author's address, text, time), the
// users their ids and addresses, what the assignee's list shows.
//
// The others are compared with the lead's address and number as a correlated subquery's
// parameters, values known only when run, which the planner estimates from the column's
// distinct values, a handful of rows whatever the table holds, and so always reads the
// indexes (one bitmap of both). A join was estimated from the most common values of both
// sides: once one address filled a tenth of the table (a sender that always posts the same
// test lead), it was estimated at thousands of a million leads, and the custom plans (a
// connection's first five, and its next one after every ANALYZE) read the company's whole
// table, for seconds, instead of 21 rows.
const selectLeadFile = `
SELECT ` + leadColumns + leadFileLists + `$3` + leadFileListsEnd + `
FROM leads l
WHERE l.company_id = $1 AND l.id = $2`

// leadFileLists, a parameter (how many of the same person's other leads), and leadFileListsEnd
// are the columns of the lead l's lists, after leadColumns, in fileLists.dest's order. They
// find the company's rows by l.company_id, the lead's own, so that the session lookup can read
// the file of a lead of the session's company (findSessionLeadFile) with its own parameters.
// The records' fields are in recordArray's reading order (fileLists.read).
const leadFileLists = leadFileOwnLists + leadFileUsersList + leadFileRelated

// leadFileTeamlessLists are leadFileLists without the company's users, which the team cache
// holds (findSessionTeamlessLeadFile).
const leadFileTeamlessLists = leadFileOwnLists + leadFileRelated

// leadFileOwnLists are the lead's transcript, history and notes.
const leadFileOwnLists = `,
       (SELECT array_send(array_agg(ROW(m.visitor, m.text, m.created_at, coalesce(m.agent_name, '')) ORDER BY m.id))
        FROM chat_messages m WHERE m.company_id = l.company_id AND m.session_id = l.session_id),
       (SELECT array_send(array_agg(ROW(h.field, coalesce(h.old_value, ''), coalesce(h.new_value, ''), h.origin,
                                        h.created_at) ORDER BY h.id))
        FROM lead_history h WHERE h.company_id = l.company_id AND h.lead_id = l.id),
       (SELECT array_send(array_agg(ROW(n.author_email, n.body, n.created_at) ORDER BY n.id))
        FROM lead_notes n WHERE n.company_id = l.company_id AND n.lead_id = l.id)`

// leadFileUsersList is the company's users, in selectTeam's order.
const leadFileUsersList = `,
       (SELECT array_send(array_agg(ROW(u.id, u.email) ORDER BY m.created_at, u.id))
        FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.company_id = l.company_id)`

// leadFileRelated is the same person's other leads, up to a parameter and leadFileListsEnd.
const leadFileRelated = `,
       (SELECT array_send(array_agg(o.r))
        FROM (SELECT ROW(o.id, o.first_name, o.last_name, o.email, o.phone, o.source, o.status, o.created_at) AS r
              FROM leads o
              WHERE o.company_id = l.company_id AND o.id <> l.id
                AND (lower(o.email) = lower(l.email) OR o.phone_e164 = l.phone_e164)
              ORDER BY o.created_at DESC, o.id DESC
              LIMIT `

const leadFileListsEnd = `) o)`

// fileLists are the lead's row's lists as selectLeadFile returns them, each record's fields
// in the order leadFileLists writes them.
type fileLists struct {
	messages recordArray // visitor, text, time, agent
	history  recordArray // field, old, new, origin, time
	notes    recordArray // author, body, time
	users    recordArray // id, email
	related  recordArray // id, first name, last name, email, phone, source, status, creation time
}

func (x *fileLists) dest() []any {
	x.messages.cols, x.history.cols, x.notes.cols, x.users.cols, x.related.cols = 4, 5, 3, 2, 8
	return []any{&x.messages, &x.history, &x.notes, &x.users, &x.related}
}

// teamlessDest is dest for leadFileTeamlessLists: the users' list stays empty.
func (x *fileLists) teamlessDest() []any {
	d := x.dest()
	return append(d[:3], d[4])
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
	if err := s.fileTurn(ctx); err != nil {
		return lead.File{}, nil, err
	}
	var row fileRow
	err = st.QueryRowContext(ctx, companyID, leadID, related).Scan(row.dest()...)
	s.endFileTurn()
	if errors.Is(err, sql.ErrNoRows) {
		return lead.File{}, nil, errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	if err != nil {
		return lead.File{}, nil, translate(err)
	}
	return row.file()
}

// fileTurn waits until fewer than Options.FileReads lead pages' reads run, or ctx ends (an
// errs.Unavailable error); endFileTurn ends the turn once its row is read. Waiting callers get
// their turns in the order they came: a channel wakes its blocked senders first come, first
// served.
//
// The lead page's statement is the dashboard's heaviest, about a millisecond of PostgreSQL's
// CPU. Sixteen pages asked for at once on two cores ran as sixteen backends sharing the CPU,
// each page's statement taking as long as the kernel's scheduler happened to let it: the
// median page waited 12 ms, the slowest hundredth 56 ms (make bench, 1,143 pages a second,
// CPU-bound). A smaller pool did worse: database/sql gives a freed connection to a random
// waiter, not the first. With the turns in arrival order, a page waits about as long as the
// pages ahead of it take, whichever page it is. Twice GOMAXPROCS by default: the server's
// cores stand for PostgreSQL's, which share the machine in make bench; a database on a host of
// its own with more cores may take more (Options.FileReads).
func (s *Store) fileTurn(ctx context.Context) error {
	select {
	case s.fileReads <- struct{}{}:
		return nil
	case <-ctx.Done():
		return errs.Wrap(errs.Unavailable, errs.CodeUnavailable, ctx.Err())
	}
}

// endFileTurn ends a turn fileTurn gave.
func (s *Store) endFileTurn() { <-s.fileReads }

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
	m := &x.messages
	f.Messages = make([]lead.Message, m.len())
	for i := range f.Messages {
		visitor, err := m.bool(i, 0)
		if err != nil {
			return nil, fmt.Errorf("the transcript: %w", err)
		}
		at, err := m.time(i, 2)
		if err != nil {
			return nil, fmt.Errorf("the transcript: %w", err)
		}
		f.Messages[i] = lead.Message{Visitor: visitor, Text: m.text(i, 1), At: at, AgentName: m.text(i, 3)}
	}
	h := &x.history
	f.History = make([]lead.HistoryEntry, h.len())
	for i := range f.History {
		at, err := h.time(i, 4)
		if err != nil {
			return nil, fmt.Errorf("the history: %w", err)
		}
		f.History[i] = lead.HistoryEntry{Field: lead.Field(h.text(i, 0)), Old: h.text(i, 1), New: h.text(i, 2),
			Origin: lead.Origin(h.text(i, 3)), At: at}
	}
	n := &x.notes
	f.Notes = make([]lead.InternalNote, n.len())
	for i := range f.Notes {
		at, err := n.time(i, 2)
		if err != nil {
			return nil, fmt.Errorf("the notes: %w", err)
		}
		f.Notes[i] = lead.InternalNote{Author: n.text(i, 0), Text: n.text(i, 1), At: at}
	}
	r := &x.related
	if r.len() > 0 { // a lead with none allocates nothing
		f.Related = make([]lead.Stored, r.len())
	}
	for i := range f.Related {
		id, err := r.uuid(i, 0)
		if err != nil {
			return nil, fmt.Errorf("a related lead: %w", err)
		}
		at, err := r.time(i, 7)
		if err != nil {
			return nil, fmt.Errorf("a related lead: %w", err)
		}
		f.Related[i] = lead.Stored{Status: lead.Status(r.text(i, 6)), CreatedAt: at, Lead: lead.Lead{
			ID: id, FirstName: r.text(i, 1), LastName: r.text(i, 2), Email: r.text(i, 3), Phone: r.text(i, 4),
			Source: lead.Source(r.text(i, 5))}}
	}
	u := &x.users
	var users []user.User
	if u.len() > 0 {
		users = make([]user.User, u.len())
	}
	for i := range users {
		id, err := u.uuid(i, 0)
		if err != nil {
			return nil, fmt.Errorf("a user: %w", err)
		}
		users[i] = user.User{ID: id, Email: u.text(i, 1)}
	}
	return users, nil
}
