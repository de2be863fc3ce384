package assistant

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// factKind is which part of a profile a fact comes from.
type factKind int

const (
	factFAQ factKind = iota
	factService
	factHours
	factAddress
	factPhone
	factEmail
	factAbout
)

// fact is one thing a profile says that can answer a question: an FAQ answer, a service, the
// opening hours, the address, the phone, the email, the description. keys are the words that
// name it (an FAQ's question, a service's name, the words people use to ask for hours or an
// address), body the words of what it says; a question must share words with one or the other.
type fact struct {
	kind    factKind
	faq     QA
	service Service
	value   string // hours, address, phone, email or description
	keys    []term
	// joined holds each two neighbouring words of a service's name written as one, as a
	// visitor may write them: "Nagy szerviz" as "nagyszerviz". They match as keys.
	joined []term
	body   []term
	// places holds the function words of the fact's text that an English preposition may
	// match (see placeTerms), and nothing else does.
	places []term
	// price is set when the fact states a price: a service with one, or an FAQ answer that
	// names an amount.
	price bool
	// relativePrice is set when the fact states a price relative to another, a percentage or
	// a surcharge or discount (statesRelativePrice): the price a relative question asks.
	relativePrice bool
	// units are the units of time of the lengths the fact states (durationUnits): "4–6 hét"
	// says how long something takes in weeks.
	units []term
	// until is set when the fact states a date something lasts until ("március 31-ig"),
	// which answers "meddig" (until when) as a length does.
	until bool
	// ahead is set when the fact states how long before something is done ("6 héttel
	// előtte", "2 weeks in advance"): the length a lead-time question asks (see leadTime).
	ahead bool
	// area is set when the fact says where the company works (see states).
	area bool
	// clock is set when the fact states a time of day ("7:30 és 10 között", "14 órától"):
	// the opening hours, or an entry whose text says one.
	clock bool
	// quote is set for an FAQ whose question asks for a quote, pricing for one whose question
	// names a price ("Telefonon megmondjátok az árat?").
	quote, pricing bool
	// asks holds the kinds of question an FAQ's question asks (see interrogatives), in
	// Hungarian and in English.
	asks [2]uint64
}

// Weights of where a profile word stands.
const (
	keyWeight  = 1.0
	bodyWeight = 0.85
)

// Vocabulary that asks for the profile's fixed facts, in folded words, added to their keys.
var (
	hoursKeys   = "nyitvatartas nyitva nyitas zaras zarva hetvege szombat vasarnap opening open hours closed weekend"
	addressKeys = "cim iroda hol merre talal megtalal bemutatoterem address located location office where find"
	phoneKeys   = "telefon telefonszam szamon szamot hiv phone number call"
	emailKeys   = "email mail cim"
	aboutKeys   = "ceg cegunk foglalkoz bemutatkoz miota ota company business about since"
)

// Index is a profile made ready for answering: its facts with their words stemmed. Building it
// costs about as much as answering a few hundred questions with it, so a caller that answers
// many turns of one company keeps it with the profile (Turn.Index).
type Index struct {
	facts []fact
	// words is how many distinct words the facts hold (term.id runs below it).
	words int
	// company is the company's name as words.
	company []nameWord
	// cells keeps score's memo tables between turns (*[]uint64), which would otherwise be
	// most of what a turn allocates.
	cells sync.Pool
}

// NewIndex prepares p for answering.
func NewIndex(p Profile) *Index {
	fs := facts(p)
	return &Index{facts: fs, words: numberTerms(fs), company: nameWords(p.CompanyName, fs)}
}

// nameWord is a word of the company's name.
type nameWord struct {
	term
	// entries is set when a service's name or an FAQ's question uses the word, whole or as a
	// part: "költöztetés" of a "Költöztetés" firm with a service "Irodaköltöztetés". It is
	// matched as a question's word is, the name's word against the entry's.
	entries bool
	// kinds holds the words of the entries' names and questions that are the first part of
	// this compound name word, said as words of their own: "torta" of a "Tortaműhely" (cake
	// workshop) with a service "Esküvői torta". The name's last part says what the company
	// is (a workshop, a repairer); its first part, where entries name it alone, one kind of
	// what it offers.
	kinds []term
}

// nameWords returns the words of a company's name, marked where the facts' entries use them.
//
// A suspended part of the name is written out first, as a message's is (expandSuspended): in
// "Laptop- és Számítógépszerviz" the company is a "laptopszerviz", whose first part the
// entries may name as a kind of what it repairs, not a "laptop".
func nameWords(name string, fs []fact) []nameWord {
	var out []nameWord
	name, _ = expandSuspended(name)
	for _, n := range termsOf(name) {
		used := slices.ContainsFunc(fs, func(f fact) bool {
			return named(f.kind) && slices.ContainsFunc(f.keys, func(k term) bool { return match(&n, &k) >= compound })
		})
		var kinds []term
		if len(n.parts) >= 2 {
			for _, f := range fs {
				if !named(f.kind) {
					continue
				}
				for _, k := range f.keys {
					if k.lemmas[0] == n.parts[0] && match(&k, &n) < related &&
						!slices.ContainsFunc(kinds, func(o term) bool { return o.lemmas[0] == k.lemmas[0] }) {
						kinds = append(kinds, k)
					}
				}
			}
		}
		out = append(out, nameWord{term: n, entries: used, kinds: kinds})
	}
	return out
}

// numberTerms gives each distinct word of the facts an id, so that a query word is matched
// against each once, however many facts use it; it returns how many there are.
func numberTerms(fs []fact) int {
	ids := map[string]int32{}
	number := func(ts []term) {
		for i := range ts {
			id, ok := ids[ts[i].fold]
			if !ok {
				id = int32(len(ids))
				ids[ts[i].fold] = id
			}
			ts[i].id = id
		}
	}
	for i := range fs {
		number(fs[i].keys)
		number(fs[i].joined)
		number(fs[i].body)
		number(fs[i].places)
	}
	return len(ids)
}

// facts splits a profile into the facts an answer may draw on.
func facts(p Profile) []fact {
	var out []fact
	// Every text of the profile keeps the words its services' names use as content though
	// the fold makes them function words (contentNames).
	content := contentNames(p)
	hungarian := func(s string) []term { return textTerms(s, false, content) }
	english := func(s string) []term { return textTerms(s, true, content) }
	defer func() {
		for i := range out {
			f := &out[i]
			f.area = states(f)
			switch f.kind {
			case factFAQ:
				f.price = ContainsPrice(f.faq.Answer)
				f.relativePrice = statesRelativePrice(f.faq.Answer + " " + f.faq.AnswerEN)
				f.clock = clockText.MatchString(f.faq.Answer)
				in := DetectIntent(f.faq.Question)
				f.quote, f.pricing = in.Quote, in.Price
				f.units = append(durationUnits(f.faq.Answer), durationUnits(f.faq.AnswerEN)...)
				f.until = untilDate.MatchString(f.faq.Answer)
				f.ahead = statesLead(f.faq.Answer) || statesLead(f.faq.AnswerEN)
			case factService:
				f.price = f.service.Price != ""
				f.relativePrice = statesRelativePrice(f.service.Price + " " + f.service.Description)
				f.clock = clockText.MatchString(f.service.Description)
				f.units = append(durationUnits(f.service.Description), durationUnits(f.service.DescriptionEN)...)
				f.until = untilDate.MatchString(f.service.Description)
				f.ahead = statesLead(f.service.Description) || statesLead(f.service.DescriptionEN)
			case factHours:
				f.clock = true
			}
		}
	}()
	// English versions add their words, so that an English question finds them as such.
	for _, q := range p.FAQ {
		out = append(out, fact{kind: factFAQ, faq: q, keys: append(hungarian(q.Question), english(q.QuestionEN)...),
			body: append(hungarian(q.Answer), english(q.AnswerEN)...), places: placeTerms(q.Question + " " + q.Answer),
			asks: [2]uint64{interrogatives(q.Question), interrogatives(q.QuestionEN)}})
	}
	for _, s := range p.Services {
		out = append(out, fact{kind: factService, service: s, keys: append(hungarian(s.Name), english(s.NameEN)...),
			joined: joinedTerms(s.Name, content), body: append(hungarian(s.Description+" "+s.Price), english(s.DescriptionEN)...),
			places: placeTerms(s.Name + " " + s.Description)})
	}
	fixed := []struct {
		kind  factKind
		value string
		keys  string
	}{
		{factHours, p.OpeningHours, hoursKeys},
		{factAddress, p.Address, addressKeys},
		{factPhone, p.Phone, phoneKeys},
		{factEmail, p.Email, emailKeys},
		{factAbout, p.Description, aboutKeys},
	}
	for _, f := range fixed {
		if strings.TrimSpace(f.value) != "" {
			var body []term
			if f.kind != factPhone && f.kind != factEmail { // the words of an address like info@x.hu say nothing
				body = hungarian(f.value)
			}
			switch f.kind {
			case factAbout:
				body = append(body, hungarian(p.CompanyName)...)
				body = append(body, english(p.DescriptionEN)...)
			case factHours:
				body = append(body, english(p.OpeningHoursEN)...)
			}
			out = append(out, fact{kind: f.kind, value: f.value, keys: wholeWords(hungarian(f.keys)), body: body, places: placeTerms(f.value)})
		}
	}
	return out
}

// wholeWords makes the words of ts match as words, not by their compound parts or the parts'
// senses, and returns ts: the vocabulary of asking for a fixed fact ("vasárnap", Sunday, of
// the opening hours) names the fact, and its parts name nothing of it ("nap", day, of "Can
// you do it in one day?").
func wholeWords(ts []term) []term {
	for i := range ts {
		t := &ts[i]
		t.parts, t.partGloss, t.partMain = nil, nil, 0
		t.markGlossStarts()
	}
	return ts
}

// placeTerms returns the words of a Hungarian text that are function words an English
// preposition translates to (closedWords): "kívül", "belül", "közben", with their forms
// ("belülről"). They are no topic of the profile's own, and so no key and no word any other
// word of a question matches, but the point of an English question may be its preposition:
// "Do you work outside the city?" of an FAQ "A városon kívül is vállaltok munkát?".
func placeTerms(s string) []term {
	var out []term
	lang := morph.Load()
	for _, w := range words(s) {
		f := fold(w)
		if w == clauseBreak || !lang.FunctionOnly(f) || !translatesClosed(f) || slices.ContainsFunc(out, func(t term) bool { return t.fold == f }) {
			continue
		}
		out = append(out, makeTerm(w, false, true))
	}
	return out
}

// translatesClosed reports whether the folded Hungarian function word f is, or begins as, one
// that the lexicon gives for an English preposition (closedWords).
func translatesClosed(f string) bool {
	for _, h := range closedHungarian() {
		if f == h || len(h) >= minClosedStem && strings.HasPrefix(f, h) {
			return true
		}
	}
	return false
}

// minClosedStem is the least length of a preposition's Hungarian word that its longer forms
// begin with: "belül", "belülről"; "be" is the prefix of too many.
const minClosedStem = 4

