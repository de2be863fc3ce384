package lead

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"iter"
	"slices"
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
// microseconds (PostgreSQL's precision), the id, and a checksum that refuses a cursor mangled
// on its way back. The checksum is no secret: a forged cursor is only another position in the
// company's own list.
const (
	cursorVersion  = 1
	cursorPayload  = 1 + 8 + 16
	cursorChecksum = 4
)

// String is the cursor as a client sees it: opaque text, safe in a URL.
func (c Cursor) String() string {
	b := make([]byte, cursorPayload, cursorPayload+cursorChecksum)
	b[0] = cursorVersion
	binary.BigEndian.PutUint64(b[1:9], uint64(c.CreatedAt.UnixMicro()))
	copy(b[9:], c.ID[:])
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(append(b, sum[:cursorChecksum]...))
}

// ParseCursor reads a cursor that String wrote; anything else is invalid_cursor.
func ParseCursor(s string) (Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != cursorPayload+cursorChecksum || b[0] != cursorVersion {
		return Cursor{}, errs.Field(errs.CodeInvalidCursor, "cursor")
	}
	sum := sha256.Sum256(b[:cursorPayload])
	if !bytes.Equal(sum[:cursorChecksum], b[cursorPayload:]) {
		return Cursor{}, errs.Field(errs.CodeInvalidCursor, "cursor")
	}
	var c Cursor
	c.CreatedAt = time.UnixMicro(int64(binary.BigEndian.Uint64(b[1:9]))).UTC()
	copy(c.ID[:], b[9:cursorPayload])
	return c, nil
}

// Message is one message of the chat that made a lead: the visitor's, or the assistant's reply.
type Message struct {
	Visitor bool
	Text    string
	At      time.Time
}
