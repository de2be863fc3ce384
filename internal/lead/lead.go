// Package lead holds leads: what a client may send, how it is checked and normalised, and the
// store that creates a lead against the company's monthly limit.
package lead

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/contact"
	"github.com/leadchat/leadchat/internal/errs"
)

// Status is where a lead stands. New leads are StatusNew, or StatusOverLimit when they came in
// past the company's monthly limit.
type Status string

// The statuses of a lead: it starts new, or over_limit when it came in past the company's
// monthly limit; a company then moves it between the lifecycle statuses, in any order.
const (
	StatusNew       Status = "new"
	StatusOverLimit Status = "over_limit"
	StatusContacted Status = "contacted"
	StatusQualified Status = "qualified"
	StatusWon       Status = "won"
	StatusLost      Status = "lost"
)

// Lifecycle reports whether a company may move a lead to s: over_limit is only where a lead
// starts.
func (s Status) Lifecycle() bool {
	switch s {
	case StatusNew, StatusContacted, StatusQualified, StatusWon, StatusLost:
		return true
	}
	return false
}

// Field names a lead's detail that its history records.
type Field string

// The fields whose changes a lead's history keeps, and the note, whose changes it does not:
// a chat lead's note only sums up the conversation, whose messages are kept in full.
const (
	FieldFirstName Field = "first_name"
	FieldLastName  Field = "last_name"
	FieldEmail     Field = "email"
	FieldPhone     Field = "phone"
	FieldStatus    Field = "status"
	FieldService   Field = "service"
	FieldNote      Field = "note"
	// FieldConsent is the consent a person gave: a later one replaces it, and the history keeps
	// both as JSON.
	FieldConsent Field = "consent"
	// FieldAssignee is the user the lead is given to; the history keeps the users' ids.
	FieldAssignee Field = "assignee"
)

// Origin tells where a change of a lead came from.
type Origin string

// The origins of changes: the widget's contact form, a chat message's text, an AI model's
// proposal (checked against the visitor's own words), the API, the dashboard, the admin CLI.
const (
	OriginForm      Origin = "form"
	OriginText      Origin = "text"
	OriginModel     Origin = "model"
	OriginAPI       Origin = "api"
	OriginDashboard Origin = "dashboard"
	OriginCLI       Origin = "cli"
)

// Change is one change of a stored lead: the store records it in the lead's history with the
// value it replaces, in the transaction that makes it.
type Change struct {
	Field  Field
	Value  string // the new value; empty when the detail is removed
	Origin Origin
}

// Source tells where a lead came from.
type Source string

// The sources a client may name.
const (
	SourceForm   Source = "form"
	SourceAPI    Source = "api"
	SourceChat   Source = "chat"
	SourceManual Source = "manual"
)

// NewID makes a lead's id: a UUID version 7, whose first bits are the time, so that new leads
// take the right-hand end of the primary key's index. Random (version 4) ids land on any of its
// pages: once the table holds a million leads, almost every create dirties a page of its own,
// which PostgreSQL writes whole to the WAL after each checkpoint, so a create costs more the
// more leads are stored.
func NewID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

// Lead is a checked and normalised lead, ready to be stored. Empty strings are absent values.
type Lead struct {
	ID        uuid.UUID
	FirstName string
	LastName  string
	Email     string
	Phone     string
	PhoneE164 string
	Service   string
	Note      string
	// Unanswered are a chat lead's questions the assistant handed over to a colleague, oldest
	// first (details.unanswered_questions).
	Unanswered   []string
	Source       Source
	ReferralData map[string]string
	Consent      *Consent // nil: none given
}

// HistoryEntry is one change of a lead after it was created: a field's old and new value (empty
// when absent), where the change came from, and when.
type HistoryEntry struct {
	Field    Field
	Old, New string
	Origin   Origin
	At       time.Time
}