// closedHungarian is the folded Hungarian function words the lexicon gives for the English
// prepositions of closedWords.
var closedHungarian = sync.OnceValue(func() []string {
	lang := morph.Load()
	var out []string
	for c := range closedWords {
		key, _ := lang.EnglishKey(c)
		for _, h := range lang.EnglishOf(c, key) {
			if lang.FunctionOnly(h) && !stopWords[h] && !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	slices.Sort(out)
	return out
})

// contentNames returns the folded words of the services' names that are function words only
// as spelled with accents the name does not write ("Hatha jóga": "hátha", if only): the name
// uses them as words of its own, which the profile's other texts and a visitor who writes
// them mean too. Nil when there are none, as in most profiles.
func contentNames(p Profile) map[string]bool {
	var out map[string]bool
	lang := morph.Load()
	for _, s := range p.Services {
		for _, w := range append(words(s.Name), words(s.NameEN)...) {
			if f := fold(w); w != clauseBreak && !stopWords[f] && lang.FoldedFunction(w) {
				if out == nil {
					out = map[string]bool{}
				}
				out[f] = true
			}
		}
	}
	return out
}

// termsOf is the distinct content words of a text as terms; a hyphenated word is also taken
// whole ("check-up" as "checkup").
func termsOf(s string) []term { return textTerms(s, false, nil) }

// textTerms is termsOf of a text in either language that keeps the words of content
// (contentNames) the fold makes function words.
func textTerms(s string, english bool, content map[string]bool) []term {
	var out []term
	ws := words(s)
	folded := make([]string, len(ws))
	for i, w := range ws {
		folded[i] = fold(w)
	}
	if !english {
		rejoinPrefixes(ws, folded, make([]bool, len(ws)))
	}
	written := len(ws) // the whole hyphenated words come after the text's own
	if !english {
		// "Fa- és cserjemetszés": the written parts stay, and "fametszés" is a word too.
		if _, made := expandSuspended(s); made != nil {
			for _, w := range made {
				ws = append(ws, strings.ToLower(w))
				folded = append(folded, fold(w))
			}
		}
	}
	for _, f := range strings.Fields(s) {
		if strings.Contains(f, "-") {
			if joined := words(strings.ReplaceAll(f, "-", "")); len(joined) > 0 && joined[0] != clauseBreak {
				ws = append(ws, joined[0])
				folded = append(folded, fold(joined[0]))
			}
		}
	}
	negated, either := negatedWords(folded)
	var per []string         // the words that a price counts by (see perUnit)
	at := map[string]int32{} // where a word's term is in out
	quantities := map[string]bool{}
	prev := int32(-1) // the content word before this one in its clause, by its place in out
	for i, w := range ws {
		f := folded[i]
		if w == clauseBreak || i >= written {
			prev = -1
		}
		if q := quantityAt(folded, i); q != "" && !quantities[q] {
			quantities[q] = true
			out = append(out, quantityTerm(q))
		}
		if sp := spanAt(folded, i); sp != "" && !quantities[sp] {
			quantities[sp] = true
			out = append(out, spanTerm(sp)) // "10 kg alatti": the range a visitor's quantity falls in
		}
		unit := unitAt(folded, i)
		if k, ok := at[f]; ok && unit != 0 {
			out[k].unit = unit // "óra ... 2 óra": the word is also a unit
		}
		short := utf8.RuneCountInString(f) < 2 && unit == 0 // "m" of "60 m²" is a unit
		if w == clauseBreak || isStop(w, f) && !content[f] || short || isNumber(f) || timeOfDay(folded, i) || lackAfter[f] {
			continue
		}
		k, ok := at[f]
		if !ok {
			k = int32(len(out))
			at[f] = k
			t := makeTerm(w, english, true)
			t.unit = unit
			t.trans = nil // a profile word is matched as it is
			t.negated = negated != nil && negated[i]
			t.eitherWay = either && t.negated
			t.verb = verbal(&t)
			t.per = perUnit(folded, i, written, per)
			if t.per && i < written {
				per = append(per, f)
			}
			out = append(out, t)
		}
		if prev >= 0 && prev != k && !slices.Contains(out[prev].follows, k) {
			out[prev].follows = append(out[prev].follows, k)
		}
		prev = k
	}
	return out
}

// joinedTerms returns the neighbouring content words of a Hungarian name written as one word.
func joinedTerms(s string, content map[string]bool) []term {
	var out []term
	ws := words(s)
	for i := 1; i < len(ws); i++ {
		a, b := fold(ws[i-1]), fold(ws[i])
		if ws[i-1] == clauseBreak || ws[i] == clauseBreak || isStop(ws[i-1], a) && !content[a] || isStop(ws[i], b) && !content[b] || isNumber(a) || isNumber(b) {
			continue
		}
		// Matched as a word, not by its parts or senses, which the name's own words carry.
		t := makeTerm(ws[i-1]+ws[i], false, false)
		t.trans, t.parts = nil, nil
		out = append(out, t)
	}
	return out
}

// stopLemma reports whether a Hungarian word of no concept is, by the dictionary's rules, an
// inflected form of a word that carries no topic: "valamit" of "valami" (something). A looser
// lemma is no sign: "SEO-t" is no "se".
func stopLemma(t *term) bool {
	return t.stemmed && !t.english && t.concepts == 0 && t.lemmas[0] != t.fold && morph.Load().Function(t.lemmas[0])
}

func isNumber(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// queryTerm is a word of the visitor's message with the weight it carries for the question's
// topic: generic words ("lehet", "tudtok", "csináltok") count less than the ones that name it.
type queryTerm struct {
	term
	weight float64
	// proper is set for a capitalised word that no dictionary knows: a name ("Facebook",
	// "Sopron"), which a profile that never names it cannot answer about.
	proper bool
	// clause numbers the clause of the message the word stands in, from 0; part numbers the
	// part, a clause or what a coordinating conjunction ("és", "and") joins in one.
	clause, part int
	// at and next are where the word stands among the message's words and where the word
	// after it (after both of a pair read as one) begins.
	at, next int
	// headless is set for an English word that qualified the word after it, which was left
	// out as the company's own name: "deep" in "How much is a deep clean?" of a cleaning
	// company. It says what kind of the company's trade is asked about, not what.
	headless bool
	// byName is set for an English word that stands for a word of the company's name (see
	// without): it ranks the facts, but neither explains one, nor covers its keys, nor
	// matches strongly.
	byName bool
	// mine is set for a word that names the visitor's own thing, by a possessive suffix of
	// the first person ("irodánkban", in our office; "házamtól", from my house) or after "my"
	// or "our": the visitor's place or number, not the company's, which it does not ask for.
	mine bool
	// ownContact is set for such a word of addresses and numbers ("my address"): a noun of
	// the visitor's, which no verb the lexicon gives for it means ("küld", address a letter).
	ownContact bool
	// closed is set for an English preposition (closedWords), which the facts' function
	// words may match (see placeTerms) and which names no topic of its own (see score).
	closed bool
	// counted is set for the word right after "hány" or "how many": what the question asks
	// the number of ("Hány kalória…?"), which the answer must state.
	counted bool
	// graded is set for a Hungarian word of no concept that the dictionary reads as a
	// comparative or a superlative ("előbb", earlier; "legkisebb", the smallest): it grades
	// what the question asks about rather than naming it. See aside.
	graded bool
	// adverb is set for a Hungarian word of no concept that the dictionary lets take no
	// suffix at all: an adverb or a conjunction ("amikor", "mielőtt", "kinn"). See aside.
	adverb bool
	// adjective is set for a Hungarian word of no concept that the dictionary lists as an
	// adjective only ("sima", plain; "olcsó", cheap). See aside and qualifiesName.
	adjective bool
	// manner is set for a Hungarian word of no concept that is the adverb of manner of such
	// an adjective ("rendesen", properly; "olcsón", cheaply). See aside.
	manner bool
}

// genericWords carry little topic: verbs of offering and asking, words of time, and how
// often a price is paid ("havonta", "per month"), which qualifies what is asked.
var genericWords = wordSet(`
	vallal vallaltok vallalnak vallalni vallalnatok csinal csinaltok csinalnak csinalni keszit keszitetek
	tud tudtok tudjatok tudnak tudom tudjuk tudnatok tudna lehet lehetseges kell kellene kene van vannak
	ad adtok adnak kap kapok kaphatok kaphato kerni kernek kerhetek szeretnek szeretne szeretnem
	ido idot ideig alatt tart tartana mennyi hany milyen melyik kb kozott egyutt most jelenleg mar meg
	dolgoz dolgoztok dolgoznak hasznal hasznaltok hasznalni szerel szereltek szerelnek intez intezitek
	do does doing done get got make offer offers provide need want like take takes give long much many
	look looks looking build builds policy policies
	kinda really also there here erdekel erdekelne erdekelnek erdeklodnek erdeklodom
	mukodik mukodtok mukodnek mukodo use using used go goes going come comes
	kerdes kerdesem kerdezni question questions info informacio segit segiteni segitseg segitsegre
	segitenek help helps munka munkat munkara munkak munkaja work job jobs
	jon megy hoz visz tesz vesz lesz able possible available
	two three four five six seven eight nine ten ketto harom negy nyolc kilenc tiz
	naponta hetente havonta evente orankent naponkent hetenkent havonkent evenkent alkalmankent
	daily weekly monthly yearly annually hourly per
`)

// wordSet is the set of the fields of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// query is a visitor's question as the words that carry its topic.
type query struct {
	terms []queryTerm
	// where is set when the question asks "where" ("hol", "where") and names little else.
	where bool
	// price is set by a compound that ends in a price word ("havidíja").
	price bool
	// relative is set when the question asks a price relative to another: "mennyivel
	// drágább", "Van felár?", "any discount?", "is it more expensive" (relativePriceConcepts).
	relative bool
	// duration is set when the question asks how long ("mennyi idő", "meddig", "how long").
	duration bool
	// when is set when the question asks when ("mikor", "when").
	when bool
	// clock is set when the question names a time of day ("7-kor", "9 órakor", "at 6 pm").
	clock bool
	// english is set for a question in English.
	english bool
	// timeAsked is set when the question asks at or from what time of day ("hánytól",
	// "hány órától", "what time"): the first answer states one.
	timeAsked bool
	// ahead is set when the question asks how long before something must be done ("how far
	// ahead", "mennyivel előbb"; see leadTime): an entry that states such a length answers first.
	ahead bool
	// dayAsked is set when the question asks on which days ("milyen napokon", "which days"):
	// the first answer names a day (see namesADay).
	dayAsked bool
	// mustBook is set when the question asks whether one must book (see mustBook): the
	// opening hours do not answer it.
	mustBook bool
	// quoteTopic is set when the question asks when or how long, so a quote it names is its
	// topic (see queryIn), not a wish for a price.
	quoteTopic bool
	// priceParts has a bit (see partBit) for each part of the message that asks a price.
	priceParts uint64
	// whetherPaid is set for a yes-or-no question of paying: "Újra kell fizetni a
	// vizsgadíjat?", "Do I have to pay the fee again?" ask whether, not how much.
	whetherPaid bool
	// asks holds the kinds of question the message asks (see interrogatives).
	asks uint64
	// howMuch has a bit (see partBit) for each part of the message that asks a bare "mennyi"
	// of a thing ("Reformer óra mennyi?", "Mennyi a bérlet?"), with no word of a count, a
	// time or a length in the message: a price when the thing is a priced service's name.
	howMuch uint64
}

// ofTimeOnly reports whether every word of the query that names a topic is one of days,
// hours or time spans ("vasárnap", "nyitva", "meddig"): the question names nothing else. Of a
// question that names a time of day, a part of the day says which half of the clock it is
// ("éjjel kettőkor", at two at night).
func (q query) ofTimeOnly() bool {
	for _, t := range q.terms {
		if t.weight >= 1 && t.concepts&(dayConcept|durationConcept) == 0 && !(q.clock && dayParts[t.fold]) {
			return false
		}
	}
	return true
}

// dayParts are the parts of the day, folded, that a time of day may be said in: "éjjel
// kettőkor", "at 3 at night".
var dayParts = wordSet(`hajnal hajnalban hajnali ejjel ejszaka ejfel ejfelkor delben delelott delutan este reggel night tonight`)

// untilOnDay reports whether the query asks until when on a day, and nothing else: "Vasárnap
// meddig vagytok?" asks when the company closes that day, which the opening hours say, not
// how long something lasts nor what an entry's end date ("csütörtök délig") is.
func (q query) untilOnDay() bool {
	return q.ofTimeOnly() && slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.fold == "meddig" }) &&
		slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.weight >= 1 && t.concepts&dayConcept != 0 })
}

// asksPrice reports whether the query, with the intents of its message, asks what something
// costs: a price or quote word, or a compound that ends in a fee word, unless the question
// only asks whether one pays.
func (q query) asksPrice(in Intent) bool {
	return in.Quote && !q.quoteTopic || (in.Price || q.price) && !q.whetherPaid
}

// whetherPaid reports whether folded words ask whether one pays: a verb of paying and no
// word that asks an amount or which ("mennyit", "how", "what").
func whetherPaid(folded []string) bool {
	pays := false
	for _, f := range folded {
		if amountWords[f] {
			return false
		}
		pays = pays || strings.Contains(f, "fizet") || payWords[f]
	}
	return pays
}

// Words of paying in English, and the question words that ask an amount or which thing.
var (
	payWords    = wordSet(`pay pays paid paying repay charge charges charged`)
	amountWords = wordSet(`mennyi mennyit mennyibe mennyiert mibe mekkora hany hanyat mit milyen melyik how what whats which`)
)

// framePhrases frame a question about a case, and name no topic of it: "what happens if I
// fail" asks about failing. Their question word stays a stop word.
var framePhrases = phrases("what happens", "what happened", "what will happen", "what would happen",
	"mi tortenik", "mi tortenne")

// arrivePhrases say in English that someone reaches the visitor: "How quickly can you get here?"
// asks when the company arrives.
var arrivePhrases = phrases("get here", "get there", "get to me", "get to us", "get to my *", "get to our *",
	"get out here", "get out to me", "get out to us")

// without drops the words that name the company itself ("Hol van a szerviz?" of Kerekes
// Autószerviz): they say whom the question is for, not what it is about. A Hungarian word
// that holds a word of the name and more ("kismamajóga", "lakásköltöztetésnél" of a "Jóga"
// studio or a "Költöztetés" firm) names a kind of what the company does and stays; so does,
// at the weight entryWord gives it, one the entries fs tell themselves apart by.
func (q query) without(name []nameWord, fs []fact) query {
	out := q
	out.terms = nil
	if len(q.terms) > 0 {
		// Each word keeps one place at most: one array, not one per doubling.
		out.terms = make([]queryTerm, 0, len(q.terms))
	}
	for i := range q.terms {
		// By pointer: match keeps what it works out about the query's word (its lexicon
		// words by first letter) in the word itself, for score to use again.
		qt := &q.terms[i]
		k := slices.IndexFunc(name, func(n nameWord) bool {
			return match(&qt.term, &n.term) >= compound && qt.concepts&n.concepts == 0 && !kindOf(q.english, &qt.term, &n.term) &&
				!(minorSense(&qt.term, &n.term) && !glossBegins(&n.term, qt.en))
		})
		if k < 0 || name[k].namesKind(qt) {
			out.terms = append(out.terms, *qt)
			continue
		}
		if !q.english || !name[k].entries {
			if w := entryWord(&qt.term, &name[k].term, fs); w > 0 {
				t := *qt
				t.weight = min(qt.weight, w)
				out.terms = append(out.terms, t)
				continue
			}
		}
		if j := len(out.terms) - 1; q.english && j >= 0 && out.terms[j].next == qt.at && out.terms[j].clause == qt.clause && out.terms[j].weight >= 1 {
			out.terms[j].headless = true
		}
		if q.english && name[k].entries {
			// An English word that reaches a word of the name the entries use ("move" of a
			// "Költöztetés" firm whose services are "Irodaköltöztetés"...) stays as that word,
			// in the sense the company gives it, not the word's other senses: it tells the
			// entries of the company's trade from the others, but, as the company's own word,
			// names no topic (see byName).
			t := *qt
			t.term, t.weight, t.byName = name[k].term, min(qt.weight, 0.3), true
			out.terms = append(out.terms, t)
		}
	}
	return out
}

