package lead

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"iter"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

// Filter selects a company's leads for one page of a list, newest first; a zero field selects
// everything.
type Filter struct {
	Status Status
	Source Source
	// Since and Until bound the creation time: Since ≤ created_at < Until.
	Since, Until time.Time
	// Text is found, case-insensitively, anywhere in the name, email, phone, service or note.
	Text string
	// Email selects one person's leads: this address, whatever its letters' case.
	Email string
	// Assignee selects the leads given to one user; Unassigned those given to nobody.
	Assignee   uuid.UUID
	Unassigned bool
	// Limit is the page size, limits.ListMin to limits.ListMax; 0 means limits.ListDefault.
	Limit int
	// After is where the page starts: the leads after this position, or from the newest when nil.
	After *Cursor
}

// Check validates the filter and fills in the default page size.
func (f Filter) Check() (Filter, error) {
	switch {
	case f.Limit == 0:
		f.Limit = limits.ListDefault
	case f.Limit < limits.ListMin || f.Limit > limits.ListMax:
		return f, errs.Field(errs.CodeInvalidField, "limit")
	}
	if f.Status != "" && !f.Status.Valid() {
		return f, errs.Field(errs.CodeInvalidStatus, "status")
	}
	if f.Source != "" {
		if _, err := ParseSource(string(f.Source)); err != nil {
			return f, err
		}
	}
	text, err := CheckText("text", f.Text, limits.SearchLen)
	if err != nil {
		return f, err
	}
	f.Text = text
	email, err := CheckText("email", f.Email, limits.EmailLen)
	if err != nil {
		return f, err
	}
	f.Email = email
	if f.Unassigned && f.Assignee != uuid.Nil {
		return f, errs.Field(errs.CodeInvalidField, "assignee")
	}
	return f, nil
}

// Valid reports whether s is a status a lead can have.
func (s Status) Valid() bool { return slices.Contains(Statuses(), s) }

// Statuses lists every status a lead can have: the lifecycle in its usual order, then over_limit.
func Statuses() []Status {
	return []Status{StatusNew, StatusContacted, StatusQualified, StatusWon, StatusLost, StatusOverLimit}
}

// statusNames are the statuses' Hungarian names, which every page, e-mail and export shows.
var statusNames = map[Status]string{StatusNew: "új", StatusContacted: "megkeresve", StatusQualified: "minősítve",
	StatusWon: "megnyert", StatusLost: "elveszett", StatusOverLimit: "kereten felül"}

// Name is the status's Hungarian name.
func (s Status) Name() string { return cmp.Or(statusNames[s], string(s)) }

// sourceNames are the sources' Hungarian names.
var sourceNames = map[Source]string{SourceForm: "űrlap", SourceChat: "csevegés", SourceAPI: "API", SourceManual: "kézi rögzítés"}

// Name is the source's Hungarian name.
func (s Source) Name() string { return cmp.Or(sourceNames[s], string(s)) }

// Page is one page of a list: its leads, and the position of the next page, nil on the last.
type Page struct {
	Leads []Stored
	Next  *Cursor
}

// All yields every lead of a company that f selects, newest first, reading the largest pages
// (f.Limit and f.After are ignored). It stops at the first error, which it yields.
func All(ctx context.Context, s Store, companyID uuid.UUID, f Filter) iter.Seq2[Stored, error] {
	return func(yield func(Stored, error) bool) {
		f.Limit, f.After = limits.ListMax, nil
		for {
			page, err := s.ListLeads(ctx, companyID, f)
			if err != nil {
				yield(Stored{}, err)
				return
			}
			for _, l := range page.Leads {
				if !yield(l, nil) {
					return
				}
			}
			if page.Next == nil {
				return
			}
			f.After = page.Next
		}
	}
}

