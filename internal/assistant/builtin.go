package assistant

import (
	"context"
	"fmt"
	"slices"
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
	r := responder{t: t, tx: textsFor(t.Language), p: t.Profile, toks: tokens(t.Message)}
	if t.Intent != nil {
		r.in = *t.Intent
	} else {
		r.in = intentOf(r.toks)
	}
	r.x = t.Index
	if r.x == nil {
		r.x = NewIndex(t.Profile)
	}
	r.facts = r.x.facts
	if t.gated() {
		r.p = t.Profile.WithoutPrices()
	}
	text := r.reply()
	return Answer{Text: text, Handover: r.handover}, nil
}

// responder builds the reply to one turn.
type responder struct {
	t     Turn
	tx    texts
	p     Profile // the profile the reply may draw on: without prices while gated
	in    Intent
	toks  []string
	x     *Index
	facts []fact // of the whole profile; rendered without prices while gated
	// explained is set when the reply already says why contact details are needed.
	explained bool
	// handover is set when the profile does not answer the question and a colleague will.
	handover bool
	// whenHours is set when a question of when to reach the company is answered by the hours.
	whenHours bool
	// lengthAsked is set when the question asks how long something lasts.
	lengthAsked bool
	// relativeAsked is set when the question asks a price relative to another, which a
	// percentage, a surcharge or a discount answers (query.relative).
	relativeAsked bool
}