// namesKind reports whether a question's word reaches the company's name word only through
// the first part the entries say alone (see nameWord.kinds), and such an entry's word matches
// it at least as well: "tortát", "cake" at a "Lővér Tortaműhely" with a service "Esküvői
// torta" ask of that kind of cake, not of the whole company, and stay topic words. The name's
// word itself and its forms ("tortaműhelyben") are the company's still.
func (n *nameWord) namesKind(qt *queryTerm) bool {
	m := match(&qt.term, &n.term)
	if m >= related {
		return false
	}
	return slices.ContainsFunc(n.kinds, func(k term) bool { return match(&qt.term, &k) >= max(m, related) })
}

// entryWord is the weight a question's word q keeps, which matches n, a word of the
// company's name, where the named entries (services' names, FAQs' questions) tell themselves
// apart by q: some of them say q itself, and not all. It is 0 when q is left out as the
// company's name, as where no entry says it or every entry does.
//
// q is an English word whose main senses give the first part of the name's compound ("lock"
// of "Zárszerviz"): what the company works on, which its entries name kinds of. It stays as a
// generic word: it ranks the entries that say it over those that do not, but answers nothing
// alone, as most entries are about it. (A Hungarian word of that part stays a topic where the
// entries say the part alone: see namesKind; an English word of a name word the entries use
// stays as that word: see without.)
//
// q reaches the name's word only as a thesaurus synonym, and is the whole name of an entry
// ("apartman" of a "Panzió" with a service "Apartman"): it asks about that entry, not about the
// company, and stays a topic.
func entryWord(q, n *term, fs []fact) float64 {
	w := 0.0
	if parts := n.parts; q.english && len(parts) >= 2 && len(parts[0]) >= 3 {
		if i := q.translatedTo(parts[0], nil); i >= 0 && i < mainSenses {
			w = 0.3
		}
	}
	byThesaurus := w == 0 && !q.english && match(q, n) == synonym && (synonyms(q, n) || synonyms(n, q))
	if w == 0 && !byThesaurus {
		return 0 // the name's word, a form or the head of it: the company
	}
	says, all, whole := 0, 0, false
	for i := range fs {
		if !named(fs[i].kind) {
			continue
		}
		all++
		if slices.ContainsFunc(fs[i].keys, func(k term) bool { return match(q, &k) >= related }) {
			says++
			whole = whole || len(fs[i].keys) == 1
		}
	}
	switch {
	case says == 0 || says == all:
		return 0
	case byThesaurus && whole:
		return 1
	}
	return w
}

// glossBegins reports whether a Hungarian word's English glosses hold a word that begins
// with the English stem en.
func glossBegins(k *term, en string) bool {
	return len(en) >= 4 && slices.ContainsFunc(k.gloss, func(g string) bool { return strings.HasPrefix(g, en) })
}

// kindOf reports whether a Hungarian query word q that is not n, a word of the company's name,
// nor a form of it holds the whole of n and more: a compound or its inflected form that begins
// or ends with n or has it as a part ("jógaóra" of "Jóga", though its guessed stem makes it
// match "jóga" as one stem). A word held in the name's word ("autót", "javítotok" of
// "Autójavító") is none: it names what the whole company does.
func kindOf(english bool, q, n *term) bool {
	if english || match(q, n) >= sameWord {
		return false
	}
	for _, a := range [...]string{q.fold, q.lemmas[0]} {
		for _, b := range [...]string{n.fold, n.lemmas[0]} {
			if len(b) >= 3 && len(a) > len(b) && (strings.HasPrefix(a, b) || strings.HasSuffix(a, b) || slices.Contains(q.parts, b)) {
				return true
			}
		}
	}
	return false
}

// cutPriceSuffix splits a folded compound that ends in a fee word off it: "havidija" is "havi".
func cutPriceSuffix(f string) (string, bool) {
	for _, s := range []string{"dijat", "dija", "dijak", "dijai", "dij", "koltseg", "koltsege"} {
		if stem, ok := strings.CutSuffix(f, s); ok && len(stem) >= 3 {
			return stem, true
		}
	}
	return "", false
}

// newQuery reads the topic words of a message, leaving out the words the intents stand for
// (greetings, thanks, price and quote words), contact details the message carried, and the
// visitor's own details ("a címem", "my number").
//
// A word of a services or about phrase stays when it names one of the facts' keys, as
// "service" does in "What does a major service cost?" of a profile with "Nagy szerviz".
func newQuery(message string, captured Contact, fs []fact) query {
	for _, v := range []string{captured.Email, captured.Phone, captured.Name} {
		if v != "" {
			message = strings.ReplaceAll(message, v, " ")
		}
	}
	lang, sure := DetectLanguage(message)
	return queryIn(message, sure && lang == English, fs, nil)
}

// intentStarts are the phrases of intents whose words queryIn leaves out, in this order:
// greetingPhrases, thanksPhrases, pricePhrases, quotePhrases, callbackPhrases,
// servicesPhrases, reachPhrases, aboutPhrases; as filedLists files them once for matchAny.
var intentStarts = [...]*phraseStarts{filedAs(greetingPhrases), filedAs(thanksPhrases), filedAs(pricePhrases),
	filedAs(quotePhrases), filedAs(callbackPhrases), filedAs(servicesPhrases), filedAs(reachPhrases),
	filedAs(aboutPhrases)}

// queryIn is newQuery of a message, without contact details, in a language already known;
// the words of known, a query of a message that holds this one, are not analysed again.
func queryIn(message string, english bool, fs []fact, known []queryTerm) query {
	if !english {
		message, _ = expandSuspended(message) // "fa- vagy cserjemetszés": "fametszés vagy cserjemetszés"
	}
	ws := words(message)
	skip := make([]bool, len(ws))
	folded := make([]string, len(ws))
	for i, w := range ws {
		folded[i] = fold(w)
	}
	partAt := make([]int, len(folded))
	for i, f := range folded {
		if i > 0 {
			partAt[i] = partAt[i-1]
		}
		if f == clauseBreak || coordinators[f] {
			partAt[i]++
		}
	}
	var priceParts uint64
	// "Mennyi idő múlva kapom meg az ajánlatot?", "When will I get the quote?": the quote is
	// what the question asks the time of, a topic word, not a wish for a price.
	quoteTopic := false
	for i, f := range folded {
		quoteTopic = quoteTopic || asksLength(f, folded, i) || timeAsked[f]
	}
	for n := range intentStarts {
		ps := intentStarts[n]
		named := n == 5 || n == 7 // servicesPhrases, aboutPhrases
		for i := range folded {
			for _, p := range ps.at(folded[i]) {
				if p.matchAt(folded, i) {
					if n == 3 && quoteTopic {
						continue
					}
					if n == 2 || n == 3 { // pricePhrases, quotePhrases
						priceParts |= partBit(partAt[i])
					}
					// A word of the phrase that names an entry stays; so does a word of asking
					// what the company offers that an entry says: "What products do you use?"
					// of an FAQ answer naming the products used.
					// A word of a price relative to another stays too, when an entry states such
					// a price: "Éjszaka mennyivel drágább?" asks about the surcharge, which the
					// entry of "50% felár" states.
					for j := range p {
						skip[i+j] = skip[i+j] || !(named && entriesSay(fs, ws[i+j], english, n == 5) ||
							n == 2 && relativeWord(folded, i+j, english) && slices.ContainsFunc(fs, func(f fact) bool { return f.relativePrice }))
					}
				}
			}
		}
	}
	if !english {
		rejoinPrefixes(ws, folded, skip)
		rejoinTrailingPrefixes(ws, folded, skip)
	}
	// "Mi történik, ha...", "what happens if": the frame of a question about a case, whose
	// topic is the case; "get here": the visitor asks when the company arrives.
	for i := range folded {
		for _, p := range framePhrases {
			if p.mayStart(folded[i]) && p.matchAt(folded, i) {
				for j := range p {
					skip[i+j] = skip[i+j] || p[j] != "what" && p[j] != "mi"
				}
			}
		}
		if !english {
			continue
		}
		for _, p := range arrivePhrases {
			if p.mayStart(folded[i]) && p.matchAt(folded, i) && !skip[i] {
				ws[i], folded[i] = "arrive", "arrive"
				for j := 1; j < len(p); j++ {
					skip[i+j] = true
				}
			}
		}
	}
	// "How long have you been open?" asks since when, not how long something takes.
	if english {
		for i := range folded {
			for _, p := range sincePhrases {
				if p.matchAt(folded, i) {
					ws[i], folded[i] = "since", "since"
					for j := 1; j < len(p); j++ {
						skip[i+j] = true // "long", and "open": not the opening hours
					}
				}
			}
		}
	}
	// English writes many compounds as two words ("opening hours", "check-up") that the
	// lexicon holds as one: such a pair is one word of the question.
	// A particle makes a phrasal verb of the lexicon ("pay in", "take to") unless the visitor
	// hyphenated it into a noun ("check-up").
	joined := make([]bool, len(ws)) // ws[i] is taken with ws[i+1]
	var lacking map[int]term        // a pair read as a word of lack, by its first word
	var phrasal []bool              // ws[i] is a phrasal verb's with ws[i+1] (see PhrasalKey)
	if english {
		hyphenated := fold(message)
		for i := 0; i+1 < len(ws); i++ {
			a, b := folded[i], folded[i+1]
			if a == clauseBreak || b == clauseBreak || skip[i] || skip[i+1] || isStop(a, a) || isStop(a+b, a+b) {
				continue
			}
			// So is a pair the concepts know as one word, which neither word says alone:
			// "walk-in", "walk ins", "same day".
			hyphen := strings.Contains(hyphenated, a+"-"+b)
			if phrasalAt(a, b, hyphen) {
				if phrasal == nil {
					phrasal = make([]bool, len(ws))
				}
				phrasal[i], joined[i] = true, true
				i++
				continue
			}
			whole := (!isStop(b, b) || hyphen) && morph.Load().EnglishWord(a+b)
			if whole || conceptsOf(a+b)&^(conceptsOf(a)|conceptsOf(b)) != 0 {
				joined[i] = true
				i++
				continue
			}
			// "sugar-free" is "cukormentes", which the lexicon lacks whole: read by its parts
			// as Hungarian builds it, it is no "free" of charge ("ingyenes").
			if !hyphen {
				continue
			}
			if t, ok := lackPhrase(ws[i], a, b); ok {
				if lacking == nil {
					lacking = map[int]term{}
				}
				lacking[i], joined[i] = t, true
				i++
			}
		}
	}
	q := query{english: english, timeAsked: timeOfDayAsked(folded), quoteTopic: quoteTopic, priceParts: priceParts, whetherPaid: whetherPaid(folded), asks: asked(folded), dayAsked: dayAsked(folded), mustBook: mustBook(folded)}
	if !english {
		q.howMuch = howMuchParts(folded, partAt)
	}
	negated, either := negatedWords(folded)
	var auxiliary []bool
	if !english {
		auxiliary = futureAuxiliaries(folded)
	}
	seen := map[string]bool{}
	clause, reason := 0, false
	for i, w := range ws {
		f := folded[i]
		if w == clauseBreak {
			clause++
			reason = false
		}
		if because[f] {
			reason = true // "mert kopog valami": why the visitor asks, not what
		}
		var partConcepts uint64
		if i > 0 && joined[i-1] {
			continue
		}
		lack, isLack := lacking[i]
		if joined[i] && !isLack {
			partConcepts = conceptsOf(folded[i+1])
		}
		switch {
		case phrasal != nil && phrasal[i]:
			w, f = w+" "+ws[i+1], f+" "+folded[i+1]
		case joined[i]:
			w, f = w+ws[i+1], f+folded[i+1]
		}
		switch {
		case f == "hol" || f == "merre" || f == "where" || f == "hun":
			q.where = true
		case f == "mikor" || f == "when" || f == "hanykor":
			q.when = true
		case f == "mikorra":
			q.duration = true
			continue // "Mikorra lesz meg?", by when: a length or an end date answers it
		case (f == "orakor" || f == "oratol" || f == "oraig") && i > 0 && folded[i-1] == "hany":
			q.when = true
			continue // "hány órakor/órától", at or from what time: the kind of answer, not a lesson ("óra")
		case clockTime(folded, i):
			q.when, q.clock = true, true
			continue // "7-kor", "9 órakor", "8am": at a time of day, not an age ("kor")
		case asksLength(f, folded, i):
			q.duration = true
			q.ahead = q.ahead || leadTime(folded, i)
		case f == "hosszu" && i > 0 && (folded[i-1] == "milyen" || folded[i-1] == "mennyire"):
			q.duration = true
			continue // "milyen hosszú", how long: the kind of answer; "hosszú haj" is long hair
		}
		if countsTime(folded, i) {
			// "Hány percig tart?", "how many days": a length asked in that unit, which is the
			// kind of answer, not the topic; "Hány óra vezetés van?" still asks about the
			// driving, whose entry states its hours.
			q.duration = true
			continue
		}
		size := measureAsked(folded, i)
		if size != 0 && !seen[askedFold] {
			// "mekkora", "how big": the kind of answer, a size, which an entry that states
			// one in its unit gives; below 1 as a question of size may ask about anything.
			seen[askedFold] = true
			q.terms = append(q.terms, queryTerm{term: askedTerm(size), weight: quantityWeight, clause: clause, part: partAt[i], at: i, next: i + 1})
		}
		if i > 0 && folded[i-1] == "how" {
			continue // "how long", "how much", "how soon": the kind of answer, not the topic
		}
		if i > 0 && folded[i-1] == "what" && f == "time" {
			continue // "what time": a time of day is the kind of answer (timeAsked), no topic
		}
		if auxiliary != nil && auxiliary[i] {
			continue // "jól fog kinézni" (will look good): the future, not "fog" (tooth)
		}
		if qty := quantityAt(folded, i); qty != "" && !seen[qty] {
			// "60 nm-es lakás": the quantity the visitor names, which an entry that states it
			// matches; one no entry states is the visitor's detail, not a topic the profile lacks.
			seen[qty] = true
			q.terms = append(q.terms, queryTerm{term: quantityTerm(qty), weight: quantityWeight, clause: clause, part: partAt[i], at: i, next: i + 1})
		}
		if age := ageAt(folded, i); age != "" && !seen[age] {
			// "5 éves", "a 7-year-old": how old, which an entry's range of age holds or not.
			seen[age] = true
			q.terms = append(q.terms, queryTerm{term: quantityTerm(age), weight: quantityWeight, clause: clause, part: partAt[i], at: i, next: i + 1})
			if _, e := ageUnit(folded, i); english {
				for k := i; k < e; k++ {
					skip[k] = true // "year old": the unit of the age, no topic
				}
			}
		}
		unit := unitAt(folded, i)
		short := utf8.RuneCountInString(f) < 2 && unit == 0
		if skip[i] || w == clauseBreak || seen[f] || isStop(w, f) && !namedContent(fs, w, f) || ownDetail[f] || english && thirdPersons[f] || short || isNumber(f) {
			continue
		}
		if lackAfter[f] {
			continue // "nélküli" (without) is the lack of the word before it, no topic
		}
		seen[f] = true
		if stem, ok := cutPriceSuffix(f); ok {
			// "havidíja": the monthly fee, a price question about "havi".
			q.price = true
			q.priceParts |= partBit(partAt[i])
			w, f = stem, stem
		}
		weight := 1.0
		var t term
		switch k := slices.IndexFunc(known, func(k queryTerm) bool { return k.fold == f }); {
		case isLack:
			t = lack
		case k >= 0:
			t = known[k].term
		default:
			t = newTerm(w, english)
		}
		t.unit = unit
		t.noun = english && determined(folded, i, &t)
		t.counts = english && countedBy(folded, i)
		if english && opensSomething(folded, i) {
			t.concepts &^= dayConcept // "open the door" opens a thing: no opening hours
		}
		t.concepts |= partConcepts // "opening hours" asks for hours as "hours", its head, does
		if english {
			t.concepts |= relativePriceAt(folded, i) // "more expensive", "extra charge": a surcharge
		}
		t.negated = negated != nil && negated[i]
		t.eitherWay = either && t.negated
		if stopLemma(&t) {
			continue // "valamit" is "valami", something: no topic
		}
		closed := english && closedWords[f] && t.concepts == 0
		if t.function && t.concepts == 0 && !closed {
			continue // "more": no topic, as a Hungarian function word has none
		}
		t.ownPrefix = saysPrefixed(fs, &t)
		// A preposition the lexicon gives as function words first ("during": "közben") is
		// light as a generic word: a profile's "közben" matches it, but unmatched it is no
		// topic the profile lacks.
		if (genericWords[f] || closed && t.function || !english && slices.ContainsFunc(t.lemmas, func(l string) bool { return genericWords[l] })) && !t.ownPrefix {
			weight = 0.3 // "megkapom" is "kap", "jönni" is "jön"
		}
		if reason {
			weight = 0.3
		}
		if size != 0 {
			// The word stays a word, as an FAQ may ask "Mekkora rendszer kell?" in it, but
			// as the kind of answer it names no topic the profile lacks.
			weight = min(weight, quantityWeight)
		}
		// A name is a word no dictionary knows; whether it is capitalised is asked below.
		unknown := t.concepts == 0 && (english && t.key == "" || !english && !morph.Load().Known(t.lemmas[0]))
		next := i + 1
		if joined[i] {
			next = i + 2
		}
		mine := visitors(folded, i, english)
		ownContact := mine && t.concepts&contactConcepts != 0
		if ownContact {
			// The concepts of addresses and numbers are of asking for the company's: "my
			// address" is no office ("iroda") of the company's.
			t.concepts &^= contactConcepts
		}
		qt := queryTerm{term: t, weight: weight, proper: unknown, clause: clause, part: partAt[i], at: i, next: next, mine: mine,
			ownContact: ownContact, closed: closed, counted: i > 0 && folded[i-1] == "hany" || i > 1 && folded[i-2] == "how" && folded[i-1] == "many"}
		if !english && weight >= 1 && t.concepts == 0 {
			// A Hungarian topic word of no concept: how the dictionary reads it (see aside).
			m := morph.Load()
			qt.graded, qt.adverb, qt.adjective, qt.manner = m.Graded(f), m.Uninflected(f), m.Adjective(f), m.MannerAdverb(f)
		}
		q.terms = append(q.terms, qt)
	}
	if slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.proper }) {
		caps := capitalised(message)
		for i := range q.terms {
			q.terms[i].proper = q.terms[i].proper && caps[q.terms[i].fold]
			if q.terms[i].proper && q.terms[i].typo {
				q.terms[i].trans = nil // a name ("Shopifi"), not a typo of an English word
			}
		}
	}
	q.howMuch |= q.howMuchBefore()
	for i := range q.terms {
		if t := &q.terms[i]; !english && (q.howMuch|q.priceParts)&partBit(t.part) != 0 && distributive(t.fold) {
			// "Mennyi a reggeli fejenként?": per what the price is stated, the unit of the
			// answer, as "/ fő" is of the price, not a topic the profile must say.
			t.weight = min(t.weight, quantityWeight)
		}
	}
	if q.duration || q.when || q.where || q.clock {
		q.howMuch = 0 // "Mennyi idő?", "mennyi ... mikor": not what it costs
	}
	if q.duration && english {
		// "How long does it last?": the verb of lasting asks the length, as "long" does,
		// and names no topic ("When is the last lesson?" does).
		q.terms = slices.DeleteFunc(q.terms, func(t queryTerm) bool { return lastWords[t.fold] })
	}
	if q.duration {
		for i := range q.terms {
			if !durationWords[q.terms[i].fold] {
				// A word of time in a question of how long names what is asked about, not
				// the unit of the answer: "Meddig tart egy óra?" asks about a lesson, which
				// another entry's "három hónapig" does not name.
				q.terms[i].concepts &^= durationConcept
			}
		}
	}
	q.relative = slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.concepts&relativePriceConcepts != 0 })
	return q
}

