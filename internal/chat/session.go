// Package chat runs the widget's conversations: sessions and messages per company, the contact
// details found along the way, the session's one lead, and the server-side rules of when to ask
// for contact details. The assistant only words the replies.
//
// A turn reads what it needs, produces the answer outside any transaction, then writes the
// visitor's message, the contact changes, the lead and the reply in one transaction that only
// applies while the session is still as it was read; a turn that lost a race reads again.
package chat

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/lead"
)

// HistoryLen is how many earlier messages the assistant sees.
const HistoryLen = 10

// Contact is what is known of a visitor. Empty strings are unknown.
type Contact struct {
	FirstName string
	LastName  string
	Email     string
	Phone     string
	PhoneE164 string
}

// Name is the full name as known.
func (c Contact) Name() string { return strings.TrimSpace(c.FirstName + " " + c.LastName) }

// Reachable reports whether an email or phone is known: then the session has a lead.
func (c Contact) Reachable() bool { return c.Email != "" || c.Phone != "" }

// Complete reports whether contact is complete: a name and an email, and a phone when required.
func (c Contact) Complete(requirePhone bool) bool {
	return c.Name() != "" && c.Email != "" && (!requirePhone || c.Phone != "")
}

// Missing lists what complete contact still lacks, of "name", "email", "phone".
func (c Contact) Missing(requirePhone bool) []string {
	var m []string
	if c.Name() == "" {
		m = append(m, "name")
	}
	if c.Email == "" {
		m = append(m, "email")
	}
	if requirePhone && c.Phone == "" {
		m = append(m, "phone")
	}
	return m
}

// Session is a conversation's state. Version counts its turns' writes (0: not stored yet).
type Session struct {
	ID              string
	Version         int
	LeadID          *uuid.UUID
	VisitorMessages int
	Contact         Contact
	ReferralData    map[string]string
	// Service is the profile's service the conversation is about, the latest one named.
	Service string
	// Summary is what the conversation showed of the visitor's needs; Note is its wording
	// for the session's lead (details.note), which also lists Summary.Unanswered.
	Summary Summary
	Note    string
	// Language is the language of the conversation so far, for companies set to auto.
	Language string
	// Agent is the person who has taken the conversation over (nil: the assistant answers);
	// WaitingSince is when the oldest visitor message still waiting for them arrived.
	Agent        *uuid.UUID
	WaitingSince *time.Time
}

// State is what a turn reads before it answers.
type State struct {
	Session Session
	// History holds the session's recent messages, oldest first.
	History []assistant.Message
	// Answered is the first answer to the turn's message_id, when it was answered before.
	Answered *Answered
}

// Answered is an answer as it was stored.
type Answered struct {
	Reply          string
	RequestContact bool
	// ByAgent is true when a person had the conversation: the message was stored unanswered.
	ByAgent bool
}

// Write is everything one turn stores, together or not at all.
type Write struct {
	// Session is the state after the turn; its Version is the one the turn read.
	Session   Session
	Message   string
	MessageID string // may be empty
	// HandedOver is set when the assistant could not answer the message and offered a
	// colleague; the stored message keeps it.
	HandedOver bool
	Answered   Answered
	// NewLead is the session's lead when this turn creates it, counted against Limit.
	NewLead *lead.Lead
	Limit   *int
	// Changes are the contact details this turn changed on the session's existing lead.
	Changes []lead.Change
	// Consent is the consent this turn sent for the session's existing lead (a FieldConsent
	// change among Changes); a new lead carries its own.
	Consent *lead.Consent
}

// Store keeps sessions, messages and the daily model budget, each scoped to a company.
type Store interface {
	// ReadTurn reads a session (a zero Session with the given id when it is new), its recent
	// HistoryLen messages and, when messageID is not empty, that message's first answer.
	ReadTurn(ctx context.Context, companyID uuid.UUID, sessionID, messageID string) (State, error)
	// SaveTurn stores a turn in one transaction. It is an errs.Conflict error when the session
	// is no longer at the version the turn read, or its message id was stored meanwhile: the
	// turn must read again. It returns the created lead's outcome when the turn created one.
	SaveTurn(ctx context.Context, companyID uuid.UUID, w Write) (*lead.Created, error)
	// ResumeWaiting gives held conversations whose visitor waited since before cutoff back to
	// the assistant; see LiveStore.
	ResumeWaiting(ctx context.Context, cutoff time.Time, companyID *uuid.UUID, sessionID string, text func(lang string) string) (int, error)
	// UseModelReply counts one AI model reply against today's budget; false when it is spent.
	UseModelReply(ctx context.Context, companyID uuid.UUID, budget *int) (bool, error)
	// AssistantProfile returns the company's assistant profile as stored JSON, nil when none.
	AssistantProfile(ctx context.Context, companyID uuid.UUID) ([]byte, error)
}
