// Package lead holds leads: what a client may send, how it is checked and normalised, and the
// store that creates a lead against the company's monthly limit.
package lead

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Status is where a lead stands. New leads are StatusNew, or StatusOverLimit when they came in
// past the company's monthly limit.
type Status string

// The statuses a lead can have today.
const (
	StatusNew       Status = "new"
	StatusOverLimit Status = "over_limit"
)

// Source tells where a lead came from.
type Source string

// The sources a client may name.
const (
	SourceForm   Source = "form"
	SourceAPI    Source = "api"
	SourceChat   Source = "chat"
	SourceManual Source = "manual"
)

// Lead is a checked and normalised lead, ready to be stored. Empty strings are absent values.
type Lead struct {
	ID           uuid.UUID
	FirstName    string
	LastName     string
	Email        string
	Phone        string
	PhoneE164    string
	Service      string
	Note         string
	Source       Source
	ReferralData map[string]string
}

// Stored is a lead as the store returns it, for listings.
type Stored struct {
	Lead
	Status    Status
	CreatedAt time.Time
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

// Idempotency identifies a create request that a client may retry: its key and a hash of its body.
type Idempotency struct {
	Key         string
	RequestHash [32]byte
}

// Store keeps leads. CreateLead counts the lead against the company's month and stores it in one
// transaction; with an Idempotency it returns the first outcome for a repeated key, an
// errs.Unprocessable error for a key reused with another body and errs.Conflict while the first
// request is in flight.
type Store interface {
	CreateLead(ctx context.Context, companyID uuid.UUID, l Lead, limit *int, idem *Idempotency) (Created, error)
}
