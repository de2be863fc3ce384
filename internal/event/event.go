// Package event holds what a lead change records for the outside world: the event types, the
// payload a receiver gets, where it goes (a webhook endpoint or an e-mail address), and the
// rules of a delivery's attempts. The store records an event in the transaction of the change
// it reports; the delivery side reads it back and sends it, at least once.
package event

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
	"github.com/leadchat/leadchat/internal/limits"
)

// Type is what happened to a lead.
type Type string

// The event types.
const (
	LeadCreated Type = "lead.created"
	LeadUpdated Type = "lead.updated" // contact details or status changed
	LeadErased  Type = "lead.erased"
)

// Types lists every event type, in the order people read them.
var Types = []Type{LeadCreated, LeadUpdated, LeadErased}

// ErrUnknownType is wrapped by the refusal of an event type's name.
var ErrUnknownType = errors.New("unknown event type")

// ParseType checks an event type's name.
func ParseType(s string) (Type, error) {
	for _, t := range Types {
		if string(t) == s {
			return t, nil
		}
	}
	return "", fmt.Errorf("%w %q (lead.created, lead.updated, lead.erased)", ErrUnknownType, s)
}

// ErrTooManyEndpoints refuses a webhook endpoint past limits.WebhookEndpoints of a company.
var ErrTooManyEndpoints = fmt.Errorf("a company has at most %d webhook endpoints", limits.WebhookEndpoints)

// ErrTooManyEmails refuses a list of more than limits.NotifyEmails new-lead addresses.
var ErrTooManyEmails = fmt.Errorf("a company has at most %d new-lead e-mail addresses", limits.NotifyEmails)

// EmailError is the refusal of a notify address, naming it.
type EmailError struct{ Address string }

func (e *EmailError) Error() string { return fmt.Sprintf("%q: want a plain e-mail address", e.Address) }

// NotifyAddresses checks the addresses that are to get the new-lead e-mail: each a plain
// address (no display name, no spaces around it). It returns them deduplicated, in the order
// given; none turns the e-mail off. More than limits.NotifyEmails is ErrTooManyEmails.
func NotifyAddresses(in []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, e := range in {
		a, err := mail.ParseAddress(e)
		if err != nil || a.Name != "" || a.Address != strings.TrimSpace(e) {
			return nil, &EmailError{Address: e}
		}
		if !seen[a.Address] {
			seen[a.Address] = true
			out = append(out, a.Address)
		}
	}
	if len(out) > limits.NotifyEmails {
		return nil, ErrTooManyEmails
	}
	return out, nil
}

// Event is one recorded event. Lead is the lead as it is when the event is sent (the outbox
// keeps no copy of it); nil for lead.erased, and for any event of a lead erased since, which
// is then not sent.
type Event struct {
	ID        uuid.UUID
	Type      Type
	CompanyID uuid.UUID
	LeadID    uuid.UUID
	At        time.Time
	Lead      *lead.Stored
}

// Body is the JSON a webhook receives: {"type", "timestamp", "data": {"lead": Lead}} with the
// contract's Lead object (leadjson), and for lead.erased {"data": {"lead_id"}} with no personal
// data.
func (e Event) Body() ([]byte, error) {
	b := append(make([]byte, 0, 640), `{"type":`...)
	b = leadjson.AppendString(b, string(e.Type))
	b = append(b, `,"timestamp":`...)
	b = leadjson.AppendString(b, e.At.UTC().Format(time.RFC3339Nano))
	if e.Type == LeadErased {
		b = append(b, `,"data":{"lead_id":"`...)
		b = append(b, e.LeadID.String()...)
		return append(b, `"}}`...), nil
	}
	if e.Lead == nil {
		return nil, fmt.Errorf("event %s: %s without its lead", e.ID, e.Type)
	}
	b = append(b, `,"data":{"lead":`...)
	b = leadjson.Append(b, e.Lead)
	return append(b, "}}"...), nil
}

