package postgres

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unsafe"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
)

// leadColumns are a lead's columns as the read calls return it (a list page, one lead, the CSV
// export, the lead file, a delivery), in leadRecord.dest's order, with the chat session that
// made it, which the lead keeps (leads.session_id, copied from chat_sessions.lead_id by the
// database's triggers): a join to chat_sessions probed its index once a lead. Its texts come as
// columns, a string each from lib/pq: as one text[] parsed into substrings of one copy (a
// reader since removed), a row made 18 fewer allocations (15 against 33), but PostgreSQL's
// building and writing of the array cost it more CPU than the strings cost the server
// (BenchmarkLeadsCSV, a row: PostgreSQL 5.4-7.1 µs as columns against 7.3-9.6 µs as an array,
// the server 11.4-16.2 against 12.2-15.0 µs). The note comes out of details as text, which spares decoding JSON; the
// unanswered questions, which only chat leads have, as their JSON array. The times come in
// PostgreSQL's binary form (sentTimes).
const leadColumns = leadColumnsHead + sentTimes + leadColumnsTail

const (
	leadColumnsHead = `l.id, ` + leadTextColumns + `, l.assignee_id,
       ` + leadDataColumns + `,`
	// leadTextColumns are the lead's texts, in leadRecord.Texts' order (textFirstName...).
	leadTextColumns = `l.first_name, l.last_name, l.email, l.phone, l.phone_e164, l.service,
       l.details->>'note', l.source, l.status, l.session_id`
	// leadDataColumns are the lead's JSON columns and its over-limit flag.
	leadDataColumns = `l.details->'unanswered_questions', l.referral_data, l.over_limit`
	leadColumnsTail = `,
       l.consent`
	// sentTimes are a lead's times in PostgreSQL's binary form (microseconds since 2000, eight
	// bytes): lib/pq's parsing of a timestamp's text was 8% of a list page's CPU, and extract's
	// numeric arithmetic for microseconds since 1970, three operations a time, was about as much
	// of PostgreSQL's work for a list page as finding and reading its rows.
	sentTimes = `
       timestamptz_send(l.created_at), timestamptz_send(l.updated_at)`
)

// The places of the texts in leadRecord.Texts, in leadColumns' order.
const (
	textFirstName = iota
	textLastName
	textEmail
	textPhone
	textPhoneE164
	textService
	textNote
	textSource
	textStatus
	textSessionID
	leadTexts // how many
)

// selectLead reads leads with leadColumns.
const selectLead = `
SELECT ` + leadColumns + `
FROM leads l`

// listColumns are selectLead's columns for readPage, in fewer driver values: lib/pq boxes
// each column's value in an interface, an allocation a column a row. The lead's id, its
// assignee (the zero UUID for none, as uuidColumn reads NULL) and its times come as one bytea
// of 48 bytes (pageFixed), which lib/pq takes in binary and hands over as a slice of its
// buffer: as uuids it wrote each out as a new 36-byte text, which uuidColumn parsed back.
// PostgreSQL's CPU a page of 50 fell too (238 against 259 µs in alternating rounds; uuid_out
// costs more than uuid_send). The texts (%s) are leadTextColumns or sentTexts, by the
// statement (selectListLead, selectListSent). The lead reads of one row keep leadColumns:
// database/sql's Row.Scan takes no sql.RawBytes, which readPage scans the bytea, the texts and
// the JSON columns into.
const (
	listFixed = `uuid_send(l.id) || uuid_send(coalesce(l.assignee_id, '00000000-0000-0000-0000-000000000000'))
           || timestamptz_send(l.created_at) || timestamptz_send(l.updated_at),
       `
	listData = `,
       ` + leadDataColumns + leadColumnsTail
)

// sentTexts are leadTextColumns as bytea in textsend's binary form (the text's bytes), in the
// same order, for a prepared page: lib/pq takes a bytea of a prepared statement in binary and
// hands it over as a slice of its buffer, which readPage copies into one buffer for the page
// (textArena). As text, lib/pq made a string of each and boxed it, two allocations a text,
// some 450 of a page's 1,110 (BenchmarkListPage). A statement sent with its arguments
// (binary_parameters) gets every column as text, a bytea in hex, so the other pages keep the
// texts as text. textsend skips the client encoding's conversion: the texts come in the
// database's encoding, which is UTF8 (pgembed's initdb -E UTF8, and Open refuses any other).
// textsend was tried before with a string made of each text, which only halved lib/pq's
// allocations and cost PostgreSQL some 40 µs more a page (291 against 259 µs); with one buffer
// a page, in alternating rounds of BenchmarkListPage PostgreSQL's CPU a page showed no rise
// beyond the machine's noise, and the server's fell. A cast to bytea is no cheaper:
// PostgreSQL has none from text but through bytea's input, which reads a backslash as an
// escape.
const sentTexts = `textsend(l.first_name), textsend(l.last_name), textsend(l.email), textsend(l.phone),
       textsend(l.phone_e164), textsend(l.service), textsend(l.details->>'note'), textsend(l.source),
       textsend(l.status), textsend(l.session_id)`

