package chat

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
)

// AgentWait is how long a visitor's message waits for the person who took the conversation
// over; then the assistant takes it back, says so and asks for contact details.
const AgentWait = 5 * time.Minute

// Role says who wrote a chat message.
type Role string

// The roles of chat messages.
const (
	RoleVisitor   Role = "visitor"
	RoleAssistant Role = "assistant"
	RoleAgent     Role = "agent"
)

// Message is one stored message of a conversation, as the live views show it.
type Message struct {
	ID   int64
	Role Role
	Text string
	At   time.Time
	// AgentName is the name the visitor is shown for a person's message.
	AgentName string
}

// Agent is a person of the company who writes in a conversation.
type Agent struct {
	ID uuid.UUID
	// Name is what the visitor sees beside the person's messages.
	Name string
}

// AgentName is the name a visitor is shown for a user: the part of their login e-mail before
// the "@", since users have no other name and the full address is theirs to give.
func AgentName(email string) string {
	name, _, _ := strings.Cut(email, "@")
	return name
}

// Conversation is a conversation as the dashboard lists it.
type Conversation struct {
	SessionID string
	LeadID    *uuid.UUID
	// Name is the visitor's name when known.
	Name   string
	LastAt time.Time
	// Unread counts the visitor's messages since a person of the company last looked.
	Unread int
	// Agent is the person who has taken the conversation over, nil while the assistant answers.
	Agent *Agent
	// WaitingSince is when the oldest visitor message still waiting for that person arrived.
	WaitingSince *time.Time
}

// NameIn is the full name in the language's order: Hungarian puts the family name first.
func (c Contact) NameIn(lang string) string {
	if lang != "en" && c.LastName != "" && c.FirstName != "" {
		return c.LastName + " " + c.FirstName
	}
	return c.Name()
}

// LiveStore keeps what people of the company do in conversations, each scoped to a company.
type LiveStore interface {
	// Messages returns up to n of a session's messages after the one with id after, oldest
	// first; an errs.NotFound error when the company has no such session.
	Messages(ctx context.Context, companyID uuid.UUID, sessionID string, after int64, n int) ([]Message, error)
	// Conversations lists the company's conversations active since then, newest first.
	Conversations(ctx context.Context, companyID uuid.UUID, since time.Time) ([]Conversation, error)
	// Conversation is one of them, active or not; errs.NotFound when unknown.
	Conversation(ctx context.Context, companyID uuid.UUID, sessionID string) (Conversation, error)
	// Hold gives the conversation to the agent (take over) or, with nil, back to the assistant.
	Hold(ctx context.Context, companyID uuid.UUID, sessionID string, agent *uuid.UUID) error
	// AgentMessage stores a person's message, taking the conversation over if nobody has it.
	AgentMessage(ctx context.Context, companyID uuid.UUID, sessionID string, agent Agent, text string) (Message, error)
	// AgentsOnline reports whether a person of the company can answer the session now: one has
	// it, or has the dashboard's conversations open.
	AgentsOnline(ctx context.Context, companyID uuid.UUID, sessionID string) (bool, error)
	// Present records that a person has the conversations open until then (nil: no longer).
	Present(ctx context.Context, companyID, userID uuid.UUID, until *time.Time) error
	// MarkSeen records that the company's people have seen the session up to message id.
	MarkSeen(ctx context.Context, companyID uuid.UUID, sessionID string, id int64) error
	// ResumeWaiting gives back to the assistant every held conversation whose visitor has waited
	// since before cutoff (only the one session when sessionID is not empty), storing the
	// assistant's message from text by the conversation's language; it returns how many.
	ResumeWaiting(ctx context.Context, cutoff time.Time, companyID *uuid.UUID, sessionID string, text func(lang string) string) (int, error)
}

// ResumeText is what the assistant says when it takes a conversation back from a person who
// did not answer in time.
func ResumeText(lang string) string {
	if lang == "en" {
		return "My colleagues cannot reply right now; they will get back to you soon. Please leave your name and e-mail address (or phone number) so that they can reach you."
	}
	return "Kollégáink most nem tudnak válaszolni, de hamarosan jelentkeznek. Kérem, adja meg a nevét és az e-mail-címét (vagy telefonszámát), hogy elérhessék Önt."
}

