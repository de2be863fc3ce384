// Package chat runs the widget's conversations: sessions and messages per company, the contact
// details found along the way, the session's one lead, and the server-side rules of when to ask
// for contact details. The assistant only words the replies.
package chat

import (
	"context"
	"strings"

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

// Session is a conversation's state.
type Session struct {
	ID              string
	LeadID          *uuid.UUID
	VisitorMessages int
	Contact         Contact
	ReferralData    map[string]string
	// NewLead is set by Store.Turn when this turn created the session's lead.
	NewLead *lead.Created
}

// Update is what one turn changes: the session's new state, the visitor message to record
// (none when empty) and the lead to create (Session.LeadID nil before) or update.
type Update struct {
	Session Session
	Message string
	Lead    *lead.Lead
}

// Store keeps sessions, messages and the daily model budget, each scoped to a company.
type Store interface {
	// Turn runs one change of a session in one transaction: it creates or locks the session,
	// passes its current state to decide, and stores what decide returns, creating the lead
	// against the company's monthly limit. It returns the new state and the session's recent
	// messages, oldest first, the new one included. An error from decide rolls everything back.
	Turn(ctx context.Context, companyID uuid.UUID, sessionID string, limit *int, decide func(Session) (Update, error)) (Session, []assistant.Message, error)
	// SaveReply records an assistant reply.
	SaveReply(ctx context.Context, companyID uuid.UUID, sessionID, text string) error
	// UseModelReply counts one AI model reply against today's budget; false when it is spent.
	UseModelReply(ctx context.Context, companyID uuid.UUID, budget *int) (bool, error)
	// AssistantProfile returns the company's assistant profile as stored JSON, nil when none.
	AssistantProfile(ctx context.Context, companyID uuid.UUID) ([]byte, error)
}