// pageFixed is the length of listColumns' first column: two uuids and two times.
const pageFixed = 16 + 16 + 8 + 8

// selectListLead reads leads with listColumns, for readPage, the texts as text; selectListSent
// with sentTexts.
const (
	selectListLead = `
SELECT ` + listFixed + leadTextColumns + listData + `
FROM leads l`
	selectListSent = `
SELECT ` + listFixed + sentTexts + listData + `
FROM leads l`
)

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
// The text is matched by its shape (searchShape): an e-mail address, or its start, against the
// start of the leads' addresses, through leads_email_prefix; a phone number written from its
// country code (+36..., 0036..., 06...) against the start of their E.164 numbers, through
// leads_phone_prefix; any other text with ILIKE anywhere in lead_search_text, the expression the
// trigram index leads_search is built on. The trigram index alone served every text before, and
// an address or a number, whose trigrams ("lea", "+36", "630") nearly every lead holds, cost
// PostgreSQL 20-50 ms of work each in a company of a million leads; a range of a B-tree costs
// well under one. For any text the planner may also walk the list and stop at the page's end
// when the text is common. To choose, it must see the pattern: a page with a text is never a
// prepared statement, whose generic plan would guess one selectivity for every text.
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
	listEmailIs = `
  AND lower(l.email) = lower($%d)`
	listAssignee = `
  AND l.assignee_id = $%d`
	listUnassigned = `
  AND l.assignee_id IS NULL`
	listText = `
  AND lead_search_text(l.first_name, l.last_name, l.email, l.phone, l.phone_e164, l.service,
                       l.details) ILIKE $%d`
	listEmail = `
  AND lower(l.email) LIKE lower($%d)`
	listPhone = `
  AND l.phone_e164 LIKE $%d`
	listOrder = `
ORDER BY l.created_at DESC, l.id DESC
LIMIT %d`
)

// listPrepared reports whether the statements of a filter are kept prepared: those without a
// text, of the default size, and the largest, which lead.All reads.
func listPrepared(f lead.Filter) bool {
	return f.Text == "" && (f.Limit == limits.ListDefault || f.Limit == limits.ListMax)
}

// listQuery is the statement and arguments of the page f selects, one lead longer than the
// page so that the last one tells whether another page follows.
func listQuery(companyID uuid.UUID, f lead.Filter, search textSearch) (string, []any) {
	var q strings.Builder
	if listPrepared(f) {
		q.WriteString(selectListSent + listCompany)
	} else {
		q.WriteString(selectListLead + listCompany)
	}
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
	switch search.shape {
	case searchEmail:
		add(listEmail, search.prefix)
	case searchPhone:
		add(listPhone, search.prefix)
	case searchAnywhere:
		add(listText, likePattern(f.Text))
	}
	if f.Email != "" {
		add(listEmailIs, f.Email)
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
	ID           uuidColumn
	Texts        [leadTexts]sql.NullString
	AssigneeID   uuidColumn
	Unanswered   []byte
	ReferralData []byte
	OverLimit    bool
	CreatedAt    timeColumn
	UpdatedAt    timeColumn
	Consent      []byte
}

// timeColumn is a time as sentTimes give it, in microseconds since 1970.
type timeColumn struct{ micros int64 }

// postgresEpoch is 2000-01-01 UTC, where timestamptz_send counts from, in microseconds since
// 1970.
const postgresEpoch = 946_684_800_000_000

// sentMicros is the time in the eight bytes timestamptz_send writes, in microseconds since 1970.
func sentMicros(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) + postgresEpoch }

func (c *timeColumn) Scan(src any) error {
	if src, ok := src.([]byte); ok && len(src) == 8 {
		c.micros = sentMicros(src)
		return nil
	}
	return fmt.Errorf("a time from %T", src)
}

// time is the column's time in UTC.
func (c timeColumn) time() time.Time { return time.UnixMicro(c.micros).UTC() }

