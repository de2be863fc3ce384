// Package assistant holds what answers a visitor in the chat widget: the Assistant interface,
// the Turn it answers, the deterministic built-in assistant, and the rules every answer keeps
// (the language, and no price while gate_quote holds it back). The openai subpackage holds a
// client for OpenAI-compatible models; WithFallback puts the built-in assistant behind it.
package assistant

import (
	"context"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// Language of replies.
type Language string

// The languages the assistant speaks; any other value is answered in Hungarian.
const (
	Hungarian Language = "hu"
	English   Language = "en"
)

// Contact is a visitor's contact details; Name is the full name as known.
type Contact struct {
	Name  string
	Email string
	Phone string
}

// isZero reports whether no detail is set.
func (c Contact) isZero() bool { return c == Contact{} }

// Known tells which contact details of the visitor are known, never their values: a stored
// detail reaches neither a reply nor a model unless the same request carried it.
type Known struct {
	Name  bool
	Email bool
	Phone bool
}

// Message is one earlier message of the session, from the visitor or from the assistant.
type Message struct {
	Visitor bool
	Text    string
}

// Turn is everything the assistant may know when it answers one visitor message. It holds only
// this company's profile and this session's messages, so no answer can leak another tenant's data.
type Turn struct {
	Language Language
	Profile  Profile
	// Index is NewIndex(Profile), kept by a caller that answers many turns of one company;
	// when nil the built-in assistant builds it for the turn.
	Index        *Index
	QuickButtons []string
	// GateQuote holds back every price and quote until ContactComplete.
	GateQuote    bool
	RequirePhone bool
	// Message is the visitor's message now.
	Message string
	// Intent is DetectIntent(Message) when the caller has already worked it out (the chat does,
	// for its own rules), so the built-in assistant does not do it again; nil otherwise.
	Intent *Intent
	// History holds recent messages before this one, oldest first (at most ~10).
	History []Message
	// Known tells which contact details are known after this message.
	Known Known
	// Captured holds the details this request carried that were new or changed, which the
	// reply confirms; the only contact values an assistant sees.
	Captured Contact
	// Missing lists, of "name", "email" and "phone", what complete contact still lacks.
	Missing         []string
	ContactComplete bool
	// RequestContact is the server's decision to ask for contact details now.
	RequestContact bool
	// ContactPrompt is the company's own ask-for-contact text, may be empty.
	ContactPrompt string
}

// gated reports whether prices must be held back in this turn's reply.
func (t Turn) gated() bool { return t.GateQuote && !t.ContactComplete }

// Answer is a reply and, from a model, the contact details it believes the visitor gave; the
// chat package accepts a proposed detail only if it appears in the visitor's own messages.
type Answer struct {
	Text     string
	Proposed Contact
	// Handover is set when the profile does not answer the visitor's question and the reply
	// offers a colleague instead; the chat then asks for contact details.
	Handover bool
	// FellBack says why WithFallback's fallback answered instead of its primary; empty when
	// the primary answered.
	FellBack string
}

// Assistant answers one turn.
type Assistant interface {
	Answer(ctx context.Context, t Turn) (Answer, error)
}

// Warm loads the language data the built-in assistant matches words with (Hungarian
// morphology, the English–Hungarian lexicon), which otherwise the first visitor's turn after a
// start would wait for (about 0.4 s).
func Warm() { morph.Load() }