// handOver hands the question to a colleague, unless the message carried contact details,
// which the reply then confirms instead (see reply).
func (r *responder) handOver() {
	if r.t.Captured.isZero() {
		r.handover = true
	}
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
	if r.handover && len(content) == 0 {
		head = append(head, tx.handover)
	} else if r.handover {
		content = append(content, tx.handoverRest)
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

// speaks reports whether a company's own text (a quick button's label, its contact prompt)
// may stand in this turn's reply: in an English reply only if it is not Hungarian.
func (r *responder) speaks(text string) bool {
	if r.t.Language != English {
		return true
	}
	l, sure := DetectLanguage(text)
	return !sure || l != Hungarian
}

// buttonsHint lists the quick buttons, or says otherwise what one may ask.
func (r *responder) buttonsHint(otherwise string) string {
	var labels []string
	for _, b := range r.t.QuickButtons {
		if b = strings.TrimSpace(b); b != "" && !(r.t.gated() && ContainsPrice(b)) && r.speaks(b) {
			labels = append(labels, b)
		}
	}
	if len(labels) == 0 {
		return otherwise
	}
	return fmt.Sprintf(r.tx.chooseButtons, strings.Join(labels, ", "))
}

// minExplained is the least share of a question's topic words that the profile must use for
// the built-in assistant to answer it; below it the question goes to a colleague.
const (
	minKeyCover       = 0.6
	minExplainedNamed = 0.5
	minExplained      = 0.75
	minExplainedTwo   = 0.6

	// An English question's bar when it names an entry, measured on the tuning half.
	minExplainedNamedEnglish = 0.4
)

// content answers the question of the message from the profile, at most two answers. A
// question the profile does not answer is handed over to a colleague instead (r.handover):
// an unrelated fact stated in the company's name is worse than none.
func (r *responder) content() []string {
	t, tx, in := r.t, r.tx, r.in
	var parts []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && len(parts) < 2 && !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	q := newQuery(t.Message, t.Captured, r.facts).without(r.x.company, r.x.facts)
	priceAsked := q.asksPrice(in)
	r.lengthAsked = q.duration
	r.relativeAsked = q.relative
	ss := score(r.x, q)
	if q.onePart() && q.countsUnsaid(ss) {
		// "Hány kalória egy szelet Esterházy?": the number of a thing no fact says is in no
		// fact, though the rest of the question is in one. Of a question in two parts the
		// other part may still be answered (see answeredPart).
		r.handOver()
		return nil
	}
	// A price question is answered by a fact with a price, or handed over: the time a job
	// takes is no answer to what it costs.
	chosen := choose(ss, q, in, priceAsked && !t.gated())
	if !priceAsked && placeQuestion(ss, q, t.Message, r.toks) && (len(chosen) == 0 || chosen[0].kind == factAbout || chosen[0].kind == factAddress || !answers(ss, q, chosen)) {
		// "Debrecenben is dolgoztok?" of a profile that never names Debrecen: the entry that
		// says where the company works answers, and the visitor judges; not the address.
		if i := areaEntry(ss); i >= 0 {
			return []string{r.render(ss[i], false)}
		}
	}
	byHowMuch := false
	if !priceAsked && q.howMuch != 0 && !t.gated() {
		// "Reformer óra mennyi?": a bare "mennyi" of what a priced service's name alone names
		// asks what that service costs, not what an entry that mentions the word says. Its
		// name said, the rest of the question may describe it in words of the visitor's own
		// ("Van olyan zárbetétetek, amit nem lehet kifúrni? Mennyi?"): half of the question
		// explained is enough, as for an entry the question names.
		if len(chosen) == 0 || !chosen[0].priced() {
			if i := namedByHowMuch(ss, q, chosen); i >= 0 && !slices.ContainsFunc(chosen, func(c scored) bool { return sameFact(c.fact, ss[i].fact) }) {
				chosen, byHowMuch = ss[i:i+1], true
			}
		} else if len(chosen) > 1 && !answers(ss, q, chosen) {
			// So is it when chosen first, with an entry beside it that the two do not answer
			// the question with: "Havidíjas kertgondozást vállaltok? Mennyi?".
			if i := namedByHowMuch(ss, q, nil); i >= 0 && sameFact(ss[i].fact, chosen[0].fact) {
				chosen, byHowMuch = chosen[:1], true
			}
		}
	}
	// "Can you send an estimate?" asks for a quote, which an FAQ about getting one answers
	// though it states no price: "Hogyan kapok árajánlatot?". "Can you give me a price over the
	// phone?", "Telefonon megmondjátok az árat?": a yes-or-no question of whether the company
	// gives a price, which the FAQ that asks so answers though it states none.
	quoteAsked, pricingAsked := in.Quote && !in.Price && !q.price, q.asks == 0 && !t.gated()
	// What choose picks of the question taken as asking no price, for the two checks below:
	// worked out once, when one of them needs it.
	var unpriced []scored
	unpricedPick := func() []scored {
		if unpriced == nil {
			unpriced = choose(ss, q, in, false)
		}
		return unpriced
	}
	if priceAsked && (quoteAsked || pricingAsked) {
		if unpriced := unpricedPick(); len(unpriced) > 0 && unpriced[0].kind == factFAQ && unpriced[0].keyCover > 0 &&
			!unpriced[0].priced() && (quoteAsked && unpriced[0].quote || pricingAsked && unpriced[0].pricing) {
			chosen, priceAsked = unpriced, false
		}
	}
	if priceAsked && !t.gated() && len(chosen) > 0 && chosen[0].keyCover == 0 {
		// The entry the question names by its own words has no price; another that only
		// mentions them has one: "Mennyi a jogosítvány ára?" is no question about the automatic
		// course that says its licence holds for automatic cars only.
		if unpriced := unpricedPick(); len(unpriced) > 0 && named(unpriced[0].kind) && !unpriced[0].pricedFor(q) && unpriced[0].keyCover > 0 {
			r.handover = true
			return []string{tx.noPrices}
		}
		// The price of an entry whose name the question names, not of one that mentions the
		// words in what it says: "Ablakpucolás ára?" asks what the window cleaning costs, not
		// the deep clean that includes it.
		if i := namedPriced(ss); i >= 0 {
			chosen = ss[i : i+1]
		}
	}
	if len(chosen) > 0 {
		if i := includedNamed(ss, chosen[0], q); i >= 0 {
			chosen = ss[i : i+1] // what the pick includes by name is what is asked
		}
	}
	if len(chosen) > 0 && chosen[0].kind == factAbout && !q.where {
		// The description mentions all the company does. An entry with a name of its own that
		// says a phrase of the question as one ("automata autóra" for "automatic cars"), which
		// the description says only in scattered words, is what the question names: it answers
		// alone. When the description ranks first though an entry with a name of its own names
		// what is asked otherwise ("Do you teach on automatic cars?" of a driving school with an
		// automatic course), the evidence is split between the general text and the entry: a
		// colleague answers rather than the description standing in.
		if i := phraseOwner(ss, chosen[0], q); i >= 0 {
			chosen = ss[i : i+1]
		} else if slices.ContainsFunc(ss, func(s scored) bool { return named(s.kind) && s.keyCover > 0 && s.namesAHead(q) }) {
			r.handOver()
			return nil
		}
	}
	if len(chosen) > 0 && chosen[0].kind == factService && !priceAsked {
		// A service whose name and description hold more of the visitor's words ranks over the
		// FAQ the visitor asks in other words; the FAQ answers what its own question asks.
		if i := restatedFAQ(ss, q, chosen[0]); i >= 0 {
			chosen = ss[i : i+1]
		}
	}
	namedOther := func(s scored) bool { return s.keyCover >= minKeyCover && r.namedInstead(s, chosen[0], q, priceAsked) }
	if len(chosen) > 0 && named(chosen[0].kind) && chosen[0].keyCover == 0 && !q.where && q.onePart() && slices.ContainsFunc(ss, namedOther) {
		// Likewise an entry that matches only by what it says, no word of its name, while the
		// question names another that could give the kind of answer asked: "Will you repair
		// the wall after chasing the cables?" names the FAQ about the wall after chasing, not
		// the rewiring service whose description lists chasing and cables. The named entry
		// answers alone when it was chosen too; else a colleague does.
		if len(chosen) < 2 || !namedOther(chosen[1]) {
			r.handOver()
			return nil
		}
		chosen = chosen[1:2]
	}
	var two []scored
	if len(chosen) < 2 {
		// A message of two questions, each answered by itself, of which the whole message
		// found one answer: the other one too.
		two = r.twoQuestions(q)
		whole := len(chosen) == 1 && answers(ss, q, chosen)
		if len(two) == 2 && whole && slices.ContainsFunc(two, func(s scored) bool { return sameFact(s.fact, chosen[0].fact) }) {
			if !sameFact(two[0].fact, chosen[0].fact) {
				two[0], two[1] = two[1], two[0] // the whole message's answer first
			}
			chosen = two
		} else {
			two = nil
		}
	}
	if len(two) < 2 && len(q.terms) > 0 {
		// A whole answer may still leave one part unanswered: "Mennyi a szemvizsgálat, és kell
		// hozzá időpont?" of a profile that names the appointment but no eye test by that word is
		// no answer to the price asked. Then the part answered is given and a colleague tells the
		// price.
		whole := len(chosen) > 0 && answers(ss, q, chosen)
		if p, priced, ok := r.answeredPart(q, ss, whole); ok {
			// One part answered, the other a colleague's: "Mérőórát áthelyeztek? És mennyi a
			// kiszállás?" of a profile that says nothing of meters.
			r.handOver()
			return []string{r.render(p, priced)}
		}
	}
	if len(chosen) == 0 && priceAsked && !t.gated() && len(q.terms) > 0 && len(choose(ss, q, in, false)) > 0 {
		r.handover = true
		return []string{tx.noPrices}
	}
	if in.Hours && strings.TrimSpace(r.p.OpeningHours) == "" && !chose(chosen, factFAQ) {
		r.handover = true
		return []string{tx.noHours}
	}
	if q.where && len(two) < 2 && r.p.Address != "" && (len(chosen) == 0 || chosen[0].kind == factAbout) && !whereToDo(ss, q, chosen) {
		// "Hol van a műhely?": the description says what the workshop is, the address where.
		chosen = nil
		for _, s := range ss {
			if s.kind == factAddress {
				chosen = []scored{s}
			}
		}
	}
	// "Mikor vagytok elérhetők?": when one can reach the company is its opening hours. "Lehet
	// jönni 7-kor?", "Mettől meddig vagytok nyitva?": a question of coming at a time of day, or
	// of the hours, that names nothing but times is the opening hours' to answer when no entry does.
	reach := q.when && len(chosen) > 0 && (chosen[0].kind == factPhone || chosen[0].kind == factEmail || chosen[0].kind == factAddress)
	// "Éjjel kettőkor is ki tudtok jönni?": coming at a time of day, asked in words of times
	// only, is the hours' too when the entry chosen asks about something more of those times
	// (what the night costs), which the visitor did not name.
	// Facts of a message of two questions (two) were scored against each part's query, whose
	// words are not the whole message's: answers and keyCover are read of the whole only.
	clockOnly := q.clock && !priceAsked && len(two) < 2 && len(chosen) > 0 && chosen[0].keyCover < 1
	if r.p.OpeningHours != "" && (reach || q.untilOnDay() || (q.clock || in.Hours) && (clockOnly || len(two) < 2 && !answers(ss, q, chosen)) && q.ofTimeOnly()) {
		if i := slices.IndexFunc(ss, func(s scored) bool { return s.kind == factHours }); i >= 0 {
			chosen, r.whenHours = ss[i:i+1], true
		}
	}
	if len(q.terms) > 0 && len(two) < 2 && !answers(ss, q, chosen) && !(q.where && chose(chosen, factAddress)) && !r.whenHours &&
		!(byHowMuch && explained(chosen, ss, q) >= minExplainedNamed) {
		r.handOver()
		return nil
	}
	if priceAsked && t.gated() {
		add(tx.quoteGated)
		r.explained = true
	} else if priceAsked && t.GateQuote {
		add(tx.quoteFollows)
	}
	if len(chosen) == 1 && chosen[0].kind == factHours && q.clock {
		// "Lehet jönni 7-kor?" of a company open 9 to 17 every day it opens: no, not then.
		if open, known := openAt(r.local(r.p.OpeningHours, r.p.OpeningHoursEN), r.toks); known && open {
			add(tx.openThen)
		} else if known {
			add(tx.closedThen)
		}
	}
	for i, f := range chosen {
		add(r.render(f, priceAsked && (i == 0 || f.priced())))
	}
	if r.handover {
		return parts
	}
	if len(chosen) == 0 {
		switch {
		case priceAsked && !t.gated() && in.Quote && !in.Price:
			r.explained = true
			add(tx.quoteWelcome)
		case priceAsked && !t.gated():
			add(r.priceList())
		}
	}
	if matchAny(r.toks, aboutPhrases, false) && !chose(chosen, factAbout) {
		add(r.or(r.local(r.p.Description, r.p.DescriptionEN), tx.noInfo))
	}
	if in.Services && !chose(chosen, factService) {
		add(r.services())
	}
	if in.Hours && !chose(chosen, factHours) {
		add(r.or(sentence(r.sprintf(tx.hours, r.local(r.p.OpeningHours, r.p.OpeningHoursEN))), tx.noHours))
	}
	if matchAny(r.toks, reachPhrases, false) && t.Captured.isZero() {
		add(r.or(r.reach(), tx.noInfo))
	} else if q.where && len(chosen) < 2 && !chose(chosen, factAddress) && !chose(chosen, factAbout) && r.p.Address != "" {
		add(sentence(fmt.Sprintf(tx.addressIs, r.p.Address)))
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

// restatedFAQ returns the FAQ whose own question the message restates, or -1: it names every
// key word of the FAQ, more of it than of the service chosen, and asks with the same question
// words: "Mit kell vinnem, ha pótolni kell a jogosítványt?" asks "Mi kell a jogosítvány
// pótlásához?", not what the licence replacement service is.
func restatedFAQ(ss []scored, q query, service scored) int {
	for i, s := range ss {
		if askedAlike(s, q) && s.keyCover >= 1 && s.keyCover > service.keyCover && s.namesAHead(q) {
			return i
		}
	}
	return -1
}

// whereToDo reports whether a where-question asks where one can do something, by a verb of
// the question's own, that the address does not answer: a verb no fact says ("Hol tudok
// megállni kocsival?", "hol tudnánk együtt aludni?"), or one the description, chosen first,
// says itself ("Parkolni hol lehet?" of a description that says "a szalon előtti utcában
// ingyenes parkolás van"): the description's words say where. The company's address answers
// where the company is ("Hol van a műhely?"), not where a visitor may park or sleep, which the
// profile says elsewhere or not at all.
func whereToDo(ss []scored, q query, chosen []scored) bool {
	described := len(chosen) > 0 && chosen[0].kind == factAbout
	for j := range q.terms {
		qt := &q.terms[j]
		if qt.weight < 1 || qt.mine || !verbal(&qt.term) && !infinitive(qt.fold) {
			continue
		}
		if !usesWord(ss, j) || described && chosen[0].hit[j] >= bodyWeight*sameIdea {
			return true
		}
	}
	return false
}

// twoQuestions answers a message of two questions, two clauses or two parts joined by "és",
// each by itself: the fact that answers each, or nil unless both are answered, by different
// facts. A part that names no topic of its own asks about the other's ("Mennyi a festés és
// meddig tart?": how long the colouring takes).
func (r *responder) twoQuestions(whole query) []scored {
	parts := questionParts(r.t.Message)
	if len(parts) != 2 {
		return nil
	}
	var qs [2]query
	for i, p := range parts {
		qs[i] = queryIn(p, whole.english, r.facts, whole.terms).without(r.x.company, r.x.facts)
	}
	if qs[0].namesTopic() == qs[1].namesTopic() {
		return nil // two topics of their own are the whole message's to weigh
	}
	var out []scored
	for i, q := range qs {
		in := DetectIntent(parts[i])
		if !q.namesTopic() {
			if !q.duration && !q.when && !q.where && !in.Price && !in.Hours {
				return nil // the part asks nothing of its own: "... és ti?"
			}
			for _, t := range qs[1-i].terms {
				if t.weight >= 1 {
					q.terms = append(q.terms, t)
				}
			}
		}
		if !q.topical() {
			return nil
		}
		ss := score(r.x, q)
		chosen := choose(ss, q, in, q.asksPrice(in) && !r.t.gated())
		if !answers(ss, q, chosen) || len(out) > 0 && sameFact(out[0].fact, chosen[0].fact) {
			return nil
		}
		out = append(out, chosen[0])
	}
	return out
}

// answeredPart answers a message of two parts, each with a topic of its own, of which the
// profile answers one by itself and says nothing of the other: no fact uses a topic word of
// it. It returns the fact that answers the one part and whether that part asks a price; the
// other part is a colleague's. A part the profile mentions but does not answer well is no
// sign that the other was understood: then ok is false and the whole is handed over. With
// priceOnly (the whole message found an answer) the part no fact says must ask a price: a
// part of another kind left unsaid ("Messze van a parkoló?") leaves the whole answer standing.
func (r *responder) answeredPart(whole query, ss []scored, priceOnly bool) (answer scored, priced, ok bool) {
	// The whole message's words tell first, without scoring its parts again, whether it has
	// two parts with topics, of which the facts use the words of one only.
	a, b := -1, -1               // the parts with topic words
	usedA, usedB := false, false // whether a fact uses a topic word of each
	for j, qt := range whole.terms {
		if qt.weight < 1 {
			continue
		}
		used := usesWord(ss, j)
		switch {
		case a < 0 || qt.part == a:
			a, usedA = qt.part, usedA || used
		case b < 0 || qt.part == b:
			b, usedB = qt.part, usedB || used
		default:
			return scored{}, false, false // three parts
		}
	}
	if b < 0 || usedA == usedB {
		return scored{}, false, false
	}
	if !twoAsked(r.t.Message, r.toks) {
		return scored{}, false, false
	}
	parts := questionParts(r.t.Message)
	if len(parts) != 2 {
		return scored{}, false, false
	}
	found := -1
	for i, p := range parts {
		q := queryIn(p, whole.english, r.facts, whole.terms).without(r.x.company, r.x.facts)
		if !q.namesTopic() || !q.topical() {
			return scored{}, false, false // a part of no topic of its own: twoQuestions
		}
		ss := score(r.x, q)
		if unused(ss, q) {
			if priceOnly && q.howMuch == 0 && !q.asksPrice(DetectIntent(p)) {
				return scored{}, false, false // the whole message's answer stands
			}
			continue
		}
		in := DetectIntent(p)
		asks := q.asksPrice(in)
		if asks && r.t.gated() {
			return scored{}, false, false // the held-back price is the whole message's to explain
		}
		chosen := choose(ss, q, in, asks)
		if found >= 0 || len(chosen) == 0 || !answers(ss, q, chosen[:1]) {
			return scored{}, false, false
		}
		// The part's answer must stand alone: another fact the part could have chosen about as
		// well ("Do you do laundry": two services say "tisztítás") means the words found are
		// not what the part asks.
		rest := slices.DeleteFunc(slices.Clone(ss), func(s scored) bool { return sameFact(s.fact, chosen[0].fact) })
		if next := choose(rest, q, in, asks); len(next) > 0 && rank(next[0]) >= rank(chosen[0])*(1-nearTie) {
			return scored{}, false, false
		}
		found, answer, priced = i, chosen[0], asks
	}
	return answer, priced, found >= 0
}

// phraseOwner returns the best-ranked entry with a name of its own, named by the question,
// that says a phrase of the question the description (about) does not, or -1.
func phraseOwner(ss []scored, about scored, q query) int {
	best := -1
	for i, s := range ss {
		if named(s.kind) && s.keyCover > 0 && s.phrase&^about.phrase != 0 && s.namesAHead(q) && (best < 0 || rank(s) > rank(ss[best])) {
			best = i
		}
	}
	return best
}

// rank is how well a fact matched the query's words, as choose first ranks it.
func rank(s scored) float64 {
	r := 0.0
	for _, c := range s.contrib {
		r += c
	}
	return r
}

// twoAsked reports whether a message asks two things: a question mark before its end, or a
// coordinating conjunction ("és", "and") among its folded words toks. A clause set off by a
// comma alone tells when or why ("Van gyerekmegőrző, amíg festenek?"), not a second question.
func twoAsked(message string, toks []string) bool {
	if strings.Contains(strings.TrimRight(strings.TrimSpace(message), "?!. "), "?") {
		return true
	}
	return slices.ContainsFunc(toks, func(t string) bool { return coordinators[t] })
}

// unused reports whether no fact uses any topic word of the query (usesWord).
func unused(ss []scored, q query) bool {
	for j, qt := range q.terms {
		if qt.weight >= 1 && usesWord(ss, j) {
			return false
		}
	}
	return true
}

// countsUnsaid reports whether the query asks the number of a thing ("hány X", "how many X")
// that no fact says, as a word of its own or of one idea with it.
func (q query) countsUnsaid(ss []scored) bool {
	for j, qt := range q.terms {
		if qt.counted && qt.weight >= 1 && !usesWord(ss, j) {
			return true
		}
	}
	return false
}

// usesWord reports whether a fact uses the query's word j, as a word of its own or of one idea
// with it.
func usesWord(ss []scored, j int) bool {
	return slices.ContainsFunc(ss, func(s scored) bool { return s.hit[j] >= bodyWeight*sameIdea })
}

// namesTopic reports whether the query names a topic beyond the kind of answer it asks for
// ("meddig": how long).
func (q query) namesTopic() bool {
	return slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.weight >= 1 && !durationWords[t.fold] })
}

// answers reports whether the chosen facts answer the question: the profile uses enough of
// its topic words, or a little less when the first fact matches two of them by itself, as in
// "Nem hűt a klíma, mennyi a klímatöltés?".
func answers(ss []scored, q query, chosen []scored) bool {
	if len(chosen) == 0 {
		return false
	}
	for j, qt := range q.terms {
		if qt.proper && !slices.ContainsFunc(ss, func(s scored) bool { return s.hit[j] > 0 }) {
			return false // "Facebook hirdetéseket kezeltek?" of a profile that never names Facebook
		}
		if qt.concepts != 0 && qt.weight >= 1 && !slices.ContainsFunc(ss, func(s scored) bool { return s.hit[j] >= bodyWeight*sameIdea }) {
			// An everyday topic no entry mentions: "Lehet részletre fizetni?" of a profile that
			// names ways to pay but no instalments.
			return false
		}
	}
	if !keyOfHeadless(chosen[0], q) || chosen[0].minorOnly() || commonOnly(ss, q, chosen) {
		return false
	}
	e := explained(chosen, ss, q)
	strong := 0
	for j, ok := range chosen[0].strongAt {
		if ok && q.terms[j].weight >= 1 && chosen[0].minor&partBit(j) == 0 {
			strong++
		}
	}
	// A question that names most of an entry's own words (its FAQ question, its service name) is
	// about that entry even when it adds words of its own: "Hányszor kell jönni gyökérkezelésre?".
	named := chosen[0].keyCover >= minKeyCover && e >= minExplainedNamed
	if q.english {
		// The lexicon lacks more of a visitor's English words than the dictionary lacks of
		// Hungarian ones, so an English question that names an entry leaves more words
		// unmatched for what they are.
		named = chosen[0].keyCover >= minKeyCover && e >= minExplainedNamedEnglish
		// So does one that says two neighbouring words of the question as one phrase, one of
		// them in its name: "automatic cars" of "Automata váltós képzés", whose text says
		// "automata autóra".
		named = named || chosen[0].keyCover > 0 && chosen[0].phrase != 0 && e >= minExplainedNamedEnglish
	}
	if chosen[0].kind == factAbout {
		// The description mentions all the company does: two words of a question found in it
		// are no sign that it answers the question ("Can I practise with my own car?" of a
		// driving school whose description names practised instructors and cars).
		return e >= minExplained
	}
	return e >= minExplained || e >= minExplainedTwo && strong >= 2 || named || asksLast(ss, q, chosen) || restates(ss, q, chosen[0])
}

// restates reports whether a question of no topic word of its own, only generic ones ("jön",
// "lenni"), is an FAQ's question said in fewer words: each of its words that the profile says
// at all is said by that FAQ's question, and by no other entry's name or question. "Hányan
// jöttök?" of a profile that asks "Hány fővel jöttök?" asks that, though "jön" alone explains
// nothing (see explained): no other entry could be meant, and nothing else is asked. It must
// ask the same kind of question, by the same question words or by none.
func restates(ss []scored, q query, f scored) bool {
	if f.kind != factFAQ || q.asks != asksOf(f, q) || q.where || q.when || q.duration || q.price || q.howMuch != 0 {
		return false // "Hányan dolgoztok?" is no "Pécsen kívül is dolgoztok?"
	}
	said := false
	for j, qt := range q.terms {
		if qt.weight >= 1 || qt.proper {
			return false
		}
		if !usesWord(ss, j) {
			continue // a generic word the profile lacks, or has only as a part ("tudtok"), asks nothing of it
		}
		if !f.strongAt[j] || f.hit[j] < keyWeight*sameWord {
			return false
		}
		if slices.ContainsFunc(ss, func(s scored) bool { return named(s.kind) && !sameFact(s.fact, f.fact) && s.strongAt[j] }) {
			return false
		}
		said = true
	}
	return said
}

// keyOfHeadless reports whether the fact names each word of the query that qualified the
// company's trade word by a word of its own name (an FAQ's question, a service's name) or by a
// word of what it says, more closely than as a part of a compound or a related idea: of a
// cleaning company, "How much is sofa cleaning?" is answered by the entry that names sofas,
// but "How much is a deep clean?" not by one whose description mentions a "mélytisztítás"
// (deep cleaning) of sofas. Without its head the qualifier is the whole of the question's
// topic, and a near match of it is no sign of the thing asked about.
func keyOfHeadless(s scored, q query) bool {
	for j := range q.terms {
		if q.terms[j].headless && s.hit[j] <= bodyWeight*sameIdea && !slices.ContainsFunc(s.keys, func(k term) bool { return match(&q.terms[j].term, &k) >= weakMatch }) {
			return false
		}
	}
	return true
}

// asksLast reports whether the chosen fact answers the message's last clause by itself, when
// that clause names its topic in two words or more and an earlier clause tells the visitor's
// situation: "Húz jobbra az autó, futóművet állítotok?" asks about wheel alignment, whatever
// words of the car's trouble the profile lacks.
func asksLast(ss []scored, q query, chosen []scored) bool {
	if len(q.terms) == 0 {
		return false
	}
	last := q.terms[len(q.terms)-1].clause
	if q.terms[0].clause == last {
		return false // one clause: explained judges it whole
	}
	topic, word := 0, -1
	for j, qt := range q.terms {
		if qt.clause != last || qt.weight < 1 {
			continue
		}
		if chosen[0].hit[j] < bodyWeight*sameIdea {
			return false
		}
		topic, word = topic+1, j
	}
	if topic == 1 {
		return namesAlone(ss, q, chosen[0], word)
	}
	inLast := func(j int) bool { return q.terms[j].clause == last }
	return topic >= 2 && explainedIn(chosen[:1], ss, q, inLast) >= minExplained
}

// namesAlone reports whether a question clause of one topic word, after a clause that tells
// the visitor's situation, asks about the fact f: f's own name holds the word and no other
// fact says it, and f also says a topic word of the situation. "I need a certificate for my
// insurance company, how much is the inspection?" asks about the inspection service, which
// names insurers, whatever words of the situation the profile lacks.
func namesAlone(ss []scored, q query, f scored, word int) bool {
	if !named(f.kind) || !keysName(f.keys, &q.terms[word].term) {
		return false
	}
	if slices.ContainsFunc(ss, func(s scored) bool { return !sameFact(s.fact, f.fact) && s.hit[word] >= bodyWeight*sameIdea }) {
		return false
	}
	for j, qt := range q.terms {
		if qt.clause != q.terms[word].clause && qt.weight >= 1 && f.hit[j] >= bodyWeight*sameIdea {
			return true
		}
	}
	return false
}

// keysName reports whether one of a fact's keys (the words of its name, an FAQ's question)
// matches the query word w as its idea or closer.
func keysName(keys []term, w *term) bool {
	return slices.ContainsFunc(keys, func(k term) bool { return match(w, &k) >= sameIdea })
}

// namedPriced returns the index of the priced entry whose name the question names most,
// enough of it to be about it (minKeyCover), or -1.
func namedPriced(ss []scored) int {
	best := -1
	for i, s := range ss {
		if named(s.kind) && s.priced() && s.keyCover >= minKeyCover && (best < 0 || s.keyCover > ss[best].keyCover) {
			best = i
		}
	}
	return best
}

// pricedOverFAQ returns the priced service to answer a price question first instead of the
// FAQ faq, or -1. "Mennyibe kerül egy hatha óra?": an FAQ that says the service's word in its
// answer, with a price of something else ("egy online alkalom 2 500 Ft"), is no answer when a
// priced service names that word and matches all the FAQ matches (namedOverFAQ), or ranks as
// high ("esküvői torta ára?" of the FAQ "Van tortakóstoló esküvő előtt?" and the service
// "Esküvői torta"): the price asked is the service's own.
func pricedOverFAQ(ss []scored, q query, faq scored) int {
	if i := namedOverFAQ(ss, q, faq); i >= 0 {
		return i
	}
	return slices.IndexFunc(ss, func(s scored) bool {
		return s.kind == factService && s.priced() && s.keyCover > 0 && rank(s) >= rank(faq)
	})
}

// namedOverFAQ returns the priced service that matches strongly every topic word the FAQ faq
// matches strongly and names by its own name a topic word that the FAQ's question does not;
// or -1.
func namedOverFAQ(ss []scored, q query, faq scored) int {
	for i, s := range ss {
		if s.kind != factService || !s.priced() || s.keyCover == 0 {
			continue
		}
		covers, more := true, false
		for j := range q.terms {
			if q.terms[j].weight < 1 {
				continue
			}
			covers = covers && (!faq.strongAt[j] || s.strongAt[j])
			more = more || keysName(s.keys, &q.terms[j].term) && !keysName(faq.keys, &q.terms[j].term)
		}
		if covers && more {
			return i
		}
	}
	return -1
}

// namedByHowMuch returns the priced service that a topic word of a bare "mennyi" part of the
// question names by a word of the service's name, as its idea, when no other entry's name holds
// that word and the service's name is more of what the question says than that of the fact
// chosen, or when the others that hold it have no price and its name is as much of it;
// or -1.
func namedByHowMuch(ss []scored, q query, chosen []scored) int {
	cover := 0.0
	if len(chosen) > 0 {
		cover = chosen[0].keyCover
	}
	found := -1
	for j := range q.terms {
		qt := &q.terms[j]
		if qt.weight < 1 || q.howMuch&partBit(qt.part) == 0 {
			continue
		}
		owner, priced := -1, -1
		for i, s := range ss {
			if !named(s.kind) || !keysName(s.keys, &qt.term) {
				continue
			}
			if s.kind == factService && s.priced() {
				if priced == -1 {
					priced = i
				} else {
					priced = -2 // two priced services: which one is meant is not said
				}
			}
			if owner == -1 {
				owner = i
			} else {
				owner = -2 // named by two entries: which one is meant is not said
			}
		}
		ahead := owner >= 0 && ss[owner].keyCover > cover
		if owner == -2 && priced >= 0 {
			// "Mennyi a reggeli?" of an FAQ and a priced service that both name it: what it
			// costs is the service's to say, named as much as the FAQ is.
			owner, ahead = priced, ss[priced].keyCover >= cover
		}
		if !ahead || !ss[owner].priced() || ss[owner].kind != factService {
			continue
		}
		if found >= 0 && found != owner {
			return -1
		}
		found = owner
	}
	return found
}

// namedInstead reports whether s, an entry with a name of its own other than first, names a
// head word of the question by its key and could give the kind of answer asked: a length for
// a how-long question, a price for a price question.
func (r *responder) namedInstead(s, first scored, q query, priceAsked bool) bool {
	return named(s.kind) && s.keyCover > 0 && s.namesAHeadAsItself(q) && !sameFact(s.fact, first.fact) &&
		(!q.duration || s.lasts(q)) && (!priceAsked || r.t.gated() || s.pricedFor(q))
}

// chose reports whether one of the chosen facts is of kind k.
func chose(fs []scored, k factKind) bool {
	return slices.ContainsFunc(fs, func(f scored) bool { return f.kind == k })
}

// render words one fact as part of the reply; a price question about a service without a
// price, or with prices held back, is handed over rather than answered with something else.
func (r *responder) render(f scored, priceAsked bool) string {
	tx, gated := r.tx, r.t.gated()
	clean := func(s string) string {
		if gated {
			return stripPrices(s)
		}
		return s
	}
	switch f.kind {
	case factFAQ:
		// No price check: an FAQ is worded for a price question only when it states the price
		// asked (pricedFor), as content and answeredPart take it from choose, which passes
		// over the others.
		return sentence(r.local(clean(f.faq.Answer), clean(f.faq.AnswerEN)))
	case factService:
		s := f.service
		if gated {
			s = Service{Name: stripPrices(s.Name), Description: stripPrices(s.Description),
				NameEN: stripPrices(s.NameEN), DescriptionEN: stripPrices(s.DescriptionEN)}
		}
		if priceAsked && !gated && r.relativeAsked && f.relativePrice {
			return r.service(s) // the surcharge or discount its description states, and its price
		}
		if priceAsked && !gated {
			if s.Price == "" {
				r.handover = true
				return tx.noPrices
			}
			if f.askedBody || r.lengthAsked && len(f.units) > 0 {
				// What it includes, or how long it lasts as its description says ("6 hetes
				// tanfolyam"), and its price.
				return r.service(s)
			}
			return sentence(fmt.Sprintf(tx.servicePrice, tx.named(r.name(s)), s.Price))
		}
		return r.service(s)
	case factHours:
		return sentence(fmt.Sprintf(tx.hours, r.local(clean(r.p.OpeningHours), clean(r.p.OpeningHoursEN))))
	case factAddress:
		return sentence(fmt.Sprintf(tx.addressIs, f.value))
	case factPhone:
		return sentence(fmt.Sprintf(tx.phoneIs, f.value))
	case factEmail:
		return sentence(fmt.Sprintf(tx.emailIs, f.value))
	}
	if f.kind == factAbout {
		return r.local(clean(r.p.Description), clean(r.p.DescriptionEN))
	}
	return clean(f.value)
}

// local is a profile text as the reply's language reads it: in an English reply its English
// version, or the Hungarian text quoted and marked as Hungarian, so that the reply's own words
// stay English; in a Hungarian reply the text itself.
func (r *responder) local(hu, en string) string {
	if r.t.Language != English {
		return hu
	}
	if en != "" {
		return en
	}
	if l, sure := DetectLanguage(hu); sure && l == Hungarian {
		return fmt.Sprintf(r.tx.inHungarian, strings.TrimSpace(hu))
	}
	return hu
}

// name is a service's name in the reply's language: its English name in an English reply
// when the profile gives one.
func (r *responder) name(s Service) string {
	if r.t.Language == English && s.NameEN != "" {
		return s.NameEN
	}
	return s.Name
}

// priceList lists the services' prices, or says that there are none to tell.
func (r *responder) priceList() string {
	var items []string
	for _, s := range r.p.Services {
		if s.Price != "" {
			items = append(items, r.name(s)+": "+s.Price)
		}
	}
	if len(items) == 0 {
		r.handover = true // a colleague tells the price the profile does not
		return r.tx.noPrices
	}
	return fmt.Sprintf(r.tx.prices, strings.Join(items, "; "))
}

// service describes one service, with its price unless prices are held back.
func (r *responder) service(s Service) string {
	out := r.name(s)
	if d := r.local(s.Description, s.DescriptionEN); d != "" {
		out += ": " + d
	}
	out = sentence(out)
	if s.Price != "" {
		out += " " + sentence(fmt.Sprintf(r.tx.servicePrice, r.tx.named(r.name(s)), s.Price))
	}
	return out
}

// services lists the services, with prices unless they are held back.
func (r *responder) services() string {
	var items []string
	for _, s := range r.p.Services {
		if s.Price != "" {
			s.Name = r.name(s) + " (" + s.Price + ")"
		} else {
			s.Name = r.name(s)
		}
		items = append(items, s.Name)
	}
	if len(items) == 0 {
		return r.or(r.local(r.p.Description, r.p.DescriptionEN), r.tx.noInfo)
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
	case r.handover && (t.ContactComplete || len(t.Missing) == 0):
		return []string{tx.handoverDone}
	case t.ContactComplete || len(t.Missing) == 0 || !t.RequestContact && t.Captured.isZero() && !r.handover:
		return nil
	}
	fields := tx.fieldList(t.Missing)
	prompt := strings.TrimSpace(t.ContactPrompt)
	if !r.speaks(prompt) {
		prompt = "" // the company's prompt in Hungarian has no place in an English reply
	}
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
	case r.handover:
		return []string{fmt.Sprintf(tx.askHandover, fields)}
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