// dest is where Scan puts selectLead's columns. Scanning by position spares sqlx's reflection
// per row, a good part of a page's cost.
func (r *leadRecord) dest() []any {
	d := make([]any, 0, leadTexts+8)
	d = append(d, &r.ID)
	for i := range r.Texts {
		d = append(d, &r.Texts[i])
	}
	return append(d, &r.AssigneeID, &r.Unanswered, &r.ReferralData, &r.OverLimit, &r.CreatedAt, &r.UpdatedAt, &r.Consent)
}

// stored is the lead of the record.
func (r *leadRecord) stored() (lead.Stored, error) {
	var st lead.Stored
	err := r.storeIn(&st)
	return st, err
}

// storeIn sets *st to the lead of the record, with its texts t (in Texts' order: a page's
// reader has them from its own buffer). A page's reader passes its own slot: a lead returned
// by value from here escaped to the heap (its address goes to the JSON decoders), one
// allocation of the whole lead a row besides the page's copy.
func (r *leadRecord) storeIn(st *lead.Stored) error {
	t := func(i int) string { return r.Texts[i].String }
	id := r.ID.UUID
	*st = lead.Stored{Status: lead.Status(t(textStatus)), OverLimit: r.OverLimit, SessionID: t(textSessionID),
		CreatedAt: r.CreatedAt.time(), UpdatedAt: r.UpdatedAt.time(), AssigneeID: r.AssigneeID.UUID, Lead: lead.Lead{
			ID: id, FirstName: t(textFirstName), LastName: t(textLastName),
			Email: t(textEmail), Phone: t(textPhone), PhoneE164: t(textPhoneE164),
			Service: t(textService), Note: t(textNote), Source: lead.Source(t(textSource)),
		}}
	// The referral data, as PostgreSQL writes it without escapes, is read by stringObject;
	// otherwise it and the questions, a map and a list of strings, are decoded by json/v2
	// (go-json-experiment), which took under half of encoding/json's time for a lead's
	// referral data. Its stricter defaults (valid UTF-8, unique names) hold for any jsonb; the
	// consent, a struct, stays with encoding/json's matching of names.
	if m, ok := stringObject(r.ReferralData); ok {
		st.ReferralData = m
	} else if r.ReferralData != nil {
		if err := jsonv2.Unmarshal(r.ReferralData, &st.ReferralData); err != nil {
			return fmt.Errorf("lead %s referral data: %w", id, err)
		}
	}
	if r.Unanswered != nil {
		if err := jsonv2.Unmarshal(r.Unanswered, &st.Unanswered); err != nil {
			return fmt.Errorf("lead %s unanswered questions: %w", id, err)
		}
	}
	if r.Consent != nil {
		if err := json.Unmarshal(r.Consent, &st.Consent); err != nil {
			return fmt.Errorf("lead %s consent: %w", id, err)
		}
	}
	return nil
}

// pageRecord is a row of selectListLead: r, with the columns that lib/pq's buffer holds, valid
// until the next row is read.
type pageRecord struct {
	r     leadRecord
	fixed sql.RawBytes
	texts [leadTexts]sql.RawBytes
	// The JSON columns, which storeIn decodes before the next row: into a []byte,
	// database/sql made a copy of each.
	unanswered, referral, consent sql.RawBytes
}

// dest is where Scan puts selectListLead's columns.
func (p *pageRecord) dest() []any {
	d := make([]any, 0, leadTexts+5)
	d = append(d, &p.fixed)
	for i := range p.texts {
		d = append(d, &p.texts[i])
	}
	return append(d, &p.unanswered, &p.referral, &p.r.OverLimit, &p.consent)
}

// record sets r's fields from the row's bytes.
func (p *pageRecord) record() error {
	f := p.fixed
	if len(f) != pageFixed {
		return fmt.Errorf("a lead's ids and times in %d bytes", len(f))
	}
	p.r.ID.UUID, p.r.AssigneeID.UUID = uuid.UUID(f[0:16]), uuid.UUID(f[16:32])
	p.r.CreatedAt.micros, p.r.UpdatedAt.micros = sentMicros(f[32:40]), sentMicros(f[40:48])
	p.r.Unanswered, p.r.ReferralData, p.r.Consent = p.unanswered, p.referral, p.consent
	return nil
}

// uuidColumn is a uuid column, the zero UUID for NULL. lib/pq gives a uuid as its text in
// bytes, which uuid.UUID's own Scan makes a string of before parsing it.
type uuidColumn struct{ uuid.UUID }