// relativePriceAt returns the concept of a price relative to another that the folded English
// word i says with the word beside it: a surcharge for "more expensive", "extra charge",
// "additional fees", a discount for "less expensive"; 0 for none.
func relativePriceAt(folded []string, i int) uint64 {
	switch f := folded[i]; {
	case (f == "expensive" || f == "costly") && i > 0 && folded[i-1] == "more":
		return surchargeConcept
	case (f == "expensive" || f == "costly") && i > 0 && folded[i-1] == "less":
		return discountConcept
	case (f == "extra" || f == "additional") && i+1 < len(folded) && chargeWords[folded[i+1]],
		chargeWords[f] && i > 0 && (folded[i-1] == "extra" || folded[i-1] == "additional"):
		return surchargeConcept
	}
	return 0
}

// relativeWord reports whether the folded word i says a price relative to another: of the
// concepts of a surcharge or a discount, no superlative ("legolcsóbb" is the cheapest, not
// a discount), or an English word that says one with the word beside it ("more expensive").
func relativeWord(folded []string, i int, english bool) bool {
	if english && relativePriceAt(folded, i) != 0 {
		return true
	}
	return !strings.HasPrefix(folded[i], "leg") && conceptsOf(folded[i])&relativePriceConcepts != 0
}

// chargeWords are the English nouns of what one pays, which "extra" makes a surcharge.
var chargeWords = wordSet(`charge charges cost costs fee fees`)

// statesRelativePrice reports whether a text states a price relative to another: a
// percentage ("50% felárat", "+20%") or a word of a surcharge or discount ("kedvezmény").
func statesRelativePrice(text string) bool {
	for _, w := range tokens(text) {
		if u := unitOf(w); u != 0 && unitTable[u-1].kind == ofShare || conceptsOf(w)&relativePriceConcepts != 0 {
			return true
		}
	}
	return false
}

// verbal reports whether a Hungarian profile word is a verb or a form of one, by its first
// lemma.
func verbal(k *term) bool {
	return !k.english && len(k.lemmas) > 0 && morph.Load().Verb(k.lemmas[0])
}

// visitors reports whether the word at i of a message's folded words names the visitor's own
// thing: a Hungarian word with a possessive suffix of the first person, as the dictionary's
// rules say ("irodánkban", "címem"), or an English word right after "my" or "our", or one word
// after it ("our new office").
func visitors(folded []string, i int, english bool) bool {
	if !english {
		return morph.Load().Possessor(folded[i]) == '1'
	}
	for j := i - 1; j >= max(0, i-2); j-- {
		switch folded[j] {
		case "my", "our":
			return true
		case clauseBreak:
			return false
		}
	}
	return false
}

// howMuchBefore returns the bits of the parts before a bare "mennyi" part that names no topic
// of its own ("Kölcsönöztök bringát? Mennyi?", "…, az mennyi lesz?"): such a "mennyi" asks
// how much the thing the message named before it is, as a "mennyi" in its part would.
func (q query) howMuchBefore() uint64 {
	var out uint64
	for p := 1; p < 64 && q.howMuch>>p != 0; p++ {
		if q.howMuch&partBit(p) == 0 || slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.part == p && t.weight >= 1 }) {
			continue
		}
		for _, t := range q.terms {
			if t.part < p && t.weight >= 1 {
				out |= partBit(t.part)
			}
		}
	}
	return out
}

// howMuchParts returns a bit (see partBit) for each part of a Hungarian message's folded words
// whose "mennyi" stands bare: last in its clause or before an article ("Reformer óra mennyi?",
// "Mennyi a bérlet?"), not before what it counts ("mennyi ember", "mennyi idő"); none when
// a word of the message asks a count or a size ("hány", "mekkora").
func howMuchParts(folded []string, partAt []int) uint64 {
	var out uint64
	for i, f := range folded {
		switch {
		case strings.HasPrefix(f, "hany") || f == "mekkora" || f == "mennyit" || f == "mennyien":
			return 0
		case f != "mennyi":
		default:
			j := i + 1
			for j < len(folded) && (copulaForms[folded[j]] || distributive(folded[j])) {
				j++ // "Mennyi lenne?", "mennyi óránként": no count of the word after it
			}
			if j == len(folded) || folded[j] == clauseBreak || coordinators[folded[j]] || folded[j] == "a" || folded[j] == "az" {
				out |= partBit(partAt[i])
			}
		}
	}
	return out
}

// distributive reports whether a folded Hungarian word is in the distributive case, "-nként"
// ("fejenként", "óránként", "négyzetméterenként"): per one of what it names.
func distributive(f string) bool {
	return len(f) > len("nkent")+2 && strings.HasSuffix(f, "nkent") || timeDistributives[f]
}

// timeDistributives are the distributive forms of units of time in "-nta", "-nte": per day,
// week, month, year.
var timeDistributives = wordSet(`naponta hetente havonta evente`)

// copulaForms are the forms of "van" (to be) that may stand after a bare "mennyi" ("mennyi
// lesz", "mennyi lenne", "mennyi volt") other than "van" itself.
var copulaForms = wordSet(`lesz lenne lett volt volna lesznek lennenek`)

// saysPrefixed reports whether a profile's FAQ or service says the visitor's prefixed verb t
// with its prefix (see prefixedMatch): "elhozni" (fetch) and "ingyenesen elhozzuk" (we fetch
// it for free). A prefix makes a verb of its own of a generic one ("hoz", bring), and the
// profile's saying it shows it names a topic there; a synonym's saying it is too loose a
// sign ("elvinni", carry away, is no "elhozzuk", though "visz" and "hoz" are kin).
func saysPrefixed(fs []fact, t *term) bool {
	if t.pre == 0 {
		return false
	}
	for i := range fs {
		if !named(fs[i].kind) {
			continue
		}
		for _, ws := range [2][]term{fs[i].keys, fs[i].body} {
			for j := range ws {
				if ws[j].bare != "" && prefixedMatch(t, &ws[j]) == related {
					return true
				}
			}
		}
	}
	return false
}

// futureForms are the forms of "fog" that, with an infinitive, make the future tense ("fog
// kerülni", will cost; "fogjátok csinálni", you will do it); without one "fog" is a tooth or
// holding.
var futureForms = wordSet(`fogok fogsz fog fogunk fogtok fognak fogom fogod fogja fogjuk fogjatok fogjak`)

