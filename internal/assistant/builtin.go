package assistant

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxReply bounds a reply, in characters, to what fits a chat bubble.
const maxReply = 600

// Builtin is the default assistant: deterministic, no network. It says only what the
// company's profile says, and never a price while the turn holds prices back.
type Builtin struct{}

var _ Assistant = Builtin{}

// Answer greets, confirms the contact details this message captured, answers from the profile
// and asks for exactly the missing details when the server wants them; it never fails.
func (Builtin) Answer(_ context.Context, t Turn) (Answer, error) {
	r := responder{t: t, tx: textsFor(t.Language), p: t.Profile, in: DetectIntent(t.Message),
		toks: tokens(t.Message), words: contentWords(t.Message)}
	if t.gated() {
		r.p = t.Profile.WithoutPrices()
	}
	return Answer{Text: r.reply()}, nil
}

// responder builds the reply to one turn.
type responder struct {
	t     Turn
	tx    texts
	p     Profile // the profile the reply may draw on: without prices while gated
	in    Intent
	toks  []string
	words []string
	// explained is set when the reply already says why contact details are needed.
	explained bool
}

func (r *responder) reply() string {
	t, tx := r.t, r.tx
	content := r.content()
	var head, tail []string
	if r.in.Greeting {
		if len(content) == 0 && t.Captured.isZero() {
			head = append(head, r.greeting())
		} else {
			head = append(head, tx.hello)
		}
	}
	if !t.Captured.isZero() {
		head = append(head, tx.confirm(t.Captured))
	}
	if r.in.Thanks && len(head) == 0 && len(content) == 0 {
		head = append(head, tx.welcome)
	}
	tail = append(tail, r.contactPart()...)
	if len(head)+len(content)+len(tail) == 0 {
		head = append(head, tx.noAnswer, r.buttonsHint(tx.askAbout))
	}
	fixed := strings.Join(append(head, tail...), " ")
	budget := maxReply - utf8.RuneCountInString(fixed) - 2
	text := strings.Join(append(head, append([]string{clip(strings.Join(content, " "), budget)}, tail...)...), " ")
	text = clip(tidy(text), maxReply)
	if t.gated() && ContainsPrice(text) {
		text = stripPrices(text) // a price in a visitor-given detail or label; never let it out
	}
	return text
}

// greeting introduces the assistant by the company's name and offers the quick buttons.
func (r *responder) greeting() string {
	g := r.tx.hello
	if r.p.CompanyName != "" {
		g = fmt.Sprintf(r.tx.greeting, r.tx.named(r.p.CompanyName))
	}
	return g + " " + r.tx.howHelp + " " + r.buttonsHint("")
}

// buttonsHint lists the quick buttons, or says otherwise what one may ask.
func (r *responder) buttonsHint(otherwise string) string {
	var labels []string
	for _, b := range r.t.QuickButtons {
		if b = strings.TrimSpace(b); b != "" && !(r.t.gated() && ContainsPrice(b)) {
			labels = append(labels, b)
		}
	}
	if len(labels) == 0 {
		return otherwise
	}
	return fmt.Sprintf(r.tx.chooseButtons, strings.Join(labels, ", "))
}

// content answers the question of the message from the profile, at most two answers.
func (r *responder) content() []string {
	t, tx, p, in := r.t, r.tx, r.p, r.in
	var parts []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && len(parts) < 2 {
			parts = append(parts, s)
		}
	}
	priceAsked := in.Price || in.Quote
	if priceAsked && t.gated() {
		add(tx.quoteGated)
		r.explained = true
	}
	if qa, ok := bestFAQ(p.FAQ, r.words, isButton(t.Message, t.QuickButtons)); ok {
		add(sentence(qa.Answer))
	}
	svc, named := bestService(p.Services, r.words)
	switch {
	case priceAsked && !t.gated():
		for _, s := range r.prices(svc, named) {
			add(s)
		}
	case named:
		add(r.service(svc))
	}
	if matchAny(r.toks, aboutPhrases, false) {
		add(r.or(p.Description, tx.noInfo))
	}
	if in.Services && !named {
		add(r.services())
	}
	if in.Hours {
		add(r.or(sentence(r.sprintf(tx.hours, p.OpeningHours)), tx.noHours))
	}
	if matchAny(r.toks, reachPhrases, false) && t.Captured.isZero() {
		add(r.or(r.reach(), tx.noInfo))
	}
	if in.Callback {
		add(tx.callback)
		r.explained = true
	}
	if in.Buying && len(parts) == 0 {
		add(tx.buying)
	}
	return parts
}