// Collect gathers what All yields, for a caller that needs every lead at once.
func Collect(leads iter.Seq2[Stored, error]) ([]Stored, error) {
	var out []Stored
	for l, err := range leads {
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// Cursor is a position in a company's list of leads, which is ordered by creation time and
// then id, both descending: the last lead of a page. A page that starts after it is the same
// however many leads arrive meanwhile, and costs the same however deep it is.
type Cursor struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// CursorOf is the position of a stored lead.
func CursorOf(l Stored) Cursor { return Cursor{CreatedAt: l.CreatedAt, ID: l.ID} }

// A cursor's text is unpadded base64url of a version byte, the creation time in Unix
// microseconds (PostgreSQL's precision), the id, and a checksum of these and of the filter the
// list was read with. The checksum refuses a cursor mangled on its way back, and one sent with
// other filters than its list's, whose position would mean nothing there. It is no secret: a
// forged cursor is only another position in the company's own list. Version 1, still read, had
// no filter in its checksum.
const (
	cursorV1       = 1
	cursorVersion  = 2
	cursorPayload  = 1 + 8 + 16
	cursorChecksum = 4
	cursorText     = (8*(cursorPayload+cursorChecksum) + 5) / 6
)

// A cursor's time lies between 1970 and the end of year 9999: every lead was created in it, and
// PostgreSQL holds all of it, so no crafted time can fail the list's statement.
var (
	cursorMin = time.Unix(0, 0).UTC()
	cursorMax = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
)

// cursorEncoding is base64url without padding, strict so that a text has one decoding and one
// cursor one text.
var cursorEncoding = base64.RawURLEncoding.Strict()

// Text is the cursor as a client sees it, for the list read with the filter f: opaque text,
// safe in a URL.
func (c Cursor) Text(f Filter) string {
	b := make([]byte, cursorPayload, cursorPayload+cursorChecksum)
	b[0] = cursorVersion
	binary.BigEndian.PutUint64(b[1:9], uint64(c.CreatedAt.UnixMicro()))
	copy(b[9:], c.ID[:])
	sum := cursorSum(b, f)
	return cursorEncoding.EncodeToString(append(b, sum[:cursorChecksum]...))
}

// ParseCursor reads a cursor that Text wrote for a list with the filter f; anything else,
// including a cursor of a list with other filters, is invalid_cursor.
func ParseCursor(s string, f Filter) (Cursor, error) {
	invalid := errs.Field(errs.CodeInvalidCursor, "cursor")
	if len(s) != cursorText {
		return Cursor{}, invalid
	}
	b, err := cursorEncoding.DecodeString(s)
	if err != nil || len(b) != cursorPayload+cursorChecksum {
		return Cursor{}, invalid
	}
	var sum [sha256.Size]byte
	switch b[0] {
	case cursorVersion:
		sum = cursorSum(b[:cursorPayload], f)
	case cursorV1:
		sum = sha256.Sum256(b[:cursorPayload])
	default:
		return Cursor{}, invalid
	}
	if !bytes.Equal(sum[:cursorChecksum], b[cursorPayload:]) {
		return Cursor{}, invalid
	}
	micros := int64(binary.BigEndian.Uint64(b[1:9]))
	if micros < cursorMin.UnixMicro() || micros >= cursorMax.UnixMicro() {
		return Cursor{}, invalid
	}
	c := Cursor{CreatedAt: time.UnixMicro(micros).UTC()}
	copy(c.ID[:], b[9:cursorPayload])
	return c, nil
}

// cursorSum is the SHA-256 of a cursor's payload and of what f selects (not its page size or
// position), each part ended by a NUL, which no part can hold.
func cursorSum(payload []byte, f Filter) [sha256.Size]byte {
	h := sha256.New()
	h.Write(payload)
	micros := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return strconv.FormatInt(t.UnixMicro(), 10)
	}
	for _, part := range []string{string(f.Status), string(f.Source), micros(f.Since), micros(f.Until), f.Text} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// Message is one message of the chat that made a lead: the visitor's, the assistant's reply,
// or a person's of the company (AgentName set).
type Message struct {
	Visitor bool
	Text    string
	At      time.Time
	// AgentName is the name the visitor was shown for a person's message; empty otherwise.
	AgentName string
}

// Role names who wrote the message: "visitor", "assistant" or "agent".
func (m Message) Role() string {
	switch {
	case m.Visitor:
		return "visitor"
	case m.AgentName != "":
		return "agent"
	}
	return "assistant"
}
