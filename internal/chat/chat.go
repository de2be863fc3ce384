package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/cache"
	"github.com/leadchat/leadchat/internal/contact"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/metrics"
	"github.com/leadchat/leadchat/internal/widget"
)

var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{22,128}$`)

// Request is one visitor message as the widget sends it; nil pointers are absent fields.
type Request struct {
	SessionID    *string
	Message      string
	FirstName    *string
	Email        *string
	Phone        *string
	ReferralData map[string]string
	// Honeypot is the contact form's hidden field: people leave it empty, form-filling bots do not.
	Honeypot string
	// FormFillMillis is how long the contact form was open before it was sent, when it was.
	FormFillMillis *int
}

// MaxModelWait bounds the AI model's part of one chat request, retries included; past it the
// built-in assistant answers. It stays under the HTTP layer's request timeout and the shutdown
// grace period.
const MaxModelWait = 15 * time.Second

// MinFormFill is the least time a person takes to fill the contact form.
const MinFormFill = 2000 // milliseconds

// fromBot reports whether the contact form's details look sent by a bot: then they are dropped
// quietly, the conversation goes on as if they were not sent, and the drop is counted.
func (r Request) fromBot() bool {
	return r.Honeypot != "" || (r.FormFillMillis != nil && *r.FormFillMillis < MinFormFill)
}

// Reply is the answer to one visitor message.
type Reply struct {
	Text           string
	LeadID         *uuid.UUID
	SessionID      string
	RequestContact bool
}

// Service answers visitor messages.
type Service struct {
	store    Store
	configs  *widget.Configs
	builtin  assistant.Assistant
	model    assistant.Assistant // nil without a configured AI model
	profiles *cache.Map[uuid.UUID, assistant.Profile]
	log      *slog.Logger
	metrics  *metrics.Metrics
}

// New builds the chat service. model may be nil; it is wrapped so that any failure falls back
// to the built-in assistant.
func New(store Store, configs *widget.Configs, model assistant.Assistant, log *slog.Logger, m *metrics.Metrics) *Service {
	s := &Service{store: store, configs: configs, builtin: assistant.Builtin{}, log: log, metrics: m,
		profiles: cache.New[uuid.UUID, assistant.Profile]("assistant")}
	if model != nil {
		s.model = assistant.WithFallback(model, s.builtin, func(reason string) {
			log.Warn("AI model failed; the built-in assistant answered", "reason", reason)
			m.ModelCall("fallback", 0)
		})
	}
	return s
}

// Cache is the profile cache, to be connected to the change feed.
func (s *Service) Cache() cache.Follower { return s.profiles }

// input is a checked request.
type input struct {
	sessionID string
	message   string
	form      Contact
	referral  map[string]string
}

func check(req Request) (input, error) {
	in := input{sessionID: uuid.NewString()}
	if req.SessionID != nil {
		in.sessionID = strings.TrimSpace(*req.SessionID)
		if !sessionIDPattern.MatchString(in.sessionID) {
			return input{}, errs.Field("invalid_session_id", "session_id")
		}
	}
	var err error
	if in.message, err = lead.CheckText("message", req.Message, MaxMessageLen); err != nil {
		return input{}, err
	}
	if in.message == "" {
		return input{}, errs.Field("missing_field", "message")
	}
	if req.FirstName != nil {
		if in.form.FirstName, err = lead.CheckLine("first_name", *req.FirstName, lead.MaxNameLen); err != nil {
			return input{}, err
		}
	}
	if req.Email != nil && strings.TrimSpace(*req.Email) != "" {
		if in.form.Email, err = lead.CheckEmail(*req.Email); err != nil {
			return input{}, err
		}
	}
	if req.Phone != nil {
		if in.form.Phone, in.form.PhoneE164, err = lead.CheckPhone(*req.Phone); err != nil {
			return input{}, err
		}
	}
	if in.referral, err = lead.FilterReferral(req.ReferralData); err != nil {
		return input{}, err
	}
	return in, nil
}

// Handle answers one visitor message for the key's company.
func (s *Service) Handle(ctx context.Context, p auth.Principal, req Request) (Reply, error) {
	bot := req.fromBot()
	if bot {
		s.metrics.BotDropped()
		req.FirstName, req.Email, req.Phone = nil, nil, nil
	}
	in, err := check(req)
	if err != nil {
		return Reply{}, err
	}
	settings, err := s.configs.Config(ctx, p.CompanyID, p.Plan)
	if err != nil {
		return Reply{}, err
	}
	var found contact.Found
	if !bot {
		found = contact.Extract(in.message)
	}
	text := Contact{FirstName: found.FirstName, LastName: found.LastName, Email: found.Email,
		Phone: found.Phone, PhoneE164: found.PhoneE164}
	var captured Contact
	sess, history, err := s.store.Turn(ctx, p.CompanyID, in.sessionID, p.LeadLimit, func(cur Session) (Update, error) {
		if cur.VisitorMessages >= MaxVisitorMessages {
			return Update{}, errs.E(errs.RateLimited, "session_limit")
		}
		next := cur
		next.VisitorMessages++
		next.Contact, captured = merge(cur.Contact, in.form, text)
		if next.ReferralData == nil {
			next.ReferralData = in.referral
		}
		return Update{Session: next, Message: in.message, Lead: sessionLead(next, captured)}, nil
	})
	if err != nil {
		return Reply{}, err
	}
	if c := sess.NewLead; c != nil {
		s.metrics.LeadCreated(string(lead.SourceChat), c.OverLimit)
	}

	complete := sess.Contact.Complete(settings.RequirePhone)
	intent := assistant.DetectIntent(in.message)
	wants := intent.Buying || intent.Price || intent.Quote || intent.Callback
	requestContact := !complete && (wants || sess.VisitorMessages >= 2)

	profile, err := s.profile(ctx, p.CompanyID)
	if err != nil {
		return Reply{}, err
	}
	if len(history) > 0 {
		history = history[:len(history)-1] // the assistant gets the new message on its own
	}
	turn := assistant.Turn{
		Language: assistant.Language(settings.Language), Profile: profile, QuickButtons: settings.QuickButtons,
		GateQuote: settings.GateQuote, RequirePhone: settings.RequirePhone, Message: in.message,
		History: history, Known: asContact(sess.Contact, settings.Language), Captured: asContact(captured, settings.Language),
		Missing: sess.Contact.Missing(settings.RequirePhone), ContactComplete: complete,
		RequestContact: requestContact,
	}
	if settings.ContactPrompt != nil {
		turn.ContactPrompt = *settings.ContactPrompt
	}
	answer, err := s.answer(ctx, p, turn)
	if err != nil {
		return Reply{}, err
	}
	if err := s.store.SaveReply(ctx, p.CompanyID, sess.ID, answer.Text); err != nil {
		return Reply{}, err
	}
	if sess, err = s.acceptProposed(ctx, p, sess, answer.Proposed, history, in.message); err != nil {
		return Reply{}, err
	}
	s.metrics.ChatMessage()
	return Reply{Text: answer.Text, LeadID: sess.LeadID, SessionID: sess.ID, RequestContact: requestContact}, nil
}

// answer asks the model when one is configured and today's budget allows, else the built-in
// assistant.
func (s *Service) answer(ctx context.Context, p auth.Principal, t assistant.Turn) (assistant.Answer, error) {
	if s.model != nil {
		var budget *int
		if b, ok := p.Plan.ModelBudget(); ok {
			budget = &b
		}
		ok, err := s.store.UseModelReply(ctx, p.CompanyID, budget)
		if err != nil {
			return assistant.Answer{}, err
		}
		if ok {
			start := time.Now()
			// The model gets a share of the request's time, so the reply can still be saved and
			// sent after a slow model and the built-in fallback.
			mctx, cancel := context.WithTimeout(ctx, MaxModelWait)
			defer cancel()
			a, err := s.model.Answer(mctx, t)
			s.metrics.ModelCall("called", time.Since(start))
			return a, err
		}
		s.metrics.ModelCall("budget", 0)
	}
	return s.builtin.Answer(ctx, t)
}

// acceptProposed adds the details a model proposed that the visitor really wrote and that
// were unknown; they only fill gaps, never overwrite.
func (s *Service) acceptProposed(ctx context.Context, p auth.Principal, sess Session, proposed assistant.Contact, history []assistant.Message, message string) (Session, error) {
	if proposed == (assistant.Contact{}) {
		return sess, nil
	}
	visitor := []string{message}
	for _, m := range history {
		if m.Visitor {
			visitor = append(visitor, m.Text)
		}
	}
	extra := verified(proposed, visitor)
	if _, captured := merge(sess.Contact, Contact{}, extra); captured == (Contact{}) {
		return sess, nil
	}
	next, _, err := s.store.Turn(ctx, p.CompanyID, sess.ID, p.LeadLimit, func(cur Session) (Update, error) {
		n := cur
		var captured Contact
		n.Contact, captured = merge(cur.Contact, Contact{}, extra)
		return Update{Session: n, Lead: sessionLead(n, captured)}, nil
	})
	return next, err
}

func (s *Service) profile(ctx context.Context, companyID uuid.UUID) (assistant.Profile, error) {
	return s.profiles.Get(ctx, companyID, func(ctx context.Context) (assistant.Profile, error) {
		raw, err := s.store.AssistantProfile(ctx, companyID)
		if err != nil || raw == nil {
			return assistant.Profile{}, err
		}
		var p assistant.Profile
		if err := json.Unmarshal(raw, &p); err != nil {
			return assistant.Profile{}, fmt.Errorf("company %s assistant profile: %w", companyID, err)
		}
		return p, nil
	})
}

// asContact words a contact for the assistant, the name in the language's order: Hungarian
// puts the family name first ("Kovács Péter"), English last.
func asContact(c Contact, lang string) assistant.Contact {
	name := c.Name()
	if lang != "en" && c.LastName != "" && c.FirstName != "" {
		name = c.LastName + " " + c.FirstName
	}
	return assistant.Contact{Name: name, Email: c.Email, Phone: c.Phone}
}

// merge combines what was known with this message's details: a detail typed in the contact
// form always wins; one found in the text only fills a gap. It returns the new contact and the
// details this message added or changed.
func merge(cur, form, text Contact) (next, captured Contact) {
	next = cur
	set := func(dst *string, capt *string, v string) {
		if v != "" && v != *dst {
			*dst, *capt = v, v
		}
	}
	fill := func(dst *string, capt *string, v string) {
		if *dst == "" && v != "" {
			*dst, *capt = v, v
		}
	}
	if form.FirstName != "" {
		// The form has one name field, which may hold the whole name.
		if form.FirstName != cur.Name() {
			next.FirstName, next.LastName = form.FirstName, ""
			captured.FirstName = form.FirstName
		}
	} else if cur.FirstName == "" && text.FirstName != "" {
		next.FirstName, next.LastName = text.FirstName, text.LastName
		captured.FirstName, captured.LastName = text.FirstName, text.LastName
	}
	if form.Email != "" {
		set(&next.Email, &captured.Email, form.Email)
	} else {
		fill(&next.Email, &captured.Email, text.Email)
	}
	if form.Phone != "" {
		if form.Phone != cur.Phone {
			next.Phone, next.PhoneE164 = form.Phone, form.PhoneE164
			captured.Phone, captured.PhoneE164 = form.Phone, form.PhoneE164
		}
	} else if cur.Phone == "" && text.Phone != "" {
		next.Phone, next.PhoneE164 = text.Phone, text.PhoneE164
		captured.Phone, captured.PhoneE164 = text.Phone, text.PhoneE164
	}
	return next, captured
}

// sessionLead is the lead to write for the session: created once an email or phone is known,
// updated when a detail changed after.
func sessionLead(s Session, captured Contact) *lead.Lead {
	if !s.Contact.Reachable() || (s.LeadID != nil && captured == (Contact{})) {
		return nil
	}
	l := &lead.Lead{
		FirstName: s.Contact.FirstName, LastName: s.Contact.LastName, Email: s.Contact.Email,
		Phone: s.Contact.Phone, PhoneE164: s.Contact.PhoneE164, Source: lead.SourceChat,
		ReferralData: s.ReferralData,
	}
	if s.LeadID != nil {
		l.ID = *s.LeadID
	} else {
		l.ID = uuid.New()
	}
	return l
}