// prices answers a price question while prices may be stated.
func (r *responder) prices(svc Service, named bool) []string {
	tx := r.tx
	var out []string
	if r.t.GateQuote {
		out = append(out, tx.quoteFollows)
	} else if r.in.Quote && !r.in.Price {
		r.explained = true
		return []string{tx.quoteWelcome}
	}
	if named {
		if svc.Price == "" {
			return append(out, tx.noPrices)
		}
		return append(out, sentence(fmt.Sprintf(tx.servicePrice, tx.named(svc.Name), svc.Price)))
	}
	var items []string
	for _, s := range r.p.Services {
		if s.Price != "" {
			items = append(items, s.Name+": "+s.Price)
		}
	}
	if len(items) == 0 {
		return append(out, tx.noPrices)
	}
	return append(out, fmt.Sprintf(tx.prices, strings.Join(items, "; ")))
}

// service describes one service, with its price unless prices are held back.
func (r *responder) service(s Service) string {
	out := s.Name
	if s.Description != "" {
		out += ": " + s.Description
	}
	out = sentence(out)
	if s.Price != "" {
		out += " " + sentence(fmt.Sprintf(r.tx.servicePrice, r.tx.named(s.Name), s.Price))
	}
	return out
}

// services lists the services, with prices unless they are held back.
func (r *responder) services() string {
	var items []string
	for _, s := range r.p.Services {
		if s.Price != "" {
			s.Name += " (" + s.Price + ")"
		}
		items = append(items, s.Name)
	}
	if len(items) == 0 {
		return r.or(r.p.Description, r.tx.noInfo)
	}
	out := fmt.Sprintf(r.tx.services, strings.Join(items, ", "))
	if r.t.gated() {
		out += " " + r.tx.servicesGated
	}
	return out
}

// reach lists the company's own phone, email and address, those it gave.
func (r *responder) reach() string {
	var items []string
	for _, f := range [][2]string{{r.tx.phoneAt, r.p.Phone}, {r.tx.emailAt, r.p.Email}, {r.tx.addressAt, r.p.Address}} {
		if f[1] != "" {
			items = append(items, fmt.Sprintf(f[0], f[1]))
		}
	}
	if len(items) == 0 {
		return ""
	}
	return fmt.Sprintf(r.tx.reach, strings.Join(items, ", "))
}

// contactPart thanks for complete details, or asks for exactly the missing ones.
func (r *responder) contactPart() []string {
	t, tx := r.t, r.tx
	switch {
	case t.ContactComplete && !t.Captured.isZero() && t.GateQuote:
		return []string{tx.completeQuote}
	case t.ContactComplete && !t.Captured.isZero():
		return []string{tx.complete}
	case t.ContactComplete || len(t.Missing) == 0 || !t.RequestContact && t.Captured.isZero():
		return nil
	}
	fields := tx.fieldList(t.Missing)
	prompt := strings.TrimSpace(t.ContactPrompt)
	if t.gated() {
		prompt = stripPrices(prompt)
	}
	switch {
	case !t.Captured.isZero():
		return []string{fmt.Sprintf(tx.askAlso, fields)}
	case prompt != "":
		return []string{sentence(prompt), fmt.Sprintf(tx.askFor, fields)}
	case r.explained:
		return []string{fmt.Sprintf(tx.askBecause, fields)}
	}
	return []string{fmt.Sprintf(tx.ask, fields)}
}

// or returns s, or otherwise when s is empty.
func (r *responder) or(s, otherwise string) string {
	if strings.TrimSpace(s) == "" {
		return otherwise
	}
	return s
}

// sprintf formats a template around a value, or returns "" when the value is empty.
func (r *responder) sprintf(format, value string) string {
	if strings.TrimSpace(value) == "" {
		return ""
	}
	return fmt.Sprintf(format, value)
}