func (u *uuidColumn) Scan(src any) error {
	switch src := src.(type) {
	case nil:
		u.UUID = uuid.Nil
		return nil
	case []byte:
		id, err := uuid.ParseBytes(src)
		u.UUID = id
		return err
	}
	return fmt.Errorf("a uuid from %T", src)
}

// ListLeads returns one page of a company's leads, newest first; see lead.Filter.
func (s *Store) ListLeads(ctx context.Context, companyID uuid.UUID, f lead.Filter) (lead.Page, error) {
	f, err := f.Check()
	if err != nil {
		return lead.Page{}, err
	}
	search, err := searchOf(ctx, s.db, companyID, f.Text)
	if err != nil {
		return lead.Page{}, err
	}
	query, args := listQuery(companyID, f, search)
	var rows *sql.Rows
	if listPrepared(f) {
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
	return readPage(rows, f.Limit)
}

// readPage reads a page of limit leads from the rows of listQuery, and closes them.
func readPage(rows *sql.Rows, limit int) (lead.Page, error) {
	defer rows.Close()
	var page lead.Page
	page.Leads = make([]lead.Stored, 0, limit)
	// One record and one list of its fields serve every row: Scan sets every field, NULL
	// included, and a record per row, escaping with its fields' addresses, was a good part of
	// a page's garbage.
	var pr pageRecord
	dest := pr.dest()
	r := &pr.r
	// The page's texts are substrings of one buffer (textArena): a string each was two
	// allocations a text with lib/pq's strings, one with a copy of each of its slices.
	texts := textArena{b: make([]byte, 0, 160*limit)}
	for rows.Next() {
		if len(page.Leads) == limit {
			last := page.Leads[limit-1]
			page.Next = &lead.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
			break
		}
		if err := rows.Scan(dest...); err != nil {
			return lead.Page{}, translate(err)
		}
		if err := pr.record(); err != nil {
			return lead.Page{}, err
		}
		page.Leads = page.Leads[:len(page.Leads)+1]
		for i, b := range pr.texts {
			r.Texts[i].String = texts.string(b)
		}
		if err := r.storeIn(&page.Leads[len(page.Leads)-1]); err != nil {
			return lead.Page{}, err
		}
	}
	if err := rows.Err(); err != nil {
		return lead.Page{}, translate(err)
	}
	return page, nil
}

// textArena copies the texts of a page into one buffer and hands each out as a string that
// shares its bytes. It only ever appends: a byte is written once, before the string that holds
// it exists, and never again (append copies into a new array when the buffer is full, and the
// strings keep the old one), so the strings are as immutable as any other.
type textArena struct{ b []byte }

// string is a copy of t, "" for an empty or NULL t.
func (a *textArena) string(t []byte) string {
	if len(t) == 0 {
		return ""
	}
	start := len(a.b)
	a.b = append(a.b, t...)
	return unsafe.String(&a.b[start], len(t))
}

// The shapes of a searched text; see searchShape.
const (
	searchNone       = iota // no text
	searchAnywhere          // found anywhere in lead_search_text
	searchEmail             // the start of an e-mail address
	searchEmailStart        // the start of an e-mail address without its @, or a text anywhere
	searchPhone             // the start of an E.164 phone number
)

// searchShape tells how a text is searched for, and for an e-mail address or a phone number the
// LIKE pattern of the addresses or numbers that start with it. A text with an @ after its first
// character and no space is an address or its start ("kovacs.peter@", "lead12@example.hu"). A
// text of digits and the signs numbers are written with, which starts as a number does with its
// country code ("+36 30 123 4567", "06-30/123-4567", "0036301234567") and holds at least
// minPhoneDigits digits, is a phone number or its start, compared as E.164 ("+36301234567"),
// so it is found however the lead typed it. A word of Latin letters (and . + -) that ends in
// minAddressDigits digits or more is how many addresses start ("lead1234", "kovacs.p1985"), or
// a reference in a note: searchOf tells which. Anything else is a text found anywhere, digits
// without a country code included ("123 4567").
func searchShape(text string) (shape int, prefix string) {
	switch {
	case text == "":
		return searchNone, ""
	case strings.IndexByte(text, '@') > 0 && !strings.ContainsFunc(text, unicode.IsSpace):
		return searchEmail, likeEscape(text) + "%"
	case addressStart(text):
		return searchEmailStart, text + "%"
	}
	var digits strings.Builder
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case r == '+' && digits.Len() == 0, strings.ContainsRune(" -/().", r):
		default:
			return searchAnywhere, ""
		}
	}
	d := digits.String()
	plus := strings.HasPrefix(strings.TrimLeft(text, " ("), "+")
	switch {
	case len(d) < minPhoneDigits:
		return searchAnywhere, ""
	case plus:
	case strings.HasPrefix(d, "00"):
		d = d[2:]
	case strings.HasPrefix(d, "06"):
		d = "36" + d[2:]
	default:
		return searchAnywhere, ""
	}
	return searchPhone, "+" + d + "%"
}