// futureAuxiliaries marks the folded words that are the future auxiliary "fog": a form of it
// in a clause that has an infinitive. Nil when there is none.
func futureAuxiliaries(folded []string) []bool {
	var out []bool
	for i, f := range folded {
		if !futureForms[f] {
			continue
		}
		start, end := i, i+1
		for start > 0 && folded[start-1] != clauseBreak {
			start--
		}
		for end < len(folded) && folded[end] != clauseBreak {
			end++
		}
		for j := start; j < end; j++ {
			if j != i && infinitive(folded[j]) {
				if out == nil {
					out = make([]bool, len(folded))
				}
				out[i] = true
				break
			}
		}
	}
	return out
}

// infinitive reports whether a folded Hungarian word is a verb's infinitive: it ends in "-ni"
// and the dictionary's rules take that suffix off ("kerülni": "kerül"), which a word that
// merely ends so ("bikini") does not allow.
func infinitive(f string) bool {
	if len(f) < 4 || !strings.HasSuffix(f, "ni") {
		return false
	}
	s := morph.Load().Stems(f)
	return len(s) > 0 && s[0] != f && len(s[0]) < len(f)
}

// countsTime reports whether the folded word i is a unit of time counted by the question word
// before it: "hány perc", "hány napig", "how many hours". "Hány órakor?" asks the time of day.
func countsTime(folded []string, i int) bool {
	counted := i > 0 && folded[i-1] == "hany" || i > 1 && folded[i-1] == "many" && folded[i-2] == "how" ||
		i > 1 && folded[i-1] == "of" && folded[i-2] == "number"
	return counted && !durationWords[folded[i]] && conceptsOf(strings.TrimSuffix(folded[i], "s"))&durationConcept != 0
}

// rejoinPrefixes writes a verbal prefix that an auxiliary verb parts from its infinitive
// back onto it: "Le tudom mondani?" asks about "lemondani" (cancel), not "mondani" (say);
// "El tudjátok hozni?" about "elhozni" (fetch); "Le kell mondanom?" (must I cancel) about
// "lemondanom". The prefix stands first, the infinitive at most three words later in its
// clause ("Be tudunk már jelentkezni?", an adverb between).
func rejoinPrefixes(ws, folded []string, skip []bool) {
	lang := morph.Load()
	for j, g := range folded {
		// Infinitives are few in a message: each looks back for its prefix.
		if !(len(g) >= 4 && strings.HasSuffix(g, "ni") || personalInfinitive(folded, j)) {
			continue
		}
		for i := j - 1; i >= 0 && i >= j-maxPrefixGap && folded[i] != clauseBreak; i-- {
			if f := folded[i]; !skip[i] && lang.Prefix(f) && !lang.Prefix(g) && len(lang.Stems(g)) > 0 {
				ws[j], folded[j] = ws[i]+ws[j], f+g
				skip[i] = true
				break
			}
		}
	}
}

// rejoinTrailingPrefixes writes a verbal prefix that ends its clause back onto the verb right
// before it: a question word or a negation puts the prefix after its verb ("Mikor jöttök
// ki?", when will you come out; "Hogyan mondhatom le?", how can I cancel; "Nem viszitek
// el?"), where it would be read as no word at all.
func rejoinTrailingPrefixes(ws, folded []string, skip []bool) {
	lang := morph.Load()
	for i := 1; i < len(folded); i++ {
		f, g := folded[i], folded[i-1]
		if !lang.Prefix(f) || skip[i] || skip[i-1] || i+1 < len(folded) && folded[i+1] != clauseBreak || lang.Prefix(g) {
			continue
		}
		if s := lang.Stems(g); len(s) == 0 || len(s[0]) >= len(g) || prefixOf(g, s[0]) > 0 {
			// No inflected word ("Mi a helyzet ki?"), or a verb with a prefix of its own:
			// "lemondhatom még?" (can I still cancel) folds "még" (still) to "meg".
			continue
		}
		ws[i-1], folded[i-1] = ws[i]+ws[i-1], f+g
		skip[i] = true
	}
}

// personalInfinitive reports whether the folded word j is an infinitive with a personal
// ending ("mondanom", for me to say; "vinnünk", for us to carry) after a predicate of no
// person that takes one ("kell", must; "lehet", may). Alone such a form may be a conditional
// ("szeretném", I would like), which the predicate before it rules out.
func personalInfinitive(folded []string, j int) bool {
	if j == 0 || !impersonal[folded[j-1]] {
		return false
	}
	g := folded[j]
	for _, e := range personalEndings {
		if len(g) >= len(e)+2 && strings.HasSuffix(g, e) {
			s := morph.Load().Stems(g)
			return len(s) > 0 && len(s[0]) < len(g)-len(e)+2
		}
	}
	return false
}

// personalEndings are the infinitive's personal endings, folded: "-nom", "-nod", "-nia",
// "-nunk", "-notok", "-niuk" and their front-vowel forms.
var personalEndings = strings.Fields(`notok netek nunk niuk nom nod nia nem ned nie`)

// impersonal holds the folded predicates of no person that take a personal infinitive:
// "kell mennem" (I must go), "lehet fizetnünk" (we may pay).
var impersonal = wordSet(`kell kellene kene kellett muszaj szabad lehet lehetne erdemes sikerul sikerult tilos`)

// maxPrefixGap is how many words after a verbal prefix its infinitive may stand.
const maxPrefixGap = 3

// coordinators join two questions in one sentence: "Mennyi a festés és meddig tart?". The
// colloquial "meg" is left out: it is also a verbal prefix ("meg tudjátok javítani").
var coordinators = wordSet(`es valamint illetve tovabba plusz and plus`)

// questionParts splits a message into its clauses and the parts a coordinating conjunction
// joins, in the visitor's own letters; the conjunctions and punctuation are left out.
func questionParts(message string) []string {
	var parts []string
	var cur, word strings.Builder
	end := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			parts = append(parts, s)
		}
		cur.Reset()
	}
	endWord := func() {
		if coordinators[fold(word.String())] {
			end()
		} else {
			cur.WriteString(word.String())
		}
		word.Reset()
	}
	for _, r := range message {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '-':
			word.WriteRune(r)
		case strings.ContainsRune(".,;:!?()\n", r):
			endWord()
			end()
		default:
			endWord()
			cur.WriteRune(r)
		}
	}
	endWord()
	end()
	return parts
}

// sincePhrases ask since when the company has been in business.
var sincePhrases = phrases("how long have you been *", "how long have you guys been *", "how long has the * been *",
	"how long has your * been *", "how long are you in business")

// namedContent reports whether a query word w (folded f) that the fold alone makes a function
// word is a word of content in the profile: a service's name writes it so ("hatha" of "Hatha
// jóga"). A visitor who writes "hátha" means the function word; one who types "hatha", as
// many type without accents, means it too unless the profile names something so.
func namedContent(fs []fact, w, f string) bool {
	if stopWords[f] || !morph.Load().FoldedFunction(w) {
		return false
	}
	for i := range fs {
		if fs[i].kind == factService && slices.ContainsFunc(fs[i].keys, func(k term) bool { return k.fold == f }) {
			return true
		}
	}
	return false
}

// entriesSay reports whether the word, unless a stop word, matches a key of an FAQ pair or a
// service as a word of it, or, with body, as its idea or closer a word that an FAQ's answer or
// a service's description says. (The fixed facts' keys are the words of the very phrases
// whose words queryIn asks this of.) The word is made a term once for both.
func entriesSay(fs []fact, w string, english, body bool) bool {
	if isStop(w, fold(w)) {
		return false
	}
	t := newTerm(w, english)
	for i := range fs {
		if !named(fs[i].kind) {
			continue
		}
		for _, k := range fs[i].keys {
			if match(&t, &k) >= related {
				return true
			}
		}
		if !body {
			continue
		}
		for _, k := range fs[i].body {
			if match(&t, &k) >= sameIdea {
				return true
			}
		}
	}
	return false
}

// capitalised returns the folded words of text that begin with a capital letter.
func capitalised(text string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		if upper(w) {
			for _, part := range words(w) {
				out[fold(part)] = true
			}
		}
	}
	return out
}

// negators negate the word they stand before: "nem sikerül", "isn't cooling"; "nincs lift"
// and "without a lift" say the lack of it, as "no lift" does.
var negators = wordSet(`nem sem ne nincs nincsen sincs sincsen not never no without isnt arent wasnt werent
	dont doesnt didnt cant couldnt wont wouldnt havent hasnt`)

// lackAfter are the Hungarian postpositions of lack, which negate the word before them: "lift
// nélkül" (without a lift), "lift nélküli ház", as "nincs lift" and "no lift" do. They are no
// topic of their own: the adjective "nélküli" is no function word to the dictionary.
var lackAfter = wordSet(`nelkul nelkuli`)

// opposite tells how well a visitor's word q matches a profile word k of which one is
// negated and the other not: as well as words of one idea when the English WordNet gives an
// English sense of one as the antonym of a sense of the other ("fail", "succeed"), or when one
// is a word of lack and the other of the stem it lacks (see lackApart), else 0. A Hungarian
// word's senses are its glosses, an English word's its stem.
func opposite(q, k *term) float64 {
	if lackApart(q, k) {
		return sameIdea // "cukormentes" (sugar-free) is "nem cukros" (not sugary)
	}
	if q.english && k.lacks != "" && q.negated {
		// "no sugar" is "cukormentes" when "cukor" is a main sense of "sugar".
		if i := q.translatedTo(k.lacks, nil); i >= 0 && i < mainSenses {
			return sameIdea
		}
	}
	if len(k.gloss) == 0 {
		return 0
	}
	lang := morph.Load()
	if q.english {
		if lang.Opposite(q.en, k.gloss) {
			return sameIdea
		}
		return 0
	}
	for _, g := range lang.Glosses(q.lemmas[0]) {
		if lang.Opposite(g, k.gloss) {
			return sameIdea
		}
	}
	return 0
}

// negatedWords marks, of folded words with clause breaks (see words), the first content word
// after a negator in its clause and the last one before a postposition of lack; nil when none
// is negated. either is set when the text is one clause that opens with its negator: "Nincs
// diákkedvezmény?", "Don't you do repairs?" ask whether there is what they negate, of which
// an entry may speak either way.
func negatedWords(folded []string) (out []bool, either bool) {
	if !slices.ContainsFunc(folded, func(f string) bool { return negators[f] || lackAfter[f] }) {
		return nil, false // most messages negate nothing
	}
	either = negators[folded[0]]
	for k := 1; either && k+1 < len(folded); k++ {
		either = folded[k] != clauseBreak || folded[k+1] == clauseBreak
	}
	content := func(f string) bool { return !isStop(f, f) && utf8.RuneCountInString(f) >= 2 && !isNumber(f) }
	out = make([]bool, len(folded))
	pending := false
	for i, f := range folded {
		switch {
		case f == clauseBreak:
			pending = false
		case negators[f]:
			pending = true
		case lackAfter[f]:
			for j := i - 1; j >= 0 && folded[j] != clauseBreak; j-- {
				if content(folded[j]) {
					out[j] = true
					if j > 0 && havingAdjective(folded[j-1]) {
						out[j-1] = true // "liftes ház nélkül" lacks the lift, as "lift nélkül" does
					}
					break
				}
			}
		case pending && content(f):
			out[i], pending = true, false
		}
	}
	return out, either
}

// havingAdjective reports whether the folded Hungarian word f is an adjective of having its
// lemma, made with "-s" ("liftes" of "lift", "kertes" of "kert").
func havingAdjective(f string) bool {
	if len(f) < 4 || f[len(f)-1] != 's' {
		return false
	}
	for _, l := range morph.Load().Lemmas(f) {
		if l != f && (l+"s" == f || len(f) == len(l)+2 && strings.HasPrefix(f, l)) {
			return true
		}
	}
	return false
}

// because begin a clause that gives the visitor's reason for asking.
var because = wordSet(`mert because`)

// lastWords are the English verb of lasting, which in a question of how long is the kind of
// answer asked for.
var lastWords = wordSet(`last lasts lasting`)

// clockText finds a time of day in a text: "7:30", "10.00", "14 órától", "9 órakor", "8am".
var clockText = regexp.MustCompile(`\d{1,2}[:.]\d{2}\b|\d{1,2}\s*(?:órától|óráig|órakor)|\d{1,2}\s*[ap]\.?m\b`)

// asksLength reports whether the word f, at i of a message's folded words, asks how long
// something takes: "idő", "meddig", "quickly", "how long", "how fast" before a verb.
func asksLength(f string, folded []string, i int) bool {
	return durationWords[f] || f == "long" && i > 0 && folded[i-1] == "how" || fastDone(folded, i) || leadTime(folded, i) ||
		f == "idovel" && i > 0 && folded[i-1] == "mennyi" // "mennyi idővel" (how long after or before)
}

// fastDone reports whether the folded word i is "fast" of "how fast" before a verb of doing
// ("how fast can you get here", "how fast do you reply"): a length of time, as "how quickly"
// and "how soon" ask. "How fast is the wifi?" asks a speed.
func fastDone(folded []string, i int) bool {
	return folded[i] == "fast" && i > 0 && folded[i-1] == "how" && i+1 < len(folded) && doingWords[folded[i+1]]
}

// doingWords are the English auxiliaries a question of doing asks with.
var doingWords = wordSet(`can could will would do does did`)