// Stored is a lead as the store keeps it.
type Stored struct {
	Lead
	Status Status
	// OverLimit stays true for a lead that came in past the limit, whatever its status becomes.
	OverLimit bool
	// SessionID is the chat session that made the lead, "" for a lead from elsewhere.
	SessionID string
	// AssigneeID is the user of the company the lead is given to, uuid.Nil for nobody.
	AssigneeID uuid.UUID
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Created is the outcome of creating a lead: its id, whether it was over the limit and, when a
// limit applies, the limit and the month's count including this lead.
type Created struct {
	ID        uuid.UUID
	OverLimit bool
	Limit     *int
	Count     int
	// Replayed is true when this is the stored outcome of an earlier request with the same
	// idempotency key.
	Replayed bool
}

// Update is a change of a lead's status, its assignee, or both, made together or not at all.
type Update struct {
	// Status, when not "", is the lifecycle status to move the lead to.
	Status Status
	// Assign, when true, gives the lead to Assignee, or to nobody when Assignee is uuid.Nil.
	Assign   bool
	Assignee uuid.UUID
}

// Check refuses an update that changes nothing or names a status a company may not set.
func (u Update) Check() error {
	if u.Status == "" && !u.Assign {
		return errs.Field(errs.CodeMissingField, "status")
	}
	if u.Status != "" && !u.Status.Lifecycle() {
		return errs.Field(errs.CodeInvalidStatus, "status")
	}
	return nil
}

// Idempotency identifies a create request that a client may retry: its key and a hash of its body.
type Idempotency struct {
	Key         string
	RequestHash [32]byte
}

// Store keeps leads. CreateLead counts the lead against the company's month and stores it in one
// transaction; with an Idempotency it returns the first outcome for a repeated key, an
// errs.Unprocessable error for a key reused with another body and errs.Conflict while the first
// request is in flight.
//
// The other methods read and manage one company's leads; a lead id that is not the company's
// is errs.NotFound with the code lead_not_found, whoever's lead it is. ListLeads takes a
// checked Filter. SetLeadStatus moves a lead to a lifecycle status and records the move in
// its history. DeleteLead erases a lead with its chat, its history and its idempotency
// record, in one transaction; the month's count keeps it, as a received lead was received.
type Store interface {
	CreateLead(ctx context.Context, companyID uuid.UUID, l Lead, limit *int, idem *Idempotency) (Created, error)
	ListLeads(ctx context.Context, companyID uuid.UUID, f Filter) (Page, error)
	GetLead(ctx context.Context, companyID, leadID uuid.UUID) (Stored, error)
	LeadMessages(ctx context.Context, companyID, leadID uuid.UUID) ([]Message, error)
	SetLeadStatus(ctx context.Context, companyID, leadID uuid.UUID, status Status, origin Origin) error
	// UpdateLead applies a checked Update; an assignee who is not a user of the company is
	// errs.Invalid with the code invalid_assignee, and nothing changes.
	UpdateLead(ctx context.Context, companyID, leadID uuid.UUID, u Update, origin Origin) error
	DeleteLead(ctx context.Context, companyID, leadID uuid.UUID) error
}

// DisplayName is the lead's name as every list and export shows it, whatever the source:
// Hungarian names family name first ("Kovács Péter"), others given name first ("John Smith").
// A whole name typed into one field is shown as typed.
func (l Lead) DisplayName() string {
	a, b := l.DisplayNameParts()
	if b == "" {
		return a
	}
	return a + " " + b
}

// DisplayNameParts is DisplayName's two names in its order, which it joins with a space; the
// second is empty when DisplayName is one name alone (the first, or empty). A page writes them
// without making DisplayName's string.
func (l Lead) DisplayNameParts() (string, string) {
	switch {
	case l.LastName == "":
		return l.FirstName, ""
	case l.FirstName == "":
		return l.LastName, ""
	case contact.IsHungarianName(l.FirstName, l.LastName):
		return l.LastName, l.FirstName
	}
	return l.FirstName, l.LastName
}