// addressStart reports whether text is a word of Latin letters, dots, pluses and hyphens,
// starting with a letter, followed by at least minAddressDigits digits and nothing else.
func addressStart(text string) bool {
	word := strings.TrimRight(text, "0123456789")
	if len(text)-len(word) < minAddressDigits || word == "" || !isASCIILetter(rune(word[0])) {
		return false
	}
	return !strings.ContainsFunc(word, func(r rune) bool { return !isASCIILetter(r) && !strings.ContainsRune(".+-", r) })
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// minAddressDigits is the fewest digits at the end of a word for it to be taken as the start
// of an address: fewer are as often a size or a model in a note ("m2", "A4").
const minAddressDigits = 3

// textSearch is how a list searches for its text: the shape, and its LIKE pattern for the
// shapes that match the start of a column.
type textSearch struct {
	shape  int
	prefix string
}

// rowQuerier runs a query of one row, on the pool or in a transaction.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// anyEmailStarts is whether any of the company's e-mail addresses starts with a pattern, which
// leads_email_prefix answers from one index page.
const anyEmailStarts = `
SELECT EXISTS (SELECT 1 FROM leads WHERE company_id = $1 AND lower(email) LIKE lower($2))`

// searchOf is how text is searched for in a company's leads (searchShape). A word that may
// start an address is searched as the start of one when one of the company's addresses starts
// with it, else anywhere: so a page and the next are searched alike, and a reference in a note
// is still found. Anywhere, such a word (its trigrams "lea", "ead", "ad1" in every address)
// cost PostgreSQL about 17 ms in a company of a million leads, as the start of an address well
// under one.
func searchOf(ctx context.Context, q rowQuerier, companyID uuid.UUID, text string) (textSearch, error) {
	shape, prefix := searchShape(text)
	if shape != searchEmailStart {
		return textSearch{shape: shape, prefix: prefix}, nil
	}
	var starts bool
	if err := q.QueryRowContext(ctx, anyEmailStarts, companyID, prefix).Scan(&starts); err != nil {
		return textSearch{}, translate(err)
	}
	if starts {
		return textSearch{shape: searchEmail, prefix: prefix}, nil
	}
	return textSearch{shape: searchAnywhere}, nil
}

// minPhoneDigits is the fewest digits a text needs to be searched as a phone number: the
// country code and a few more.
const minPhoneDigits = 4

// likePattern finds text anywhere, its own % _ and \ taken literally; "" for no text.
func likePattern(text string) string {
	if text == "" {
		return ""
	}
	return "%" + likeEscape(text) + "%"
}

// likeEscape is text with LIKE's % _ and its escape \ taken literally.
func likeEscape(text string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(text)
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
SELECT m.visitor, m.text, m.created_at, m.agent_name
FROM leads l
LEFT JOIN chat_messages m ON m.company_id = $1 AND m.session_id = l.session_id
WHERE l.company_id = $1 AND l.id = $2
ORDER BY m.id`

// LeadMessages returns the transcript of a company's lead, empty for a lead without a chat.
func (s *Store) LeadMessages(ctx context.Context, companyID, leadID uuid.UUID) ([]lead.Message, error) {
	var rows []struct {
		Visitor   sql.NullBool   `db:"visitor"`
		Text      sql.NullString `db:"text"`
		CreatedAt sql.NullTime   `db:"created_at"`
		AgentName sql.NullString `db:"agent_name"`
	}
	if err := (runner{s: s}).selectAll(ctx, &rows, selectLeadMessages, companyID, leadID); err != nil {
		return nil, translate(err)
	}
	if len(rows) == 0 {
		return nil, errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	out := make([]lead.Message, 0, len(rows))
	for _, r := range rows {
		if r.Visitor.Valid {
			out = append(out, lead.Message{Visitor: r.Visitor.Bool, Text: r.Text.String, At: r.CreatedAt.Time,
				AgentName: r.AgentName.String})
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