// timeOfDayAsked reports whether folded words ask at or from what time of day: "hánytól",
// "hányig", "hánykor", "mettől", "hány órától/óráig/órakor", "what time".
func timeOfDayAsked(folded []string) bool {
	for i, f := range folded {
		switch f {
		case "hanytol", "hanyig", "hanykor", "mettol":
			return true
		case "hany", "what":
			if i+1 < len(folded) && (f == "hany" && (folded[i+1] == "oratol" || folded[i+1] == "oraig" || folded[i+1] == "orakor") || f == "what" && folded[i+1] == "time") {
				return true
			}
		}
	}
	return false
}

// timeAsked are the question words of when, by when and how soon, folded.
var timeAsked = wordSet(`mikor mikorra hanykor when`)

// durationWords ask how long something takes.
var durationWords = wordSet(`ido idot ideig meddig idotartam gyorsan hamar quickly soon`)

// ownDetail are words for the visitor's own details, which say nothing about the question:
// "a címem", "my number".
var ownDetail = wordSet(`cimem cimemet emailem emailcimem szamom szamomat telefonszamom nevem neve elerhetosegem
	elerhetosegeim elerhetosegeimet adataim adataimat adatom mobilom mobilszamom elkuldtem kuldom kuldtem
	megadtam sent details`)

// scored is a fact with how well a query matched it; the fact is the index's own, which
// nothing changes once the index is built.
type scored struct {
	*fact
	// hit holds, per query term, how well the fact matched it (0: not at all), and contrib
	// what that adds to the fact's rank.
	hit, contrib []float64
	// strongAt is set for a term that matched a key of the fact, or a word of its body in
	// full while naming the topic.
	strongAt []bool
	// keyCover is the share of the fact's keys (an FAQ's question, a service's name) that the
	// query matched: "Milyen implantátumot?" is about the service "Implantátum" more than
	// about the FAQ "Mennyi ideig tart egy implantátum gyógyulása?".
	keyCover float64
	// askedBody is set when a topic word of the query matched a word of the fact's body only:
	// "A festés után szárítás is van benne az árban?" asks what the service includes.
	askedBody bool
	// whole is the index in keys, plus one, of a compound key of the fact that two words of
	// the query match, one of them as its idea: the visitor said the compound's parts ("az
	// ajtót … kinyitni" of "Ajtónyitás", "car key" of "Autókulcs"). part is one of a compound
	// key that one word alone matches (see sibling). 0: none. Bytes, to fit beside askedBody.
	whole, part uint8
	// minor has a bit (see partBit) for each query term the fact matches as its idea only
	// through senses beyond the main ones (see minorSense).
	minor uint64
	// phrase has a bit (see partBit) for each query term of a phrase the fact says as one:
	// two neighbouring words of an English question matched by one compound or by two
	// neighbouring words of the fact in their order (see saysPhrase).
	phrase uint64
}

// score matches every fact against the query.
func score(x *Index, q query) []scored {
	fs := x.facts
	out := make([]scored, len(fs))
	df := make([]int, len(q.terms))
	// The memo's cell of query term j and the index's word id, memoRow(j)[id], is
	// match(q.terms[j], the word) as its bits with memoKnown set, 0 until worked out: the
	// value comes back exactly as match gave it, whichever fact asked first.
	n := len(q.terms)
	pooled, _ := x.cells.Get().(*[]uint64)
	if pooled == nil || cap(*pooled) < n*x.words {
		pooled = new([]uint64)
		*pooled = make([]uint64, n*x.words)
	}
	defer x.cells.Put(pooled)
	cells := (*pooled)[:n*x.words]
	clear(cells)
	memoRow := func(j int) []uint64 { return cells[j*x.words : (j+1)*x.words : (j+1)*x.words] }
	// One backing array for the facts' per-term figures and one for their strong marks: a
	// turn allocates two, not three per fact.
	figures := make([]float64, 2*len(fs)*n)
	hits, contribs, strong := figures[:len(fs)*n:len(fs)*n], figures[len(fs)*n:], make([]bool, len(fs)*n)
	var spell spelling
	spell.init(&q)
	cellOf := func(j int, k *term) uint64 {
		if q.terms[j].ownContact && verbal(k) {
			return memoKnown // "my address" is not "küld" (address a letter)
		}
		c := memoCell(&q.terms[j].term, k)
		// spell.any is 0 for an English question and one with no Hungarian topic word:
		// then spells is not called for each word.
		if spell.any != 0 && cellMatch(c) < sameIdea && spell.spells(q.terms, j, k) {
			return math.Float64bits(sameIdea) | memoKnown
		}
		return c
	}
	cell := func(j int, k *term) uint64 {
		id := int(k.id)
		if id < 0 || id >= x.words {
			return cellOf(j, k)
		}
		at := j*x.words + id
		if c := cells[at]; c != 0 {
			return c
		}
		c := cellOf(j, k)
		cells[at] = c
		return c
	}
	matched := func(j int, k *term) float64 { return cellMatch(cell(j, k)) }
	for i := range fs {
		f := &fs[i]
		s := scored{fact: f, hit: hits[i*n : (i+1)*n : (i+1)*n], contrib: contribs[i*n : (i+1)*n : (i+1)*n],
			strongAt: strong[i*n : (i+1)*n : (i+1)*n]}
		for j := range q.terms {
			qt := &q.terms[j]
			best, key := 0.0, false
			// inMain is set once a word of the fact matches an English term as its idea
			// through a main sense (see minorSense).
			inMain := !qt.english
			// The loops below read the memo's row of j themselves, and call cell only for a
			// cell not yet worked out: most words are met again in other facts.
			row := memoRow(j)
			for ki := range f.keys {
				if f.keys[ki].negated != qt.negated && !f.keys[ki].eitherWay && !qt.eitherWay && f.kind == factFAQ {
					// "Mi van, ha nem sikerül a vizsga?" is no answer to how many succeed; but
					// a word and the negated opposite of it say one thing: "megbukik" (fail)
					// is "nem sikerül" (not succeed).
					m := opposite(&qt.term, &f.keys[ki]) * keyWeight
					if m > best {
						best, key = m, true
					}
					inMain = inMain || m >= bodyWeight*sameIdea // WordNet's antonyms are no sense
					continue
				}
				c := memoAt(row, &f.keys[ki])
				if c == 0 {
					c = cell(j, &f.keys[ki])
				}
				m := cellMatch(c) * keyWeight
				if m > best {
					best, key = m, true
				}
				if !inMain && m >= bodyWeight*sameIdea {
					inMain = c&memoMinor == 0
				}
			}
			for ki := range f.joined {
				c := memoAt(row, &f.joined[ki])
				if c == 0 {
					c = cell(j, &f.joined[ki])
				}
				m := cellMatch(c) * keyWeight
				if m > best {
					best, key = m, true
				}
				if !inMain && m >= bodyWeight*sameIdea {
					inMain = c&memoMinor == 0
				}
			}
			for ki := range f.body {
				c := memoAt(row, &f.body[ki])
				if c == 0 {
					c = cell(j, &f.body[ki])
				}
				m := cellMatch(c) * bodyWeight
				if m > best {
					best, key = m, false
				}
				if !inMain && m >= bodyWeight*sameIdea {
					inMain = c&memoMinor == 0
				}
			}
			if best < keyWeight*sameIdea && len(qt.parts) > 1 && !qt.english && saysParts(fs, f, &qt.term) {
				best, key = keyWeight*sameIdea, true
			}
			if qt.mine && (f.kind == factAddress || contactKind(f.kind)) {
				// "az irodánkban", "my address": the visitor's place or number, not the one
				// the company gives.
				best = 0
			}
			for ki := 0; qt.closed && ki < len(f.places); ki++ {
				if m := matched(j, &f.places[ki]) * bodyWeight; m > best {
					best, key = m, false
				}
			}
			if key && contactKind(f.kind) && best < sameWord && qt.concepts&contactConcepts == 0 {
				// A phone or an email is asked for by the words of reaching someone; a word
				// the lexicon takes to one of them by another sense ("invoice": "számla",
				// which begins as "szám", number) asks about something else.
				best = 0
			}
			if best >= weakMatch*bodyWeight {
				s.hit[j] = best
				df[j]++
				// A preposition says where or when of a topic, and names none of its own.
				s.strongAt[j] = !qt.closed && (key && best >= sameIdea && !qt.byName || qt.weight >= 1 && best >= bodyWeight*sameIdea ||
					qt.quantity && best >= bodyWeight*sameWord) // a quantity the fact states, or one in its range (see explainedIn)
				s.askedBody = s.askedBody || !key && !qt.closed && qt.weight >= 1 && best >= bodyWeight*sameIdea
				if !inMain && best >= bodyWeight*sameIdea {
					s.minor |= partBit(j)
				}
			}
		}
		if q.english {
			for j := 0; j+1 < n; j++ {
				if s.hit[j] > 0 && s.hit[j+1] > 0 && q.terms[j].next == q.terms[j+1].at &&
					(saysPhrase(f.keys, j, matched) || saysPhrase(f.body, j, matched)) {
					s.phrase |= partBit(j) | partBit(j+1)
				}
			}
		}
		covered := 0
		for ki := range f.keys {
			for j := range q.terms {
				if q.terms[j].byName {
					continue
				}
				if matched(j, &f.keys[ki]) >= weakMatch {
					covered++
					break
				}
			}
		}
		if len(f.keys) > 0 {
			s.keyCover = float64(covered) / float64(len(f.keys))
		}
		for ki := 0; covered > 0 && ki < min(len(f.keys), math.MaxUint8); ki++ {
			k := &f.keys[ki]
			if len(k.parts) < 2 {
				continue
			}
			said, idea, phrase, last := 0, false, !q.english, -1
			for j := range q.terms {
				if m := matched(j, k); m >= weakMatch && !q.terms[j].byName {
					said++
					idea = idea || m >= sameIdea
					// An English compound is a phrase of neighbours: "car key", not "keys …
					// in my car".
					phrase = phrase || last >= 0 && last == j-1 && q.terms[last].next == q.terms[j].at
					last = j
				}
			}
			if said >= 2 && idea && phrase && s.whole == 0 {
				s.whole = uint8(ki + 1)
			} else if said == 1 && s.part == 0 {
				s.part = uint8(ki + 1)
			}
		}
		out[i] = s
	}
	// A word found in every fact tells them apart less than one found in a single fact.
	for i := range out {
		f := &out[i]
		// A fact whose own keys the question names is ranked over one that shares a word with
		// it, and the description, which mentions everything, under both.
		factor := 0.7 + 0.3*f.keyCover
		if f.kind == factAbout {
			factor = 0.8
		}
		for j, h := range f.hit {
			if h > 0 {
				f.contrib[j] = factor * q.terms[j].weight * h / math.Sqrt(float64(df[j]))
				if h < bodyWeight*sameIdea && q.terms[j].weight < 1 {
					// A generic word ("get") matched in part names nothing the fact is about:
					// it must not lift one entry over another that the topic words match alike.
					f.contrib[j] = 0
				} else if h < bodyWeight*sameIdea {
					f.contrib[j] /= 2
				}
			}
		}
	}
	return out
}

// minorOnly reports whether every query word the fact matches as its idea it matches only
// through minor senses (see minorSense): "Do you move safes?" and the FAQ "Biztosított a
// szállítmány?" through "safe" as "biztos" (certain).
func (s scored) minorOnly() bool {
	for j, h := range s.hit {
		if h > 0 && s.minor&partBit(j) == 0 {
			return false
		}
	}
	return s.minor != 0
}

// saysPhrase reports whether the words ws hold the query's terms j and j+1 as one phrase, each
// matched as its idea (a word that only begins as another, as "autósiskola" begins as
// "automatic", is no part of one): both match one compound ("pet passport",
// "kisállatútlevél"), or the first matches a word and the second the word right after it
// ("automatic cars", "automata autóra").
func saysPhrase(ws []term, j int, matched func(int, *term) float64) bool {
	for i := range ws {
		if matched(j, &ws[i]) < sameIdea {
			continue
		}
		if len(ws[i].parts) > 1 && matched(j+1, &ws[i]) >= sameIdea {
			return true
		}
		for _, k := range ws[i].follows {
			if matched(j+1, &ws[k]) >= sameIdea {
				return true
			}
		}
	}
	return false
}

// memoKnown marks a worked-out cell of score's memo: the sign bit, which no match (0 to 1)
// sets.
const memoKnown = 1 << 63

// memoMinor marks a cell of score's memo whose English word matches the profile's word as its
// idea only through minor senses (see minorSense): the exponent's top bit, which no match
// below 2 sets.
const memoMinor = 1 << 62

// cellMatch is the match a cell of score's memo holds.
func cellMatch(c uint64) float64 { return math.Float64frombits(c &^ (memoKnown | memoMinor)) }

// memoAt is the cell of score's memo row for the index's word k, 0 when not worked out yet or
// when k is no word of the index.
func memoAt(row []uint64, k *term) uint64 {
	if id := int(k.id); id >= 0 && id < len(row) {
		return row[id]
	}
	return 0
}

// memoCell is the cell of score's memo for q and k: match's bits, memoKnown, and memoMinor.
func memoCell(q, k *term) uint64 {
	m := match(q, k)
	c := math.Float64bits(m) | memoKnown
	if q.english && m >= bodyWeight*sameIdea && minorSense(q, k) {
		c |= memoMinor
	}
	return c
}