// Endpoint is a company's webhook endpoint. Events lists the types it receives, empty for all.
type Endpoint struct {
	ID        uuid.UUID `json:"id"`
	CompanyID uuid.UUID `json:"company_id"`
	URL       string    `json:"url"`
	Events    []Type    `json:"events"`
	// Secret is the whsec_ signing secret; PreviousSecret still signs beside it until
	// PreviousUntil, after a rotation.
	Secret         string     `json:"-"`
	PreviousSecret string     `json:"-"`
	PreviousUntil  *time.Time `json:"previous_secret_until,omitempty"`
	DisabledAt     *time.Time `json:"disabled_at"`
	DisabledReason string     `json:"disabled_reason,omitempty"`
	CreatedAt      time.Time  `json:"created_at"`
	// Failing is whether the newest settled delivery to the endpoint failed (its retries
	// were spent, or the receiver answered 410): the receiver needs looking at.
	Failing bool `json:"failing"`
}

// Secrets are the secrets that sign a message sent at now: the current one, and the previous
// one during its grace period.
func (e Endpoint) Secrets(now time.Time) []string {
	s := []string{e.Secret}
	if e.PreviousSecret != "" && e.PreviousUntil != nil && now.Before(*e.PreviousUntil) {
		s = append(s, e.PreviousSecret)
	}
	return s
}

// State is where a delivery stands.
type State string

// A delivery is pending until it is delivered or has failed for good.
const (
	Pending   State = "pending"
	Delivered State = "delivered"
	Failed    State = "failed"
)

// Delivery is one event to one target: a webhook endpoint, or an e-mail address.
type Delivery struct {
	ID        uuid.UUID
	CompanyID uuid.UUID
	Event     Event
	Endpoint  *Endpoint // nil for an e-mail
	Email     string    // empty for a webhook
	State     State
	Attempts  int
}

// ErrPending is the answer to a redelivery of a delivery still on its way.
var ErrPending = errors.New("the delivery is still pending: it is on its way")

// Cursor is where a page of a delivery log starts: after the delivery created at CreatedAt
// with id ID, newest first. The zero Cursor is the newest delivery.
type Cursor struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// IsZero reports whether c starts at the newest delivery.
func (c Cursor) IsZero() bool { return c.CreatedAt.IsZero() }

// Next is the cursor of the page after the one that ends with r.
func (r Record) Next() Cursor { return Cursor{CreatedAt: r.CreatedAt, ID: r.ID} }

// Record is a delivery as its log shows it.
type Record struct {
	ID            uuid.UUID  `json:"id"`
	EventID       uuid.UUID  `json:"event_id"`
	Type          Type       `json:"type"`
	LeadID        uuid.UUID  `json:"lead_id"`
	EndpointID    *uuid.UUID `json:"endpoint_id,omitempty"`
	Email         string     `json:"email,omitempty"`
	State         State      `json:"state"`
	Attempts      int        `json:"attempts"`
	LastStatus    *int       `json:"last_status"`
	LastError     string     `json:"last_error,omitempty"`
	LastResponse  string     `json:"last_response,omitempty"`
	LastAttemptAt *time.Time `json:"last_attempt_at"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	DeliveredAt   *time.Time `json:"delivered_at"`
	CreatedAt     time.Time  `json:"created_at"`
}

// The outbox's contract with the job queue (River). A statement that records events enqueues
// a job of kind DispatchJobKind in queue DispatchQueue, unless one is already waiting there;
// the job makes the deliveries of every event not yet dispatched, each with a job of kind
// DeliveryJobKind whose args are a DeliveryJob, in queue DeliveryQueue. A job's own attempts
// only cover failures to reach the database; a delivery's attempts are counted on the delivery
// and retried by snoozing its job.
const (
	DispatchJobKind        = "dispatch_events"
	DispatchQueue          = "event_dispatch"
	DeliveryJobKind        = "event_delivery"
	DeliveryQueue          = "events"
	DeliveryJobMaxAttempts = 25
)

// DispatchJob is the args of a dispatch job: none, it takes every event not yet dispatched.
// (Jobs enqueued before that carry the range of the events of their statement, which the
// dispatcher need not read.)
type DispatchJob struct{}

// Kind is the job's kind, as River asks.
func (DispatchJob) Kind() string { return DispatchJobKind }

// DeliveryJob is the args of a delivery's job.
type DeliveryJob struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
	CompanyID  uuid.UUID `json:"company_id"`
}

// Kind is the job's kind, as River asks.
func (DeliveryJob) Kind() string { return DeliveryJobKind }