// Live is what the company's people do in conversations: read, take over, answer, hand back.
type Live struct {
	store LiveStore
	now   func() time.Time
}

// NewLive builds the live conversations' service; now is the clock (time.Now outside tests).
func NewLive(store LiveStore, now func() time.Time) *Live {
	if now == nil {
		now = time.Now
	}
	return &Live{store: store, now: now}
}

// CheckSession checks a session id as given by a client.
func CheckSession(id string) error {
	if !sessionIDPattern.MatchString(id) {
		return errs.Field(errs.CodeInvalidSessionID, "session_id")
	}
	return nil
}

// Messages returns a session's messages after the id after, at most limits.ListMax: a client
// that gets a full page asks again after its last.
func (l *Live) Messages(ctx context.Context, companyID uuid.UUID, sessionID string, after int64) ([]Message, error) {
	if err := CheckSession(sessionID); err != nil {
		return nil, err
	}
	return l.store.Messages(ctx, companyID, sessionID, max(after, 0), limits.ListMax)
}

// Conversations lists the company's conversations of the last day, newest first.
func (l *Live) Conversations(ctx context.Context, companyID uuid.UUID) ([]Conversation, error) {
	return l.store.Conversations(ctx, companyID, l.now().Add(-24*time.Hour))
}

// Conversation is one conversation of the company.
func (l *Live) Conversation(ctx context.Context, companyID uuid.UUID, sessionID string) (Conversation, error) {
	if CheckSession(sessionID) != nil {
		return Conversation{}, errs.E(errs.NotFound, errs.CodeNotFound)
	}
	return l.store.Conversation(ctx, companyID, sessionID)
}

// TakeOver pauses the assistant: the agent answers the conversation from now on.
func (l *Live) TakeOver(ctx context.Context, companyID uuid.UUID, sessionID string, agent uuid.UUID) error {
	return l.store.Hold(ctx, companyID, sessionID, &agent)
}

// HandBack resumes the assistant.
func (l *Live) HandBack(ctx context.Context, companyID uuid.UUID, sessionID string) error {
	return l.store.Hold(ctx, companyID, sessionID, nil)
}

// Send stores a person's message: 1 to limits.AgentMessageLen characters, line breaks allowed.
func (l *Live) Send(ctx context.Context, companyID uuid.UUID, sessionID string, agent Agent, text string) (Message, error) {
	text, err := lead.CheckText("message", text, limits.AgentMessageLen)
	if err != nil {
		return Message{}, err
	}
	if text == "" {
		return Message{}, errs.Field(errs.CodeMissingField, "message")
	}
	return l.store.AgentMessage(ctx, companyID, sessionID, agent, text)
}

// AgentsOnline reports whether a person of the company can answer the session now.
func (l *Live) AgentsOnline(ctx context.Context, companyID uuid.UUID, sessionID string) (bool, error) {
	return l.store.AgentsOnline(ctx, companyID, sessionID)
}

// PresenceTTL is how long a dashboard's presence lasts unless its page renews it.
const PresenceTTL = time.Minute

// Present records that a person has the conversations open (false: closed them).
func (l *Live) Present(ctx context.Context, companyID, userID uuid.UUID, open bool) error {
	if !open {
		return l.store.Present(ctx, companyID, userID, nil)
	}
	until := l.now().Add(PresenceTTL)
	return l.store.Present(ctx, companyID, userID, &until)
}

// MarkSeen records that the company's people have read the conversation up to message id.
func (l *Live) MarkSeen(ctx context.Context, companyID uuid.UUID, sessionID string, id int64) error {
	return l.store.MarkSeen(ctx, companyID, sessionID, id)
}

// ResumeWaiting gives every conversation whose visitor waited AgentWait for a person back to
// the assistant; it returns how many.
func (l *Live) ResumeWaiting(ctx context.Context) (int, error) {
	return l.store.ResumeWaiting(ctx, l.now().Add(-AgentWait), nil, "", ResumeText)
}