// explained is the share of the query's weight that the chosen facts match: a question whose
// topic words they do not use is not answered by them, however well its other words match
// ("Mennyi idő alatt térül meg?" shares "idő" with "Mennyi idő alatt készül el?"). A word that
// many facts of the profile (all) use tells little of what is asked, so it weighs less than
// one that no fact matches, which most likely names what the profile does not cover. A fact
// that only shares a part of the word ("implantátum" for "implantáció") does not use it. Facts
// that match none of the query's full-weight words, only generic ones ("jön", "fizet", "óra"),
// explain nothing, however short the question they answer.
func explained(chosen, all []scored, q query) float64 {
	return explainedIn(chosen, all, q, func(int) bool { return true })
}

// explainedIn is explained for the query's terms that in keeps.
func explainedIn(chosen, all []scored, q query, in func(j int) bool) float64 {
	total, found, topic := 0.0, 0.0, false
	for j, qt := range q.terms {
		if !in(j) || qt.byName {
			continue
		}
		best, df := 0.0, 0
		for _, s := range chosen {
			h := s.hit[j]
			if s.minor&partBit(j) != 0 {
				// A minor sense adds to what another word names, as a part of a compound does.
				h = min(h, bodyWeight*sameIdea/2)
			}
			best = max(best, h)
			if best == 0 && q.saysWithin(j, s.fact) {
				best = s.hit[j+1]
			}
		}
		for _, s := range all {
			if s.hit[j] >= bodyWeight*sameIdea {
				df++
			}
		}
		w := qt.weight / math.Sqrt(float64(max(df, 1)))
		if qt.quantity && best >= bodyWeight*sameWord {
			// A quantity the entry states, or one inside a range it states ("30 kilós" of "10
			// kg feletti"), names the visitor's case as a topic word does.
			w = 1 / math.Sqrt(float64(max(df, 1)))
		}
		total += w
		topic = topic || best > 0 && qt.weight >= 1
		switch {
		case best >= bodyWeight*sameIdea:
			found += w
		case best > 0:
			found += w / 2 // a part of a compound explains a word only in part
		case qt.weight < 1 || q.aside(j, chosen, all):
			// A generic word ("érdekel", "vállaltok") the profile lacks is no topic it lacks, nor
			// is a comparative or an adverb no entry says ("előbb", "mielőtt").
			total -= w
		}
	}
	if total == 0 || !topic {
		return 0 // "Miben kell jönni?": a fact that shares only "jön" with it explains none of it
	}
	return found / total
}

// aside reports whether the query's term j says how or when of what is asked rather than
// what, so that leaving it unmatched leaves no topic of the question unanswered: no entry of
// the profile (all) says it, even in part, and it is a graded word (see queryTerm.graded:
// "Mennyi idővel előbb kell rendelni?" of an FAQ "Mennyi idővel korábban kell rendelni?"), or
// an adverb (queryTerm.adverb) of a question that names the first chosen entry by most of its
// own words ("Meg lehet kóstolni a tortákat, mielőtt...?" of an FAQ "Meg lehet kóstolni a
// tortákat?"): an adverb qualifies the question's verb, and only a question of the entry's
// own words is sure to ask what the entry says ("Hány rendszert telepítettetek eddig?" is no
// question of the systems a service installs). So is an adjective of such a question that
// says what kind of the entry's own thing is asked about (see qualifiesName: "Mennyibe kerül
// egy sima zárcsere?" of a service "Zárcsere"), unless another entry is a kind of that thing
// (see narrower), and an adverb of manner made of one ("Rendesen megcsináljátok a zárcserét?").
// A word the profile says keeps its weight.
func (q query) aside(j int, chosen, all []scored) bool {
	t := &q.terms[j]
	named := len(chosen) > 0 && chosen[0].keyCover >= minKeyCover
	if t.proper || !t.graded && !(t.adverb && named) && !(named && (t.adjective && q.qualifiesName(j, chosen[0]) || t.manner) && q.restSaid(chosen) && !narrower(chosen[0], all)) {
		return false
	}
	return !slices.ContainsFunc(all, func(s scored) bool { return s.hit[j] > 0 })
}

// saysWithin reports whether the query's term j is a preposition of being inside
// ("within", "inside": "belül") whose object, the word after it, the fact says in a case of
// being in a place ("Budapesten", "a városban"): Hungarian says "within Budapest" so as well as
// with "belül". The fact's word must match the object as its idea.
func (q query) saysWithin(j int, f *fact) bool {
	qt := &q.terms[j]
	if !qt.closed || !slices.Contains(qt.trans, "belul") || j+1 == len(q.terms) {
		return false
	}
	o := &q.terms[j+1]
	if o.clause != qt.clause || o.part != qt.part {
		return false
	}
	for _, ws := range [][]term{f.keys, f.body} {
		for i := range ws {
			if !ws[i].english && locative(&ws[i], o.fold) && match(&o.term, &ws[i]) >= sameIdea {
				return true
			}
		}
	}
	return false
}

// locative reports whether a Hungarian word is its lemma, or the word asked about (a name
// the dictionary may stem wrongly: "Szegeden" is no "szeg"), with a suffix of being in or on a
// place: "-ban", "-ben" (in), "-on", "-en", "-n" (on, and in a town: "Budapesten", "Tatán").
func locative(t *term, asked string) bool {
	suffixed := func(stem string) bool {
		rest, ok := strings.CutPrefix(t.fold, stem)
		return ok && stem != "" && locativeSuffixes[rest]
	}
	return suffixed(asked) || slices.ContainsFunc(t.lemmas, suffixed)
}

// locativeSuffixes are the case endings of being in or on a place, folded.
var locativeSuffixes = wordSet("ban ben on en n")

// choose picks the facts that answer the query, at most two: the best matched, then one that
// matches words of the question the first left unanswered, as in "Mennyi a garancia és hol
// vannak?". Intents add weight to the facts they ask for (opening hours, the description). Of
// a price question (priced) a priced service answers first rather than an FAQ that only
// mentions what it names (pricedOverFAQ).
func choose(ss []scored, q query, in Intent, priced bool) []scored {
	used := make([]bool, len(q.terms))
	var out []scored
	for len(out) < 2 {
		best, bestRank := -1, 0.0
		top, second := 0.0, 0.0 // the two highest ranks of the facts that could answer
		for i, s := range ss {
			if chose(out, s.kind) && s.kind != factFAQ && s.kind != factService || slices.ContainsFunc(out, func(o scored) bool { return sameFact(o.fact, s.fact) }) {
				continue
			}
			if passedOver(ss, out, q, priced, s) {
				continue
			}
			if len(out) > 0 && priced && !s.pricedFor(q) && q.onlyPricePart(s, used) {
				continue // "How much is the course for a car licence?" is not the first-aid course's FAQ
			}
			rank, fresh, topical := 0.0, false, false
			for j, c := range s.contrib {
				if c > 0 && !used[j] {
					rank += c
					fresh = fresh || s.strongAt[j]
					topical = topical || s.strongAt[j] && q.terms[j].weight >= 1 && !durationWords[q.terms[j].fold]
				}
			}
			if len(out) == 0 && fixedFact(s.kind) && topical && !s.namesAHead(q) {
				continue // "Van hétvégi vezetési óra?": the weekend's hours are no driving lesson
			}
			if len(out) > 0 && fixedFact(s.kind) && s.qualifiesOnly(q, used) {
				continue // nor the second answer, when the first is about the lesson
			}
			if len(out) == 0 && q.namesTopic() && !topical {
				continue // the first answer must be about what the question names, not share a "mennyi idő"
			}
			if in.Hours && s.kind == factHours && len(out) == 0 {
				rank, fresh = rank+1, true
			}
			if !fresh || len(out) > 0 && s.kind == factAbout {
				continue // the description mentions all the company does: no second answer
			}
			if rank > top {
				top, second = rank, top
			} else if rank > second {
				second = rank
			}
			switch {
			case best >= 0 && named(s.kind) && named(ss[best].kind) && rank < bestRank*(1+nearTie) && rank > bestRank*(1-nearTie):
				// As good as the best: the one that names the question's words as words, not
				// as parts ("vizsgálat" is "Általános vizsgálat" more than "Laborvizsgálat").
				// Only entries with names of their own: an address's or a description's
				// words name no topic the visitor could mean by name. Before that, an FAQ
				// asked with the visitor's question words: "Hogy tudok tortát rendelni?" is
				// "Hogyan tudok rendelni?", not "Mennyi idővel előre kell tortát rendelni?".
				if a, b := askedAlike(s, q), askedAlike(ss[best], q); a && !b || a == b && keyStrength(s, q) > keyStrength(ss[best], q) {
					best, bestRank = i, max(rank, bestRank)
				}
			case best >= 0 && fixedFact(s.kind) && named(ss[best].kind) && !q.where && rank < bestRank*(1+fixedTie) && ss[best].keyCover > 0 &&
				!(contactKind(s.kind) && q.asksContactOnly()):
				// The words that ask for an address or a phone are general ("iroda", office);
				// an entry of the company's own that names the word is what a question of no
				// "where" means: "Irodát is takarítotok?" asks about office cleaning. A question of
				// nothing but a word of reaching ("Tel?") asks for the phone or email itself.
			case best >= 0 && alikeOverAuxiliary(ss[best], s, q, used):
				// the FAQ asked alike keeps its place (alikeOverAuxiliary)
			case rank > bestRank || best >= 0 && alikeOverAuxiliary(s, ss[best], q, used):
				best, bestRank = i, max(rank, bestRank)
			}
		}
		if best < 0 {
			break
		}
		if len(out) == 0 {
			if i := sibling(ss, best, q, priced); i >= 0 {
				best = i
			}
			if priced && ss[best].kind == factFAQ {
				if i := pricedOverFAQ(ss, q, ss[best]); i >= 0 {
					best = i
				}
			}
		}
		if len(out) > 0 && ss[best].keyCover == 0 && second > top*(1-nearTie) {
			// The words the first answer left are said alike by two facts, neither by a word
			// of its name: "Do you make frames for windows?" of a picture framer whose parking
			// and delivery answers both mention a window asks about neither. A second answer
			// picked among equals states a fact the question did not ask for.
			break
		}
		out = append(out, ss[best])
		// A word the answer says only as a part of another ("részlet" in "alkatrészek")
		// is not answered by it, and stays for a second answer that says it.
		for j, c := range ss[best].contrib {
			if c > 0 && ss[best].hit[j] >= bodyWeight*sameIdea {
				used[j] = true
			}
		}
	}
	if priced && len(out) == 2 && q.onePart() && out[0].keyCover == 0 && out[1].keyCover == 0 {
		// One price asked of one thing, whose words two priced entries each hold only in
		// what they say, neither by its name ("Mennyibe kerül egy óra a rutinpályán?": one
		// course names the practice ground, another its hours of driving): neither is the
		// thing asked about, and both prices would state other entries' facts. The first
		// must answer alone, or the question goes to a colleague.
		out = out[:1]
	}
	if !slices.ContainsFunc(out, func(s scored) bool { return s.namesTheDay(q) }) {
		return nil // "Is there a lesson on Saturday?" asks of a day: entries that name none say nothing of it
	}
	return out
}

// passedOver reports whether choose passes over s as the next answer after out, whatever
// its rank: an FAQ another entry says better (saidBetterElsewhere, askedOtherwise), or a
// first answer that cannot give the kind of answer asked.
func passedOver(ss, out []scored, q query, priced bool, s scored) bool {
	if s.kind == factFAQ && (saidBetterElsewhere(ss, out, q, s) || askedOtherwise(ss, out, q, s)) {
		return true
	}
	if q.mustBook && s.kind == factHours {
		return true // "Hétvégére kell asztalt foglalni?" asks a rule, which no opening hours state
	}
	if len(out) > 0 {
		return false
	}
	// The first answer of a how-long question states a length; of a question of the price
	// and the length, the price ("Mennyibe kerül és mennyi ideig tart?"), and the length may
	// come second. "Hánytól hányig lehet reggelizni?": an entry that states a time of day.
	// "How much is the rabies shot, and from what age...": the shot's price first.
	return priced && (!s.pricedFor(q) || !q.inPricePart(s)) ||
		!priced && (q.duration && !s.lasts(q) || q.timeAsked && !s.clock || q.ahead && !s.ahead && statedAhead(ss) || q.dayAsked && !namesADay(s))
}

// sibling is the entry to answer first instead of ss[best], or -1: one whose compound name
// the question says whole, when ss[best]'s name, a compound that shares a part with it, is
// matched by one word only. Two compounds of one head name two things ("ajtónyitás", door
// opening, and "autónyitás", car opening), as do two of one first part ("autónyitás",
// "autókulcs"): the visitor who says the door and the opening asks of the door's, however
// well the other entry's description tells the visitor's story. The sibling must be one choose
// could answer first with (passedOver).
func sibling(ss []scored, best int, q query, priced bool) int {
	b := ss[best]
	if !named(b.kind) || b.whole != 0 || b.part == 0 {
		return -1
	}
	out := -1
	for i, s := range ss {
		if i == best || !named(s.kind) || s.whole == 0 || rank(s) == 0 || passedOver(ss, nil, q, priced, s) {
			continue
		}
		if sharesPart(&b.keys[b.part-1], &s.keys[s.whole-1]) && (out < 0 || rank(s) > rank(ss[out])) {
			out = i
		}
	}
	return out
}

// sharesPart reports whether two compounds share their first part or their last, and differ
// in the other: "ajtónyitás" and "autónyitás", "autónyitás" and "autókulcs".
func sharesPart(a, b *term) bool {
	la, lb := len(a.parts)-1, len(b.parts)-1
	return a.parts[0] == b.parts[0] && a.parts[la] != b.parts[lb] || a.parts[0] != b.parts[0] && a.parts[la] == b.parts[lb]
}

