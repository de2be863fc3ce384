package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
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
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/widget"
)

var (
	sessionIDPattern = regexp.MustCompile(fmt.Sprintf(`^[%s]{%d,%d}$`, limits.IDChars, limits.SessionIDMinLen, limits.SessionIDMaxLen))
	messageIDPattern = regexp.MustCompile(fmt.Sprintf(`^[%s]{%d,%d}$`, limits.IDChars, limits.MessageIDMinLen, limits.MessageIDMaxLen))
)

// Request is one visitor message as the widget sends it; nil pointers are absent fields.
type Request struct {
	SessionID *string
	// MessageID names the message so that its retry returns the first answer.
	MessageID    *string
	Message      string
	FirstName    *string
	Email        *string
	Phone        *string
	ReferralData map[string]string
	// Honeypot is the contact form's hidden field: people leave it empty, form-filling bots do not.
	Honeypot string
	// FormFillMillis is how long the contact form was open before it was sent, when it was.
	FormFillMillis *int
	// Consent is what the visitor saw and chose beside the contact form.
	Consent *lead.ConsentInput
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

// Reply is the answer to one visitor message, with what the edge records about it.
type Reply struct {
	Text           string
	LeadID         *uuid.UUID
	SessionID      string
	RequestContact bool
	// Language is the language of the reply ("hu" or "en"), which the widget's own texts follow.
	Language string
	// Replayed is true when this is the first answer to a repeated message_id.
	Replayed bool
	// ByAgent is true while a person has the conversation: the message is stored, unanswered.
	ByAgent bool
	// NewLead is the outcome of the lead this turn created, if it did.
	NewLead *lead.Created
	// BotDropped is true when the contact form's details were dropped as a bot's.
	BotDropped bool
	Model      ModelUse
}

// ModelUse tells how the AI model took part in a reply.
type ModelUse struct {
	// Called is true when the model was asked; Took is how long it took.
	Called bool
	Took   time.Duration
	// BudgetSpent is true when today's model budget was spent and the built-in assistant answered.
	BudgetSpent bool
	// FellBack says why the built-in assistant answered in the model's place, if it did.
	FellBack string
}

// Service answers visitor messages.
type Service struct {
	store    Store
	configs  *widget.Configs
	builtin  assistant.Assistant
	model    assistant.Assistant // nil without a configured AI model
	profiles *cache.Map[uuid.UUID, companyProfile]
	now      func() time.Time
}

// companyProfile is a company's assistant profile with its index, built once per cache fill.
type companyProfile struct {
	assistant.Profile
	index *assistant.Index
}

// New builds the chat service and loads the built-in assistant's language data, so that the
// first turn does not wait for it. model may be nil; it is wrapped so that any failure falls
// back to the built-in assistant.
func New(store Store, configs *widget.Configs, model assistant.Assistant) *Service {
	assistant.Warm()
	s := &Service{store: store, configs: configs, builtin: assistant.Builtin{},
		profiles: cache.New[uuid.UUID, companyProfile]("assistant"), now: time.Now}
	if model != nil {
		s.model = assistant.WithFallback(model, s.builtin)
	}
	return s
}

// WithClock sets the clock that tells how long a visitor has waited for a person.
func (s *Service) WithClock(now func() time.Time) *Service {
	s.now = now
	return s
}

// Cache is the profile cache, to be connected to the change feed.
func (s *Service) Cache() cache.Follower { return s.profiles }

// input is a checked request.
type input struct {
	sessionID string
	messageID string
	message   string
	form      Contact
	text      Contact // the details found in the message
	// correction is set when the message says its details correct earlier ones.
	correction bool
	referral   map[string]string
	consent    *lead.Consent
}

func check(req Request) (input, error) {
	in := input{sessionID: uuid.NewString()}
	if req.SessionID != nil {
		in.sessionID = strings.TrimSpace(*req.SessionID)
		if !sessionIDPattern.MatchString(in.sessionID) {
			return input{}, errs.Field(errs.CodeInvalidSessionID, "session_id")
		}
	}
	if req.MessageID != nil {
		in.messageID = *req.MessageID
		if !messageIDPattern.MatchString(in.messageID) {
			return input{}, errs.Field(errs.CodeInvalidMessageID, "message_id")
		}
	}
	var err error
	if in.message, err = lead.CheckText("message", req.Message, limits.MessageLen); err != nil {
		return input{}, err
	}
	if in.message == "" {
		return input{}, errs.Field(errs.CodeMissingField, "message")
	}
	if req.FirstName != nil {
		if in.form.FirstName, err = lead.CheckLine("first_name", *req.FirstName, limits.NameLen); err != nil {
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
	if req.Consent != nil {
		if in.consent, err = req.Consent.Check(lead.SourceChat, time.Now()); err != nil {
			return input{}, err
		}
	}
	return in, nil
}

// turnAttempts bounds how often a turn reads again after losing a race to another turn of its
// session; each loss means another turn was stored, so a few tries are plenty.
const turnAttempts = 8

// Handle answers one visitor message for the key's company: it reads the session, answers
// outside any transaction, and stores the turn in one; a turn that lost a race reads again.
func (s *Service) Handle(ctx context.Context, p auth.Principal, req Request) (Reply, error) {
	bot := req.fromBot()
	if bot {
		req.FirstName, req.Email, req.Phone, req.Consent = nil, nil, nil, nil
	}
	in, err := check(req)
	if err != nil {
		return Reply{}, err
	}
	settings, err := s.configs.Config(ctx, p.CompanyID, p.Plan)
	if err != nil {
		return Reply{}, err
	}
	if !bot {
		lang := settings.Language
		if lang == widget.LanguageAuto {
			l, _ := assistant.DetectLanguage(in.message)
			lang = string(l)
		}
		found := contact.ExtractIn(in.message, lang)
		in.text = Contact{FirstName: found.FirstName, LastName: found.LastName, Email: found.Email,
			Phone: found.Phone, PhoneE164: found.PhoneE164}
		in.correction = found.Correction
	}
	profile, err := s.profile(ctx, p.CompanyID)
	if err != nil {
		return Reply{}, err
	}
	var last *asked
	for attempt := 1; ; attempt++ {
		r, err := s.turn(ctx, p, in, settings, profile, &last)
		if errs.Is(err, errs.Conflict) && attempt < turnAttempts {
			continue
		}
		r.BotDropped = bot
		return r, err
	}
}

// asked is the answer an attempt at a turn got, kept for the next attempt of the same turn.
type asked struct {
	turn   assistant.Turn
	answer assistant.Answer
	use    ModelUse
}

// turn is one attempt at a turn: read, answer, write. last is the answer an earlier attempt
// got; it is reused when this attempt would show the assistant exactly the same turn, so a
// turn that lost a race asks the model (and spends the company's budget) once.
func (s *Service) turn(ctx context.Context, p auth.Principal, in input, settings widget.Config, profile companyProfile, last **asked) (Reply, error) {
	st, err := s.store.ReadTurn(ctx, p.CompanyID, in.sessionID, in.messageID)
	if err != nil {
		return Reply{}, err
	}
	cur := st.Session
	if a := st.Answered; a != nil {
		return Reply{Text: a.Reply, LeadID: cur.LeadID, SessionID: cur.ID, RequestContact: a.RequestContact,
			Language: language(settings.Language, cur.Language, ""), Replayed: true, ByAgent: a.ByAgent}, nil
	}
	held := cur.Agent != nil
	if cutoff := s.now().Add(-AgentWait); held && cur.WaitingSince != nil && !cur.WaitingSince.After(cutoff) {
		// The person did not answer in time: the assistant takes the conversation back (and
		// says so) before it answers this message, which is then read again.
		if _, err := s.store.ResumeWaiting(ctx, cutoff, &p.CompanyID, cur.ID, ResumeText); err != nil {
			return Reply{}, err
		}
		return Reply{}, errs.E(errs.Conflict, errs.CodeSessionBusy)
	}
	if cur.VisitorMessages >= limits.SessionMessages {
		return Reply{}, errs.E(errs.RateLimited, errs.CodeSessionLimit)
	}
	next := cur
	next.VisitorMessages++
	next.Language = language(settings.Language, cur.Language, in.message)
	form := in.form
	if form.FirstName != "" {
		// The form has one name field; the lead keeps given and family name apart.
		form.FirstName, form.LastName = contact.SplitName(form.FirstName, next.Language)
	}
	var captured Contact
	next.Contact, captured = merge(cur.Contact, form, in.text, in.correction)
	if next.ReferralData == nil {
		next.ReferralData = in.referral
	}

	complete := next.Contact.Complete(settings.RequirePhone)
	intent := assistant.DetectIntent(in.message)
	wants := intent.Buying || intent.Price || intent.Quote || intent.Callback
	requestContact := !complete && (wants || next.VisitorMessages >= 2)
	t := assistant.Turn{
		Language: assistant.Language(next.Language), Profile: profile.Profile, Index: profile.index, QuickButtons: settings.QuickButtons,
		GateQuote: settings.GateQuote, RequirePhone: settings.RequirePhone, Message: in.message, Intent: &intent,
		History: st.History, Known: known(next.Contact), Captured: asContact(captured, next.Language),
		Missing: next.Contact.Missing(settings.RequirePhone), ContactComplete: complete,
		RequestContact: requestContact,
	}
	if settings.ContactPrompt != nil {
		t.ContactPrompt = *settings.ContactPrompt
	}
	var answer assistant.Answer
	var use ModelUse
	if held {
		// A person answers; the assistant neither replies nor asks for contact meanwhile.
		requestContact = false
	} else if a := *last; a != nil && reflect.DeepEqual(a.turn, t) {
		answer, use = a.answer, a.use
	} else {
		if answer, use, err = s.answer(ctx, p, t); err != nil {
			return Reply{}, err
		}
		*last = &asked{turn: t, answer: answer, use: use}
	}
	// A question the profile does not answer goes to a colleague, who needs the details.
	if answer.Handover && !complete {
		requestContact = true
	}
	// A detail a model proposes counts only if the visitor wrote it, and only fills a gap.
	var proposed Contact
	var checked Contact
	if answer.Proposed != (assistant.Contact{}) {
		checked = verified(answer.Proposed, visitorTexts(st.History, in.message))
	}
	if checked.FirstName != "" {
		checked.FirstName, checked.LastName = contact.SplitName(checked.FirstName, next.Language)
	}
	next.Contact, proposed = merge(next.Contact, Contact{}, checked, false)
	// What the visitor asks about, for the salesperson who calls back.
	if svc, ok := profile.index.ServiceFor(in.message); ok {
		next.Service = svc
	}
	next.Summary = cur.Summary.add(in.message, intent, answer.Handover, next.Contact)
	next.Note = next.Summary.Note(next.Service, next.Language)

	w := Write{Session: next, Message: in.message, MessageID: in.messageID, HandedOver: answer.Handover,
		Answered: Answered{Reply: answer.Text, RequestContact: requestContact, ByAgent: held}, Limit: p.LeadLimit}
	w.NewLead, w.Changes = leadWrite(cur, next, form, proposed)
	if w.NewLead != nil {
		id := w.NewLead.ID
		w.Session.LeadID = &id
	}
	withConsent(&w, in.consent)
	created, err := s.store.SaveTurn(ctx, p.CompanyID, w)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: answer.Text, LeadID: w.Session.LeadID, SessionID: next.ID, RequestContact: requestContact,
		Language: next.Language, NewLead: created, Model: use, ByAgent: held}, nil
}

// answer asks the model when one is configured and today's budget allows, else the built-in
// assistant.
func (s *Service) answer(ctx context.Context, p auth.Principal, t assistant.Turn) (assistant.Answer, ModelUse, error) {
	var use ModelUse
	if s.model != nil {
		var budget *int
		if b, ok := p.Plan.ModelBudget(); ok {
			budget = &b
		}
		ok, err := s.store.UseModelReply(ctx, p.CompanyID, budget)
		if err != nil {
			return assistant.Answer{}, use, err
		}
		if ok {
			start := time.Now()
			// The model gets a share of the request's time, so the turn can still be stored and
			// answered after a slow model and the built-in fallback.
			mctx, cancel := context.WithTimeout(ctx, MaxModelWait)
			defer cancel()
			a, err := s.model.Answer(mctx, t)
			use = ModelUse{Called: true, Took: time.Since(start), FellBack: a.FellBack}
			return a, use, err
		}
		use.BudgetSpent = true
	}
	a, err := s.builtin.Answer(ctx, t)
	return a, use, err
}

// visitorTexts are the visitor's own messages of the turn: the history's and the new one.
func visitorTexts(history []assistant.Message, message string) []string {
	out := []string{message}
	for _, m := range history {
		if m.Visitor {
			out = append(out, m.Text)
		}
	}
	return out
}

func (s *Service) profile(ctx context.Context, companyID uuid.UUID) (companyProfile, error) {
	return s.profiles.Get(ctx, companyID, func(ctx context.Context) (companyProfile, error) {
		raw, err := s.store.AssistantProfile(ctx, companyID)
		if err != nil || raw == nil {
			return companyProfile{index: assistant.NewIndex(assistant.Profile{})}, err
		}
		var p assistant.Profile
		if err := json.Unmarshal(raw, &p); err != nil {
			return companyProfile{}, fmt.Errorf("company %s assistant profile: %w", companyID, err)
		}
		return companyProfile{Profile: p, index: assistant.NewIndex(p)}, nil
	})
}

// language is the language a turn is answered in: the company's, or with auto the visitor's
// (that of the message, else that of the conversation so far, else Hungarian).
func language(setting, conversation, message string) string {
	if setting != widget.LanguageAuto {
		return setting
	}
	if l, sure := assistant.DetectLanguage(message); sure {
		return string(l)
	}
	if conversation != "" {
		return conversation
	}
	return string(assistant.Hungarian)
}

// asContact words a contact for the assistant, the name in the language's order: Hungarian
// puts the family name first ("Kovács Péter"), English last.
func asContact(c Contact, lang string) assistant.Contact {
	return assistant.Contact{Name: c.NameIn(lang), Email: c.Email, Phone: c.Phone}
}

// known tells the assistant which details are known, without their values.
func known(c Contact) assistant.Known {
	return assistant.Known{Name: c.Name() != "", Email: c.Email != "", Phone: c.Phone != ""}
}

// merge combines what was known with this message's details: a detail typed in the contact
// form always wins; one found in the text only fills a gap, unless the text says it corrects
// the earlier one. It returns the new contact and the details this message added or changed.
func merge(cur, form, text Contact, correction bool) (next, captured Contact) {
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
	if correction {
		fill = set
	}
	if form.FirstName != "" {
		if form.FirstName != cur.FirstName || form.LastName != cur.LastName {
			next.FirstName, next.LastName = form.FirstName, form.LastName
			captured.FirstName, captured.LastName = form.FirstName, form.LastName
		}
	} else if (cur.FirstName == "" || correction && text.Name() != cur.Name()) && text.FirstName != "" {
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
	} else if (cur.Phone == "" || correction && text.PhoneE164 != cur.PhoneE164) && text.Phone != "" {
		next.Phone, next.PhoneE164 = text.Phone, text.PhoneE164
		captured.Phone, captured.PhoneE164 = text.Phone, text.PhoneE164
	}
	return next, captured
}

// withConsent puts the consent a turn sent on its lead: on the lead it creates, or as a change of
// the lead the session already has. A turn that leaves the session without a lead has no one to
// hold the consent, and it is not kept: the widget sends it with the contact details, which make
// the lead.
func withConsent(w *Write, c *lead.Consent) {
	switch {
	case c == nil:
	case w.NewLead != nil:
		w.NewLead.Consent = c
	case w.Session.LeadID != nil:
		v, _ := json.Marshal(c) // a struct of strings, a bool and a time: encoding cannot fail
		w.Changes = append(w.Changes, lead.Change{Field: lead.FieldConsent, Value: string(v), Origin: lead.OriginForm})
		w.Consent = c
	}
}

// leadWrite is what a turn writes to the session's lead: the lead to create once an email or
// phone is known, or the changes of its details after, each with where it came from (the
// form, the model's checked proposal, else the message's text).
func leadWrite(cur, nextSession Session, form, proposed Contact) (*lead.Lead, []lead.Change) {
	next := nextSession.Contact
	if !next.Reachable() {
		return nil, nil
	}
	if cur.LeadID == nil {
		return &lead.Lead{
			ID: lead.NewID(), FirstName: next.FirstName, LastName: next.LastName, Email: next.Email,
			Phone: next.Phone, PhoneE164: next.PhoneE164, Service: nextSession.Service, Note: nextSession.Note,
			Unanswered: nextSession.Summary.Unanswered, Source: lead.SourceChat, ReferralData: nextSession.ReferralData,
		}, nil
	}
	var changes []lead.Change
	add := func(f lead.Field, old, v, fromForm, fromModel string) {
		if old == v {
			return
		}
		origin := lead.OriginText
		switch {
		case fromForm != "":
			origin = lead.OriginForm
		case fromModel != "":
			origin = lead.OriginModel
		}
		changes = append(changes, lead.Change{Field: f, Value: v, Origin: origin})
	}
	was := cur.Contact
	add(lead.FieldFirstName, was.FirstName, next.FirstName, form.FirstName, proposed.FirstName)
	add(lead.FieldLastName, was.LastName, next.LastName, form.FirstName, proposed.LastName)
	add(lead.FieldEmail, was.Email, next.Email, form.Email, proposed.Email)
	add(lead.FieldPhone, was.Phone, next.Phone, form.Phone, proposed.Phone)
	add(lead.FieldService, cur.Service, nextSession.Service, "", "")
	add(lead.FieldNote, cur.Note, nextSession.Note, "", "")
	return nil, changes
}