// asksContactOnly reports whether every topic word of the query is a word of reaching the
// company (its phone, email or address: "Tel?", "Telefonszám?"): it asks for that and names
// nothing else an entry could be about.
func (q query) asksContactOnly() bool {
	n := 0
	for _, t := range q.terms {
		if t.weight < 1 {
			continue
		}
		if t.concepts&contactConcepts == 0 || t.mine {
			return false
		}
		n++
	}
	return n > 0
}

// modifier reports whether the query's topic word j stands right before another topic word
// of its clause, which it qualifies: "hétvégi" in "hétvégi vezetési óra", "weekend" in
// "weekend lessons". The last word of such a run is what the phrase names.
func (q query) modifier(j int) bool {
	if j+1 >= len(q.terms) {
		return false
	}
	a, b := &q.terms[j], &q.terms[j+1]
	if !a.english && a.stemmed && a.lemmas[0] != a.fold && !adjectiveOf(&a.term) {
		return false // a noun with a case ending ("szombaton", on Saturday) qualifies no noun after it
	}
	return a.weight >= 1 && b.weight >= 1 && b.at == a.next && a.clause == b.clause
}

// namesAHead reports whether the fact matches, strongly, a topic word of the query that
// qualifies no other: a fact that matches only the qualifiers of what is asked is about
// something else that shares a word with it.
func (s scored) namesAHead(q query) bool {
	for j, ok := range s.strongAt {
		if ok && q.terms[j].weight >= 1 && !q.modifier(j) {
			return true
		}
	}
	return false
}

// namesAHeadAsItself is namesAHead without the head words its keys match only as the first
// part of a longer compound: the head of a Hungarian compound is its last part, so
// "szemüvegkeretek" (spectacle frames) are frames, and a question of "szemüveg" (spectacles)
// does not name them, though the two words begin alike enough to match as one.
func (s scored) namesAHeadAsItself(q query) bool {
	for j, ok := range s.strongAt {
		if !ok || q.terms[j].weight < 1 || q.modifier(j) {
			continue
		}
		qt := &q.terms[j].term
		keyed, itself := false, false
		for _, ks := range [][]term{s.keys, s.joined} {
			for ki := range ks {
				if match(qt, &ks[ki]) >= sameIdea {
					keyed = true
					itself = itself || !beginsCompound(qt, &ks[ki])
				}
			}
		}
		if !keyed || itself {
			return true
		}
	}
	return false
}

// beginsCompound reports whether the visitor's word is only the first part of the profile's
// longer compound: "defekt" of "defektjavítás"; an English word whose lexicon words give that
// part and neither the whole nor a later part: "window" of "ablakpucolás" (window cleaning).
func beginsCompound(q, k *term) bool {
	if q.english {
		return len(k.parts) > 1 && q.translatedTo(k.fold, k.lemmas) < 0 && q.headTranslatedTo(k.fold, k.lemmas, &k.ends) < 0 &&
			q.translatedTo("", k.parts[:1]) >= 0 && q.translatedTo("", k.parts[1:]) < 0
	}
	ql, kl := q.lemmas[0], k.lemmas[0]
	return len(ql) >= 4 && len(kl) >= len(ql)+3 && strings.HasPrefix(kl, ql)
}

// namesTheDay reports whether the fact matches each of the query's topic words that name a
// day of the week, the weekend or a holiday ("szombaton", "weekend"), so that it can say what
// happens then.
func (s scored) namesTheDay(q query) bool {
	for j := range q.terms {
		if q.terms[j].weight >= 1 && isDay(&q.terms[j].term) && s.hit[j] == 0 && s.kind != factHours {
			return false
		}
	}
	return true
}

// isDay reports whether a word names a day of the week, the weekend or a holiday.
func isDay(t *term) bool {
	return t.concepts&dayConcept != 0 && slices.ContainsFunc(dayStems, func(d string) bool { return strings.HasPrefix(t.fold, d) })
}

// dayStems begin the words of days (dayNames), the weekend and holidays.
var dayStems = func() []string {
	out := []string{"hetveg", "unnep", "weekend", "holiday"}
	for _, n := range dayNames {
		out = append(out, n.stem)
	}
	return out
}()

// dayConcept is the bit of the concept of opening days and hours.
var dayConcept = conceptsOf("szombat")

// qualifiesOnly reports whether the topic words the fact matches strongly, of those not used
// yet, are all adjectives that qualify the next word ("hétvégi" of "hétvégi vezetési óra"), or
// English words before a noun of no everyday concept ("weekend" of "weekend lessons", not of
// "weekend appointments", which the opening hours answer): the fact would add what the thing
// asked about is like, not another thing asked.
func (s scored) qualifiesOnly(q query, used []bool) bool {
	found := false
	for j, ok := range s.strongAt {
		if !ok || used[j] || q.terms[j].weight < 1 {
			continue
		}
		if !q.modifier(j) || !adjectiveOf(&q.terms[j].term) && !(q.terms[j].english && q.terms[j+1].concepts == 0) {
			return false
		}
		found = true
	}
	return found
}

// adjectiveOf reports whether a Hungarian word is an adjective made of its lemma with "-i"
// ("hétvégi" of "hétvége", "budapesti" of "Budapest"), which qualifies the word after it.
func adjectiveOf(t *term) bool {
	l := t.lemmas[0]
	return !t.english && strings.HasSuffix(t.fold, "i") && l != t.fold && len(l) >= 3 && strings.HasPrefix(t.fold, l[:len(l)-1])
}

// inPricePart reports whether the fact matches strongly a topic word of a part of the message
// that asks a price, or the price is asked of no part with topic words of its own, or all of
// the message is one part.
func (q query) inPricePart(s scored) bool {
	topical, split := false, false
	for _, t := range q.terms {
		if t.weight < 1 {
			continue
		}
		split = split || t.part != q.terms[0].part
		if q.priceParts&partBit(t.part) != 0 {
			topical = true
		}
	}
	if !topical || !split {
		return true
	}
	for j, ok := range s.strongAt {
		if ok && q.terms[j].weight >= 1 && q.priceParts&partBit(q.terms[j].part) != 0 {
			return true
		}
	}
	return false
}

// onlyPricePart reports whether the topic words the fact matches strongly, of those not used
// yet, all stand in parts of the message that ask a price (the whole of a one-part message
// that asks one): a fact without a price answers none of them.
func (q query) onlyPricePart(s scored, used []bool) bool {
	for j, ok := range s.strongAt {
		if ok && !used[j] && q.terms[j].weight >= 1 && q.priceParts&partBit(q.terms[j].part) == 0 {
			return false
		}
	}
	return true
}

// partBit is the bit of a part of the message in a set of parts; parts past the 63rd share one.
func partBit(part int) uint64 { return 1 << min(part, 63) }

// named reports whether facts of the kind have a name a visitor asks by: an FAQ's question,
// a service's name.
func named(k factKind) bool { return k == factFAQ || k == factService }

// fixedFact reports whether facts of the kind are the contact details or opening hours, which
// general words ask for.
func fixedFact(k factKind) bool {
	return k == factHours || k == factAddress || k == factPhone || k == factEmail
}

// contactKind reports whether facts of the kind are a way to reach the company: its phone
// or its email.
func contactKind(k factKind) bool { return k == factPhone || k == factEmail }

// fixedTie is how much more, as a share, a fixed fact's rank must be than a named entry's to
// answer in its place.
const fixedTie = 0.25

// nearTie is how close, as a share, two facts' ranks are for the words they match to decide.
const nearTie = 0.05

// keyStrength is the sum of the best matches of the fact's keys to the question's topic words.
func keyStrength(s scored, q query) float64 {
	sum := 0.0
	for j, h := range s.hit {
		if s.strongAt[j] && q.terms[j].weight >= 1 {
			sum += h
		}
	}
	return sum
}

// lasts reports whether the fact says how long something takes ("4–6 hét", "90-minute"), in
// a unit that is not what the question asks about: "How long is a lesson?" is not answered by
// "24 órával előtte lemondható" (cancel 24 hours before), whose unit is the lesson ("óra")
// itself, but by "50 perces óra".
func (f fact) lasts(q query) bool {
	if f.kind == factHours {
		return true // "Pénteken meddig vagytok?" asks until when
	}
	if f.until && slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.fold == "meddig" }) {
		return true // "Meddig tart a tárolás?" asks until when too: "március 31-ig"
	}
	for i := range f.units {
		if !slices.ContainsFunc(q.terms, func(t queryTerm) bool {
			return t.weight >= 1 && !durationWords[t.fold] && match(&t.term, &f.units[i]) >= sameIdea
		}) {
			return true
		}
	}
	return false
}

// untilDate finds a day of the month with the ending "-ig" (until): "március 31-ig".
var untilDate = regexp.MustCompile(`\b\d{1,2}\.?-ig\b`)

// durationUnits returns, as terms, the units of time of the lengths a text states: a number
// before a unit of time ("4–6 hét", "50 perces", "two hours", "90-minute"). A word of time
// alone names the thing, not its length: "Az órák az iroda elől indulnak" (the lessons start
// at the office) says nothing of how long a lesson is.
func durationUnits(s string) []term {
	var out []term
	ws := words(s)
	for u := range counted(ws) {
		// The unit, or the word after one that qualifies it: "3 working days", not "Ft / óra".
		for k, w := range ws[u:min(u+2, len(ws))] {
			if w == clauseBreak || k > 0 && (isNumber(ws[u]) || currency.MatchString(fold(ws[u]))) {
				break
			}
			if ofAge(ws, u+k) {
				break // "4–6 hónapos kölyköknek": how old, not how long
			}
			if t := makeTerm(w, false, true); unitOfTime(&t) {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// years are the units of time the concepts leave out, which name an age as often as a span.
var years = wordSet(`ev evig eves year`)

// numberWord matches a folded number written in words: "két", "másfél", "twenty".
var numberWord = regexp.MustCompile(`^` + numberWordRE + `$`)

// currency matches a folded word that names a currency: "ft", "forint".
var currency = regexp.MustCompile(`^` + currencyRE + `$`)

// unitOfTime reports whether a profile word is a unit of time, or made of one by a suffix
// ("perces", "órán", "napos") or as the end of a compound ("munkanap"); English plurals too.
func unitOfTime(t *term) bool {
	if t.concepts&durationConcept != 0 || conceptsOf(strings.TrimSuffix(t.fold, "s"))&durationConcept != 0 ||
		slices.ContainsFunc(t.lemmas, func(l string) bool { return years[l] }) || years[strings.TrimSuffix(t.fold, "s")] {
		return true
	}
	return len(t.parts) > 0 && conceptsOf(t.parts[len(t.parts)-1])&durationConcept != 0
}

// onePart reports whether all the query's words stand in one part of the message: one clause,
// with no "és" (and) joining two questions in it.
func (q query) onePart() bool {
	return !slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.part != q.terms[0].part })
}

// topical reports whether the query has a word that names its topic, not only generic ones.
func (q query) topical() bool {
	return slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.weight >= 1 })
}

// priced reports whether the fact states a price: a service with one, or an FAQ answer that
// names an amount.
func (f fact) priced() bool { return f.price }

// pricedFor reports whether the fact states the price q asks: any price, or of a question of
// a price relative to another ("Éjszaka mennyivel drágább?") a relative one ("50% felár").
// A percentage is no answer to what a thing costs.
func (f fact) pricedFor(q query) bool { return f.price || q.relative && f.relativePrice }

func sameFact(a, b *fact) bool {
	return a.kind == b.kind && a.faq == b.faq && a.service == b.service && a.value == b.value
}

// askedAlike reports whether an FAQ's own question asks with the question words of the
// visitor's, which ask something: "Hogy tudok rendelni?" is asked as "Hogyan tudok rendelni?",
// not as "Mennyi idővel előre kell rendelni?".
func askedAlike(s scored, q query) bool {
	return s.kind == factFAQ && q.asks != 0 && asksOf(s, q) == q.asks
}

// interrogatives returns a bit for each kind of question word a text holds: how many, how
// much, when, where, why, how, what or which, whom. A yes-or-no question holds none. "Ki"
// (who) is left out: it is as often a verb's prefix ("Ki tudtok jönni?", can you come out?).
func interrogatives(text string) uint64 { return asked(tokens(text)) }

// asked is interrogatives of a text's folded words.
func asked(folded []string) uint64 {
	var out uint64
	for i, f := range folded {
		out |= interrogativeKinds[f]
		if f == "how" && i+1 < len(folded) && (folded[i+1] == "many" || folded[i+1] == "much") {
			out |= 1 // the count or amount, as "hány" and "mennyi" ask
		}
	}
	return out
}

// interrogativeKinds holds a bit for each kind of question word, folded: the count or amount,
// the time, the place, the reason, the manner, the thing or kind, the person.
var interrogativeKinds = func() map[string]uint64 {
	out := map[string]uint64{}
	for k, group := range []string{
		"hany hanyan hanyat hanyszor hanyadik mennyi mennyit mennyibe mennyien mennyire mekkora",
		"mikor hanykor mettol meddig miota when",
		"hol hova honnan merre where",
		"miert why",
		"hogyan hogy how",
		"mi mit mik mibol mire mirol miben mivel milyen melyik melyiket what which",
		"kik kit kinek kiknek kivel kitol who whom",
	} {
		for _, w := range strings.Fields(group) {
			out[w] |= 1 << k
		}
	}
	return out
}()
