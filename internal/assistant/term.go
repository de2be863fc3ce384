package assistant

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	snowballHungarian "github.com/kljensen/snowball/hungarian"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// term is one word of a visitor's message or of a profile, in the forms that matching
// compares: folded (lower case, no accents); its Hungarian dictionary lemmas (Hunspell's
// stems and suffixes: "szombaton" is "szombat", "foglalást" is "foglal"), or its Snowball
// stem for a word the dictionary does not know; the parts of a compound ("fogkőeltávolítás":
// "fogkő", "eltávolít"); its English Snowball stem; and, for a word of an English question, the
// Hungarian words the bilingual lexicon gives for it. Folding first lets a visitor who types
// without accents match.
type term struct {
	fold   string
	lemmas []string
	parts  []string
	en     string
	// key is an English word's key in the lexicon (see morph.EnglishKey), "" when the
	// lexicon lacks the word.
	key   string
	trans []string
	// english is set for a word of an English question or an English profile text.
	english bool
	// stemmed is set when the dictionary's rules found the first of lemmas (morph's Stems),
	// not its looser lemmas or Snowball.
	stemmed bool
	// gloss holds the English stems the Hungarian–English dictionary gives a profile word's
	// lemma, partGloss those of its compound parts: the other direction from trans, whose
	// English word may list the profile's word too late or not at all. partGloss holds each
	// part's first mainSenses glosses, partMain of them, before the parts' later ones.
	gloss, partGloss []string
	partMain         int
	// glossStart has a bit for each of gloss and partGloss (see startBit), to pass over most
	// words without comparing the query word to each gloss.
	glossStart [4]uint64
	// transStart has a bit for the first three letters of each of trans (see headBit), to pass
	// over the profile's words that no translation can match without comparing each: one
	// translates only a word of its first three letters (see translatedToAny).
	transStart [4]uint64
	// transEnd has a bit for the last letters of each of trans, ends one for those of fold
	// and each of lemmas and parts (see endBit): a compound and its last word end alike.
	transEnd, ends [4]uint64
	// same holds the lemmas the Hungarian thesaurus gives as synonyms of a Hungarian word's
	// lemma, sameStart a bit for each (see startBit).
	same      []string
	sameStart [4]uint64
	concepts  uint64 // the concepts the word belongs to, one bit each (see concepts)
	// sound is the word as spelling-neutral letters (see soundOf), for an English word its
	// Snowball stem's: an international word English and Hungarian spell apart
	// ("diagnostics", "diagnosztika") sounds alike.
	sound string
	// byFirst finds trans by their first letters; made by translatedTo on first use.
	byFirst *transIndex
	// split is set for an English word whose trans are its parts' words, agent for one whose
	// trans end with its verb's first words (see agentBase).
	split, agent bool
	// typo is set for an English word the lexicon lacks whose trans are those of the word one
	// typo away.
	typo bool
	// function is set for an English word whose first Hungarian words are function words
	// (see functionWord): a preposition or adverb that carries no topic.
	function bool
	// id numbers the word among an index's words (see numberTerms), -1 outside one.
	id int32
	// negated is set for the first content word after a negation in its clause: "sikerül" in
	// "Mi van, ha nem sikerül a vizsga?" (see negatedWords).
	negated bool
	// eitherWay is set for a negated word that a question opening with its negator asks of
	// either polarity: "diákkedvezmény" in "Nincs diákkedvezmény?" (see negatedWords).
	eitherWay bool
	// unit is the unit of measure or currency the word names (see unitTable): "nm" and
	// "négyzetméter" are "m2".
	unit unitID
	// quantity is set for a number with its unit as one word ("60m2", see quantityAt).
	quantity bool
	// asks is, for the question word of a measure ("mekkora", how big), what it asks to be
	// measured (see measureAsked).
	asks measure
	// lacks is, for a word made with a suffix of lack, the stem it lacks: "cukor" (sugar) of
	// "cukormentes" (sugar-free), whose lemma is the whole word (see lackOf).
	lacks string
	// act is, for a profile word that is a verb's action noun or ends in one, the verb
	// ("fáj", ache, of "hátfájással", with back pain; see actionVerb).
	act string
	// bare is, for a profile word of a verbal prefix and a verb, or a verb's action noun,
	// that verb without the prefix, and pre the prefix's length ("elszállítás": "szállít"
	// after "el"; see prefixedVerb). A visitor's word has pre when its first lemma is the
	// verb without the prefix ("elhozni": "hoz"; see prefixOf).
	bare string
	pre  uint8
	// ownPrefix is set for a visitor's prefixed verb that the profile says with its prefix
	// (see saysPrefixed): the prefix tells it from the bare verb there.
	ownPrefix bool
	// noun is set for an English visitor's word right after an article or a possessive
	// ("my house", "a seat"), which is a noun there; verb for a Hungarian profile word whose
	// first lemma is a verb (see verbal). A verb's glosses are its English verbs: "fogad"
	// (receive) glosses "house" (to house someone), which "my house" is not.
	noun, verb bool
	// per is set for a profile word that a price counts by (see perUnit): a unit, often
	// short for a longer word ("hó" for "hónap", month), whose Hungarian glosses are those
	// of another word spelled alike ("hó", snow). An English word matches it by those
	// glosses only when the visitor counts by it too (counts).
	per bool
	// counts is set for an English visitor's word said as what something is counted by
	// ("per night", "a night", "each day", see countedBy): it matches a price's unit word
	// (per) by its glosses too.
	counts bool
	// headConcepts are the concepts the word has only by its compound's last part
	// ("hűségkártya", loyalty card, is of paying by its "kártya", card): a kind of the
	// concept's thing, not the thing itself.
	headConcepts uint64
	// follows holds, for a word of a profile text, the places among the text's terms of the
	// words that come right after it somewhere in the text, stop words aside ("automata" in
	// "csak automata autóra" is followed by "autóra"): a phrase the text says.
	follows []int32
}

// newTerm makes a term of a visitor's lower-case word; english adds the lexicon's Hungarian
// words.
func newTerm(lower string, english bool) term { return makeTerm(lower, english, false) }

// makeTerm makes a term; a profile word is split into its parts even when the dictionary
// knows it whole ("hajfestés": "haj", "festés"), which costs once per profile.
func makeTerm(lower string, english, profile bool) term {
	lang := morph.Load()
	f := fold(lower)
	// An English word is stemmed once: its lexicon key and its stem come of one lookup.
	var key, stem string
	if english {
		key, stem = lang.EnglishKey(f)
	} else {
		stem = morph.EnglishStem(lower)
	}
	t := term{fold: f, en: fold(stem), key: key, concepts: conceptsOf(f), id: -1, english: english}
	if len(f) <= maxTermLen && !english {
		// An English word is no Hungarian word with suffixes: "used" is not "us" and "-ed".
		// The stems the dictionary's rules give come first; the looser lemmas after them
		// still find a word the rules miss.
		t.lemmas = lang.Stems(f)
		t.stemmed = len(t.lemmas) > 0
		compounded := len(t.lemmas) == 0 && len(f) >= minSplit
		if compounded {
			// A compound the dictionary lacks, read by its compounding rules, is its parts:
			// "napelemet" (solar panel) is "nap" and "elem", not "nap" (day) with a rest
			// stripped as a suffix.
			if c := lang.Compound(f); len(c) > 1 {
				t.parts = c
			}
		}
		for _, l := range lang.LooseLemmas(f) {
			if t.parts == nil && !slices.Contains(t.lemmas, l) && len(t.lemmas) < maxLemmas {
				t.lemmas = append(t.lemmas, l)
			}
		}
		if t.parts == nil && (len(t.lemmas) == 0 || !lang.Known(t.lemmas[0]) || profile && len(f) >= minSplit) {
			split := lang.Split
			if compounded {
				split = lang.SplitHead // Compound has not split it
			}
			if h, tail := split(f); h != "" && !cutsVerb(f, h) {
				t.parts = append([]string{h}, tail...)
			}
		}
	}
	saving := false
	if !english && len(f) <= maxTermLen {
		lackOf(&t, lower)
		saving = savingCompound(&t, lower)
	}
	if !english && !profile && len(t.lemmas) > 0 {
		t.pre = prefixOf(f, t.lemmas[0])
	}
	switch {
	case english:
		t.lemmas = []string{f}
	case len(t.lemmas) == 0:
		t.lemmas = []string{fold(snowballHungarian.Stem(lower, false))}
	default:
		for _, l := range t.lemmas {
			t.concepts |= conceptsOf(l) // "héten" is "hét" (and a word of its own, "heten")
		}
	}
	if t.concepts != 0 {
		t.headConcepts = t.concepts &^ ownConcepts(&t, lang)
	}
	setEndBit(&t.ends, f)
	for _, l := range t.lemmas {
		setEndBit(&t.ends, l)
	}
	for _, p := range t.parts {
		setEndBit(&t.ends, p)
	}
	if !english {
		t.same = lang.Synonyms(t.lemmas[0])
		// A suffix of lack is one of several ("díjmentes", "díjtalan": free of charge): the
		// word is also its stem with the others, and has their synonyms ("ingyen", free).
		var lacking []string
		if !saving { // "adatmentés" lacks nothing
			lacking = lang.Lacking(t.lemmas[0])
		}
		for _, l := range lacking {
			if !slices.Contains(t.lemmas, l) && len(t.lemmas) < maxLemmas {
				t.lemmas = append(t.lemmas, l)
			}
			t.same = append(t.same, lang.Synonyms(l)...)
		}
		for _, s := range t.same {
			setStart(&t.sameStart, s)
		}
	}
	if profile && !english {
		// A word the dictionary glosses as it stands is glossed so: "esküvő" is a wedding
		// before it is the participle of "esküszik" (swear), its first stem.
		if t.gloss = lang.Glosses(f); t.gloss == nil {
			t.gloss = prefixedGloss(f, t.lemmas[0])
		}
		if t.gloss == nil {
			t.gloss = lang.Glosses(t.lemmas[0])
		}
		var late []string
		for _, p := range t.parts {
			g := lang.Glosses(p)
			n := min(mainSenses, len(g))
			t.partGloss, late = append(t.partGloss, g[:n]...), append(late, g[n:]...)
		}
		t.partMain = len(t.partGloss)
		t.act = actionVerb(&t)
		t.bare, t.pre = prefixedVerb(f)
		t.partGloss = append(t.partGloss, late...)
		t.markGlossStarts()
	}
	if english {
		t.sound = soundOf(t.en)
	} else if profile {
		t.sound = soundOf(f)
	}
	if english {
		t.trans = lang.EnglishOf(f, key)
		if base, ok := agentBase(f); ok && len(t.trans) <= maxAgentOwn {
			// "charger" is one who charges: the lexicon's few words for it may all be
			// another sense ("csataló", a warhorse); the verb's first words follow them.
			if k, _ := lang.EnglishKey(base); k != "" {
				verb := lang.EnglishAt(k)
				for _, h := range verb[:min(agentVerbWords, len(verb))] {
					if !slices.Contains(t.trans, h) {
						t.trans, t.agent = append(t.trans, h), true
					}
				}
			}
		}
		if t.trans == nil && len(f) <= maxTermLen {
			// A visitor's typo ("cleen") is the word one letter away.
			if k := lang.EnglishTypo(f, stem); k != "" {
				t.trans, t.typo = lang.EnglishAt(k), true
			}
		}
		// A compound the lexicon lacks takes its parts' words ("haircut": "haj", "vágás"),
		// each of which names a part of it only.
		t.split = len(t.trans) > 0 && key == "" && !t.typo
		t.function = !t.split && functionWord(t.trans)
		closed := closedWords[f] && !t.split
		if closed {
			// A preposition's own words are the function words among its translations
			// ("outside": "kívül" seventh, after "külső", the outer side): they come first.
			slices.SortStableFunc(t.trans, func(a, b string) int {
				switch fa, fb := lang.FunctionOnly(a), lang.FunctionOnly(b); {
				case fa && !fb:
					return -1
				case fb && !fa:
					return 1
				}
				return 0
			})
		}
		for i, h := range t.trans {
			if fo := lang.FunctionOnly(h); fo && !closed || !fo && lang.Prefix(h) {
				// A word of no topic ("meg", a verbal prefix, all the dictionary finds of
				// "megsért") translates nothing; its rank stays, as the lexicon ranks the rest.
				t.trans[i] = ""
			}
		}
		t.markTrans()
	}
	return t
}

// actionVerb returns the verb whose action noun ("-ás", "-és") a profile word is, or the
// last of its compound parts that is one: "fáj" of "fájással" and of "hátfájással". "" when
// none is.
func actionVerb(t *term) string {
	lang := morph.Load()
	for i := len(t.parts) - 1; i >= 0; i-- {
		if v := lang.ActionVerb(t.parts[i]); v != "" {
			return v
		}
	}
	for _, l := range t.lemmas {
		// ActionVerb reads the lemma's letters and the two after them: "fajas" of "fajassal".
		if n := len(l) + 2; len(t.fold) >= n && strings.HasPrefix(t.fold, l) && lang.ActionVerb(t.fold[:n]) == l {
			return l
		}
	}
	return ""
}

// prefixedVerb returns the verb of a folded word made of a verbal prefix and a form of a verb
// or of its action noun, and the prefix's length: "szallit" and 2 of "elszallitast"
// (elszállítást), "hoz" of "elhozzuk" (we fetch it). "" when f is none.
func prefixedVerb(f string) (string, uint8) {
	lang := morph.Load()
	for _, p := range lang.Prefixes() {
		rest, ok := strings.CutPrefix(f, p)
		if !ok || len(rest) < 3 {
			continue
		}
		for _, s := range lang.Stems(rest) {
			if v := lang.ActionVerb(s); v != "" {
				return v, uint8(len(p))
			}
			if lang.Verb(s) {
				return s, uint8(len(p))
			}
		}
		return "", 0
	}
	return "", 0
}

// prefixOf returns the length of the verbal prefix that a visitor's word f begins with and
// its first lemma, the verb the dictionary's rules read, lacks ("elhozni": "hoz"; "elvinni":
// "visz", an irregular verb that an infinitive shows), 0 when none.
func prefixOf(f, lemma string) uint8 {
	lang := morph.Load()
	for _, p := range lang.Prefixes() {
		if strings.HasPrefix(f, p) && len(f) >= len(p)+3 && !strings.HasPrefix(lemma, p) && (lang.Verb(lemma) || infinitive(f[len(p):])) {
			return uint8(len(p))
		}
	}
	return 0
}

// prefixedMatch tells how well the visitor's word matches the profile's prefixed verb k as a
// verb with the same verbal prefix: as one word when its verb is k's ("elszállítani",
// "elszállítás": transport away), as a synonym when the thesaurus gives k's verb as one of its
// own ("elvinni", carry away: "visz" ~ "szállít"), as it does for the bare verbs; 0 when the
// prefixes differ or the verbs are not kin. The prefix says where the action goes, which the
// verbs alone do not: "vinni" is no "elszállítás".
func prefixedMatch(q, k *term) float64 {
	p := k.fold[:k.pre]
	if !strings.HasPrefix(q.fold, p) || strings.HasPrefix(q.lemmas[0], p) || len(q.fold) < len(p)+3 {
		return 0
	}
	if morph.Load().LongerPrefix(q.fold, p) {
		return 0 // "előre" is no "el"
	}
	switch {
	case q.lemmas[0] == k.bare:
		return related
	case startIn(&q.sameStart, k.bare) && slices.Contains(q.same, k.bare):
		return synonym
	}
	return 0
}

// lackOf makes a word built with a suffix of lack ("cukormentes", sugar-free; "hibátlan",
// flawless) its whole lemma, not the bare stem the rules strip it to: it is the stem's
// absence, the opposite idea, and no form of it. Its parts (the stem and "mentes") go too.
// "mentés" (saving) folds to "mentes": a word written with it is no word of lack.
func lackOf(t *term, lower string) {
	if strings.Contains(lower, "mentés") {
		return
	}
	w, stem := morph.Load().LackWord(t.fold)
	if w == "" {
		return
	}
	t.lemmas, t.parts, t.lacks, t.stemmed = append(t.lemmas[:0], w), nil, stem, true
}

// lackPhrase reads the English pair a, b ("sugar-free", "tax-exempt") as Hungarian builds it:
// a noun with a suffix of lack ("cukormentes"), when b is such a suffix in both dictionaries
// (see morph.EnglishLack). Its words are those the rules read as each of a's words with the
// suffix, in a's order ("" keeps the rank of a word that makes none), so that "interest-free"
// is "kamatmentes" as "interest" is "kamat". ok is false when b is no suffix or none of a's
// words makes a word of lack: the pair is then its two words.
func lackPhrase(lowerA, a, b string) (t term, ok bool) {
	lang := morph.Load()
	s := lang.EnglishLack(b)
	if s == "" {
		return term{}, false
	}
	w := newTerm(lowerA, true)
	trans, lacks := make([]string, len(w.trans)), ""
	for i, h := range w.trans {
		if h != "" {
			trans[i] = lang.LackOf(h, s)
		}
		if lacks == "" && trans[i] != "" {
			lacks = h
		}
	}
	if lacks == "" {
		return term{}, false
	}
	// The pair names the lack of a's idea, none of a's or b's: no concept, no sound of a.
	t = term{fold: a + b, en: w.en, key: w.key, id: -1, english: true, agent: w.agent,
		lemmas: []string{a + b}, trans: trans, lacks: lacks}
	setEndBit(&t.ends, t.fold)
	t.markTrans()
	return t, true
}

// markTrans sets transStart and transEnd by the term's lexicon words.
func (t *term) markTrans() {
	for _, h := range t.trans {
		if h != "" {
			setHeadBit(&t.transStart, h)
			setEndBit(&t.transEnd, h)
		}
	}
}

// lackApart reports whether one of a and b is a word of lack and the other a word of the stem
// it lacks, as it stands or as a lemma, and no form of the word of lack ("cukormentes",
// "cukros"): they name opposite ideas. "fertőtlenítetek", which the rules do not read as a
// word of lack, is still "fertőtlenítéssel" (disinfect).
func lackApart(a, b *term) bool {
	if a.lacks == "" {
		a, b = b, a
	}
	if a.lacks == "" || b.lacks != "" {
		return false
	}
	stem := strings.HasPrefix(b.fold, a.lacks)
	if strings.HasPrefix(b.fold, a.lemmas[0]) {
		return false
	}
	for _, l := range b.lemmas {
		if strings.HasPrefix(l, a.lemmas[0]) {
			return false
		}
		stem = stem || strings.HasPrefix(l, a.lacks)
	}
	return stem
}

// agentBase returns the verb of an English agent noun ("charger": "charge", "cleaner":
// "clean", "installers": "install"), as the lexicon may know it.
func agentBase(w string) (string, bool) {
	w = strings.TrimSuffix(w, "s")
	if len(w) < 6 || !strings.HasSuffix(w, "er") {
		return "", false
	}
	return w[:len(w)-2], true
}

// An agent noun with at most maxAgentOwn words of its own takes its verb's first
// agentVerbWords.
const (
	maxAgentOwn    = 4
	agentVerbWords = 3
)

// functionWord reports whether at least half of the first four of an English word's
// Hungarian words are function words ("after": "után", "miután", "utána"...; "during":
// "közben"). A folded word that a noun, verb or adjective also folds to is none: "mely" may
// be "mély" (deep).
func functionWord(trans []string) bool {
	n, f := min(len(trans), 4), 0
	for _, h := range trans[:n] {
		if morph.Load().FunctionOnly(h) {
			f++
		}
	}
	return n > 0 && 2*f >= n
}

// prefixedGloss returns the glosses of the action noun of a verb with a verbal prefix whose
// bare verb is lemma ("lemondani": "lemondás", cancellation, not "mond", say): the
// Hungarian–English dictionary lacks most prefixed verbs, filing them under the bare one, but
// has many of their action nouns. nil when f is no prefixed form of lemma or the dictionary has
// no such noun.
func prefixedGloss(f, lemma string) []string {
	lang := morph.Load()
	for _, p := range lang.Prefixes() {
		if verb := p + lemma; strings.HasPrefix(f, verb) {
			for _, suffix := range [...]string{"as", "es"} {
				if g := lang.Glosses(verb + suffix); g != nil {
					return g
				}
			}
			return nil
		}
	}
	return nil
}

// startBit is one of 256 bits, chosen by the length and the first three letters of a word of
// three or more (ok false for a shorter one): a word equals another only if both agree. A
// word has ten glosses on average and some forty, which would set many of 64 bits.
func startBit(w string) (b uint8, ok bool) {
	if len(w) < 3 {
		return 0, false
	}
	return uint8((uint(len(w))*29791 + uint(w[0])*961 + uint(w[1])*31 + uint(w[2])) % 256), true
}

// setStart sets w's startBit in bits.
func setStart(bits *[4]uint64, w string) {
	if b, ok := startBit(w); ok {
		setBit(bits, b)
	}
}

// startIn reports whether w's startBit is set in bits: false for a word of fewer than three
// letters, and for one that none of the words that set bits equals.
func startIn(bits *[4]uint64, w string) bool {
	b, ok := startBit(w)
	return ok && hasBit(bits, b)
}

// glossed reports whether the English stem en may be one of t's gloss or partGloss: false
// when en is none of them.
func (t *term) glossed(en string) bool { return startIn(&t.glossStart, en) }

// ownConcepts are the concepts of t that its word, a lemma of it, or the word past a verb
// prefix ("előrebejelentkezni" is a verb with its prefix) has of itself, not as a compound's
// last part (see leadingConcepts); those past them are its headConcepts.
func ownConcepts(t *term, lang *morph.Data) uint64 {
	f := t.fold
	own := leadingConcepts(f)
	if t.english {
		return own
	}
	for _, l := range t.lemmas {
		own |= leadingConcepts(l)
	}
	for _, p := range lang.Prefixes() {
		if t.concepts&^own == 0 {
			break
		}
		if len(f) > len(p) && strings.HasPrefix(f, p) {
			own |= leadingConcepts(f[len(p):])
		}
	}
	return own
}

// maxLemmas bounds the lemmas a term keeps: each is compared with each of another word's.
const maxLemmas = 4

// minSplit is the shortest profile word split into parts: a shorter one is seldom a compound.
const minSplit = 7

// maxTermLen bounds the words looked up in the dictionary: a longer one is no word a
// dictionary holds, and looking it up would only cost time.
const maxTermLen = 40

// words splits s into lower-case words (accents kept) with the clause breaks of tokens.
func words(s string) []string {
	// The words are written one after another into one buffer, and cut out of it as one
	// string at the end: a turn splits its message several times, and a builder per word
	// cost three allocations a word. A span of no letters is a clause break ("").
	var b strings.Builder
	b.Grow(len(s))
	var spanBuf [48][2]int32
	spans := spanBuf[:0]
	start := 0
	flush := func() {
		if b.Len() > start {
			spans = append(spans, [2]int32{int32(start), int32(b.Len())})
			start = b.Len()
		}
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case (r == ',' || r == '.') && thousands(s, i):
			flush() // "390,000", "1.500": a number's thousands, no end of a clause
		case r == '²' || r == '³':
			b.WriteByte(byte('0' + r - '²' + 2)) // "m²" is "m2", "m³" "m3"
		case r == '\'' || r == '’':
			// "don't", "what's": one word, as fold drops the apostrophe
		case strings.ContainsRune(".,;:!?()\n", r):
			flush()
			if n := len(spans); n > 0 && spans[n-1][0] != spans[n-1][1] {
				spans = append(spans, [2]int32{int32(start), int32(start)}) // clauseBreak
			}
		case strings.ContainsRune("%€$£", r):
			// A sign of a unit is a word: "20%", "€50".
			flush()
			b.WriteRune(r)
			flush()
		default:
			flush()
		}
	}
	flush()
	all := b.String()
	out := make([]string, len(spans))
	for i, sp := range spans {
		out[i] = all[sp[0]:sp[1]]
	}
	return joinSquares(splitUnits(out))
}

// thousands reports whether the separator at byte i of s stands between a digit and a group
// of exactly three digits: "390,000", "1.500 Ft" (not "1,5 óra", nor the end of a sentence).
func thousands(s string, i int) bool {
	if i == 0 || !isDigitByte(s[i-1]) || len(s) < i+4 {
		return false
	}
	rest := s[i+1:]
	return isDigitByte(rest[0]) && isDigitByte(rest[1]) && isDigitByte(rest[2]) && (len(rest) == 3 || !isDigitByte(rest[3]))
}

func isDigitByte(b byte) bool { return '0' <= b && b <= '9' }

// splitUnits splits a number written onto its unit into two words: "60nm", "9am", "20kg"; a
// word that is not a unit stays ("3d" of "3D-s").
func splitUnits(ws []string) []string {
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		n := strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) })
		if n <= 0 {
			continue
		}
		if rest := w[n:]; unitOf(fold(rest)) != 0 || rest == "am" || rest == "pm" {
			ws = slices.Insert(ws, i+1, rest)
			ws[i] = w[:n]
			i++
		}
	}
	return ws
}

// joinSquares writes "square metres", "cubic meter" as one word, which names one unit (see
// unitTable).
func joinSquares(ws []string) []string {
	for i := 0; i+1 < len(ws); i++ {
		if (ws[i] == "square" || ws[i] == "cubic") && strings.HasPrefix(ws[i+1], "met") {
			ws[i] += ws[i+1]
			ws = slices.Delete(ws, i+1, i+2)
		}
	}
	return ws
}

// Strengths of a match between two terms.
const (
	sameWord   = 1.0
	typo       = 0.9
	related    = 0.9 // one dictionary stem under both ("festés", "festeni")
	translated = 0.9 // the lexicon translates the visitor's English word into the profile's
	sameIdea   = 0.8 // both words belong to one concept ("hitel", "részletfizetés")
	// The thesaurus gives one as a synonym of the other ("tanfolyam", "kurzus"); weak, as its
	// meanings are broad and folding merges words ("árul" sells, "elárul" betrays).
	synonym   = 0.6
	bothWays  = 0.8 // each dictionary gives the other word, though not as a first sense
	compound  = 0.6 // one word begins or ends the other, as in Hungarian compounds
	weakMatch = 0.5 // the least that counts as a match at all
)

// match tells how well a visitor's word q matches a profile word k, 0 when it does not.
func match(q, k *term) float64 {
	if m, ok := unitsMatch(q, k); ok {
		return m // "nm" is "m²"; "60 nm" is "60 m²" and no other quantity
	}
	// Most pairs of words begin differently, and then neither they nor their stems can be one
	// word, a typo of one, or share a beginning.
	alike := q.fold != "" && k.fold != "" && q.fold[0] == k.fold[0] || q.lemmas[0] != "" && k.lemmas[0] != "" && q.lemmas[0][0] == k.lemmas[0][0]
	if alike && q.lacks != k.lacks && lackApart(q, k) {
		return 0 // "cukormentes" (sugar-free) is no "cukor" (sugar)
	}
	if q.lacks != "" && q.english && k.lacks == "" {
		return 0 // "sugar-free" (see lackPhrase) is a word of lack, of whatever it lacks
	}
	if alike {
		if q.fold == k.fold || sameStem(q.fold, k.fold) && headsAgree(q, k) {
			return sameWord
		}
		if q.lemmas[0] == k.lemmas[0] {
			if q.ownPrefix && !strings.HasPrefix(k.fold, q.fold[:q.pre]) {
				// The profile says "elhozzuk" (we fetch it) too: its "hozunk" (we bring)
				// is another verb.
				return compound
			}
			return sameWord
		}
		if len(q.en) >= 3 && q.en == k.en {
			return sameWord
		}
		for _, a := range q.lemmas {
			for _, b := range k.lemmas {
				if a == b && len(a) >= 4 || a != b && sameStem(a, b) && headsAgree(q, k) {
					return related
				}
			}
		}
		if suffixed(q, k.fold) || suffixed(q, k.lemmas[0]) {
			return related
		}
	}
	glossed := q.english && k.glossed(q.en) && !(q.noun && k.verb) && (!k.per || q.counts)
	// The two dictionaries rank a pair apart: the stronger says how well the words match.
	lexical := 0.0
	if i := q.translatedTo(k.fold, k.lemmas); i >= 0 && q.split {
		lexical = compound
	} else if i >= nearSenses && len(q.fold) >= len(q.en)+derivedLetters && mainGloss(k, q.en) {
		// A gloss is a Snowball stem, which pools the words of several entries: "állít" (set)
		// glosses "install" third, stem "instal", and "installments" is no "helyreállítás".
		// The Hungarian word's main sense is then another entry's word when the visitor's own
		// line, whose entry's words come first, ranks the pair past its near senses, and the
		// word is a derivation of its stem (derivedLetters), not the stem's commonest form.
		lexical, glossed = translatedAt(i), false
	} else if i >= 0 {
		lexical = translatedAt(i)
		if i >= mainSenses && glossed && slices.Contains(k.gloss, q.en) {
			// Both dictionaries pair the words, each among later senses: "cancellation" is
			// "lemondás" ninth, "lemondás" "cancel" seventh.
			lexical = max(lexical, bothWays)
		}
	}
	if glossed && lexical < translated {
		// "store" is a sense of "tárol". A Hungarian word's own entry is short and gives its
		// main senses first; a later one is seldom what the visitor means ("saját", own, lists
		// "home" sixth).
		if i := slices.Index(k.gloss, q.en); i >= 0 && i < mainSenses {
			lexical = translated
		} else if i >= 0 {
			lexical = max(lexical, compound)
		}
	}
	if lexical == 0 {
		if i := q.headTranslatedTo(k.fold, k.lemmas, &k.ends); i >= 0 {
			// A compound or head of the profile's word counts as its idea up to the sixth sense
			// (headSenses), one more than a word itself: cut at nearSenses here too, "wall" as
			// "falanyag" (wall material, sixth) no longer matched "anyag", and a dev question
			// ("Will you repair the wall after chasing the cables?") went from handed over to
			// confidently wrong. Measured, not reasoned.
			lexical = compound
			if i < headSenses {
				lexical = sameIdea
			}
		}
	}
	if lexical > 0 {
		if lexical < sameIdea && q.concepts&k.concepts != 0 {
			// A late sense does not weaken what the concepts say: "booking" is "foglalás"
			// fourteenth in the dictionary, and both are of booking.
			return sameIdea
		}
		return lexical
	}
	if alike && nearTypo(q.fold, k.fold) && !otherHeads(q, k) {
		return typo
	}
	if q.english && !k.english && (q.key == "" || len(k.gloss) == 0) {
		// An international word the dictionaries do not pair ("vinyl", "vinilpadló"). When
		// both know their words and neither pairs them, a likeness of sound is a false friend:
		// "padlock" is no "padló" (floor).
		if m := soundsAlike(q.sound, k.sound); m > 0 {
			return m
		}
	}
	if shared := q.concepts & k.concepts; shared != 0 {
		if shared&^q.headConcepts == 0 {
			return compound // a kind of the concept's thing ("hűségkártya") is no more than a part of it
		}
		return sameIdea
	}
	if synonyms(q, k) || synonyms(k, q) {
		if rootOf(q, k) || rootOf(k, q) {
			// Synonyms of one root, as the dictionary's rules derive them: "éjjel" (at night)
			// and "éjszakai" (nightly) of "éj" (night). One idea, not the thesaurus's broad
			// kin ("fordul", turn to, and "kér", ask; "altat", put to sleep, and
			// "érzéstelenít", numb).
			return sameIdea
		}
		return synonym
	}
	if i := q.translatedTo("", k.parts); i >= 0 && q.split {
		return compound // a part's word for a part of the profile's word
	} else if i >= 0 {
		return min(sameIdea, translatedAt(i)) // "hair" is part of "hajvágás"
	}
	if i := q.headTranslatedTo("", k.parts, &k.ends); i >= 0 && i < headSenses {
		// A compound the lexicon gives ends in a part of the profile's word: "blinds" is
		// "ablakredőny" (window blind), and "redőnyvezérlés" (blind control) has "redőny".
		return compound
	}
	if i := indexIf(glossed, k.partGloss, q.en); i >= 0 {
		// "store" is a sense of a part of "gumitárolás". A part's later sense is seldom what
		// the visitor means: "plumb" is the fourteenth English word of "vizsgál" (examine), a
		// part of "felülvizsgálat" (inspection), and "plumbing" asks of no inspection.
		if i >= k.partMain {
			return compound
		}
		return sameIdea
	}
	if k.bare != "" && !q.english {
		// "elvinni" (carry away) and "elszállítás" (transport away), which the dictionary
		// knows whole, its verb not its first lemma.
		if m := prefixedMatch(q, k); m > 0 {
			return m
		}
	}
	if k.act != "" && !q.english && q.lemmas[0] == k.act {
		// The visitor's verb is the action the profile's word names: "Fáj a derekam" and
		// "derék- és hátfájással" (back pain), whose last part "fájás" is the action noun of
		// "fáj", a verb too short to count as a part by its letters alone.
		return sameIdea
	}
	if m := clippedMatch(q, k); m > 0 {
		return m // "akku" is "akkumulátor" clipped
	}
	// Compounds the dictionary splits: "klíma" is part of "klímatöltés", "tárol" of
	// "gumitárolás". The other way round the visitor names a kind of the profile's thing, which
	// may be another thing: "szemöldökfestés" is not the "festés" of hair.
	if len(q.lemmas[0]) >= 4 && slices.Contains(k.parts, q.lemmas[0]) {
		return sameIdea
	}
	if len(q.parts) > 0 && len(k.parts) > 0 && q.parts[len(q.parts)-1] == k.parts[len(k.parts)-1] &&
		compoundTail(q, k) {
		// The visitor's compound ends the profile's: "állatútlevél" (pet passport) names the
		// "kisállatútlevél" (small pet passport) as its own parts do.
		return sameIdea
	}
	if len(k.lemmas[0]) >= 4 && slices.Contains(q.parts, k.lemmas[0]) {
		return compound
	}
	if len(q.parts) > 0 && len(k.parts) > 0 && q.parts[0] == k.parts[0] && len(q.parts[0]) >= 4 {
		// Two compounds of one first word, "gumicsere" and "gumiszerelés", are kin.
		return weakMatch
	}
	// The part must be a stem of four letters or more and the rest at least three, or a suffix
	// such as "-et" or "-en" would make "terül" a part of "területén".
	if a, b := q.lemmas[0], k.lemmas[0]; alike && (compoundPart(a, b) || compoundPart(b, a)) || laterPart(a, b) || laterPart(b, a) {
		return compound
	}
	if q.english && !k.english && loanTail(q.en, k) {
		return compound
	}
	// Verb and noun of one root that the dictionary leaves apart: "javítotok", "javítását".
	if alike && min(len(q.fold), len(k.fold)) >= 7 && commonPrefix(q.fold, k.fold) >= 5 {
		return compound
	}
	return 0
}

// compoundTail reports whether the visitor's word, as it stands or as its lemma, is the
// profile word's end after three letters or more.
func compoundTail(q, k *term) bool {
	return strings.HasSuffix(k.fold, q.fold) && len(k.fold) >= len(q.fold)+3 ||
		strings.HasSuffix(k.fold, q.lemmas[0]) && len(q.lemmas[0]) >= minSplit && len(k.fold) >= len(q.lemmas[0])+3
}

// synonyms reports whether the thesaurus gives b's lemma as a synonym of a's.
func synonyms(a, b *term) bool {
	return a.sameStart != [4]uint64{} && a.synonymOf(b) // most words have none: inlined, without a call
}

// rootOf reports whether a stem the dictionary's rules derive a from (morph's Stems, not its
// looser lemmas) begins b, as it stands or as its first lemma: b comes of a's root. "éjjel"
// is "éj" with a suffix; "jogsi" is no "jog" with one, and "jog" (law, right) begins many a
// word of other meanings.
func rootOf(a, b *term) bool {
	if a.english || !a.stemmed {
		return false
	}
	for _, l := range morph.Load().Stems(a.fold) {
		if len(l) >= minRoot && (strings.HasPrefix(b.fold, l) || strings.HasPrefix(b.lemmas[0], l)) {
			return true
		}
	}
	return false
}

// minRoot is the fewest letters of a root two synonyms share: "éj" (night).
const minRoot = 2

// synonymOf is synonyms of a term with synonyms.
func (a *term) synonymOf(b *term) bool {
	l := b.lemmas[0]
	return startIn(&a.sameStart, l) && slices.Contains(a.same, l)
}

// minorSense reports whether the English word q matches the profile's Hungarian word k only
// through senses beyond the main ones: the English word's entry gives k, a part or a compound
// of it only from its (mainSenses+1)th word on, and k's own entry (or its part's) gives q
// among none of its first: "safe" lists "biztos" (certain) fifth, "tip" "borít" (tip over,
// cover) fourth, and neither Hungarian word gives the English one back among its first. A
// pair both dictionaries give, however late, or that their two-word phrases give, is a main
// sense; a match of the same word, of its sound, of one concept or of a compound's parts'
// words (see term.split) is no sense of a dictionary.
func minorSense(q, k *term) bool {
	if !q.english || k.english || q.split || q.typo || q.agent || q.concepts&k.concepts != 0 ||
		len(q.en) >= 3 && q.en == k.en || sameStem(q.fold, k.fold) {
		return false
	}
	glossed := k.glossed(q.en)
	g := indexIf(glossed, k.gloss, q.en)
	if g >= 0 && g < mainSenses {
		return false
	}
	if p := indexIf(glossed, k.partGloss, q.en); p >= 0 && p < k.partMain {
		return false
	}
	at := q.translatedTo(k.fold, k.lemmas)
	if g >= 0 && at >= 0 {
		return false // both dictionaries pair the words (see match): "cancellation", "lemondás"
	}
	// A word that only phrases pair with it comes after the word's own, whatever its sense.
	main := func(i int) bool { return i >= 0 && (i < mainSenses || morph.Load().PhrasePair(q.en, q.trans[i])) }
	if main(at) || main(q.translatedTo("", k.parts)) ||
		main(q.headTranslatedTo(k.fold, k.lemmas, &k.ends)) || main(q.headTranslatedTo("", k.parts, &k.ends)) {
		return false
	}
	return soundsAlike(q.sound, k.sound) == 0 && !nearTypo(q.fold, k.fold)
}

// mainSenses is how many of a word's first senses in a dictionary count as what it means.
const mainSenses = 3

// translatedAt is how well a lexicon's word matches by its rank among the word's
// translations: the first senses are what a visitor most likely means, the later ones often
// another meaning altogether ("site" as "telek", a plot of land). From the sixth on a word
// matches only in part: "plumbing", filed under "plumb", gives "mér" (measure) sixth, and
// asks of no measuring.
func translatedAt(rank int) float64 {
	switch {
	case rank < mainSenses:
		return translated
	case rank < nearSenses:
		return sameIdea
	}
	return compound
}

// mainGloss reports whether the English stem en is among the main senses of k's gloss.
func mainGloss(k *term, en string) bool {
	g := slices.Index(k.gloss, en)
	return g >= 0 && g < mainSenses
}

// derivedLetters is how many letters past its Snowball stem make an English word a derivation
// ("installment", "instal"), whose stem pools the words of other entries: the stem's commonest
// form is mostly the stem with its ending back ("automatic", "automat"; "advance", "advanc").
const derivedLetters = 3

// nearSenses is how many of a word's first senses in the lexicon match as its idea;
// headSenses the same for a lexicon word that is a compound of the profile's word or its
// head (see match).
const (
	nearSenses = 5
	headSenses = 6
)

// translatedTo returns the rank of the first of the term's lexicon words that translates w
// or one of ws, or -1.
func (t *term) translatedTo(w string, ws []string) int {
	if len(t.trans) == 0 {
		return -1 // a Hungarian word, or a profile's: inlined, without a call
	}
	return t.translatedToAny(w, ws)
}

// translatedToAny is translatedTo of a term with lexicon words.
func (t *term) translatedToAny(w string, ws []string) int {
	may := func(x string) bool {
		b, ok := headBit(x)
		return ok && hasBit(&t.transStart, b)
	}
	if !may(w) && !slices.ContainsFunc(ws, may) {
		return -1
	}
	// A word translates only a word of its first three letters (see translates): of the
	// lexicon's words, those that begin as each of w and ws, in rank order, the first that
	// translates it.
	ti, best := t.transIndex(), -1
	try := func(x string) {
		if !may(x) {
			return
		}
		at := bytes.IndexByte(ti.first, x[0])
		if at < 0 {
			return
		}
		for k := at; k < len(ti.first) && ti.first[k] == x[0]; k++ {
			i := int(ti.rank[k])
			if best >= 0 && i >= best {
				return
			}
			if h := t.trans[i]; len(h) >= 3 && h[1] == x[1] && h[2] == x[2] && translates(h, x, func() []string { return ti.lemmasOf(i, h) }) {
				best = i
				return
			}
		}
	}
	try(w)
	for _, x := range ws {
		try(x)
	}
	return best
}

// transIndex returns the term's transIndex, made on first use.
func (t *term) transIndex() *transIndex {
	if t.byFirst == nil {
		t.byFirst = newTransIndex(t.trans)
	}
	return t.byFirst
}

// transIndex orders a term's lexicon words by their first letter, so that a profile's word is
// compared with the few that begin as it does, and keeps the dictionary lemmas of those that
// translates looked up: a turn compares each with hundreds of the profile's words.
type transIndex struct {
	first  []byte     // the words' first letters, ascending
	rank   []int32    // each word's rank in trans, in the order of first; ascending per letter
	lemmas [][]string // by rank, morph's Lemmas once looked up ([]string{} for none)
	// end holds by rank the bit of the word's last letters (see setEndBit), for a word of
	// minHead letters or more (0 for a shorter one, which has none).
	end []uint8
}

func newTransIndex(trans []string) *transIndex {
	ti := &transIndex{rank: make([]int32, 0, len(trans)), lemmas: make([][]string, len(trans))}
	for i := range trans {
		ti.rank = append(ti.rank, int32(i))
	}
	first := func(i int32) byte {
		if trans[i] == "" {
			return 0
		}
		return trans[i][0]
	}
	slices.SortStableFunc(ti.rank, func(a, b int32) int { return int(first(a)) - int(first(b)) })
	letters := make([]byte, 2*len(trans)) // one array for first and end
	ti.first, ti.end = letters[:len(trans):len(trans)], letters[len(trans):]
	for k, i := range ti.rank {
		ti.first[k] = first(i)
	}
	for i, h := range trans {
		ti.end[i], _ = endBit(h)
	}
	return ti
}

// lemmasOf returns morph's Lemmas of h, the lexicon word of rank i, as a set.
func (ti *transIndex) lemmasOf(i int, h string) []string {
	if ti.lemmas[i] == nil {
		// LooseLemmas: the words Lemmas gives, without ranking them, which translates does
		// not need.
		if ti.lemmas[i] = morph.Load().LooseLemmas(h); ti.lemmas[i] == nil {
			ti.lemmas[i] = []string{}
		}
	}
	return ti.lemmas[i]
}

// headTranslatedTo returns the rank of the first of the term's lexicon words that is a
// compound ending in w or one of ws, or ends one of them, or -1. A Hungarian compound names
// a kind of its last word: "villanykapcsoló" (light switch) is a "kapcsoló", and the
// profile's "felülvizsgálat" (review) a "vizsgálat" (inspection).
func (t *term) headTranslatedTo(w string, ws []string, ends *[4]uint64) int {
	if len(t.trans) == 0 {
		return -1 // inlined, without a call
	}
	return t.headTranslatedToAny(w, ws, ends)
}

// headTranslatedToAny is headTranslatedTo of a term with lexicon words.
func (t *term) headTranslatedToAny(w string, ws []string, ends *[4]uint64) int {
	if t.split || !overlap(&t.transEnd, ends) {
		return -1
	}
	heads := func(a, b string) bool {
		return len(a) >= len(b)+minHead-1 && len(b) >= minHead && strings.HasSuffix(a, b)
	}
	// A compound and its last word end in the same letters: a word whose last letters no
	// word of w and ws ends in heads none of them.
	ti := t.transIndex()
	for i, h := range t.trans {
		if len(h) < minHead || !hasBit(ends, ti.end[i]) { // a word of minHead letters has an end bit
			continue
		}
		if heads(h, w) || heads(w, h) {
			return i
		}
		for _, x := range ws {
			if heads(h, x) || heads(x, h) {
				return i
			}
		}
	}
	return -1
}

// minHead is the fewest letters of a compound's last word, and of the word before it.
const minHead = 4

// setEndBit sets in bits the one of 256 bits chosen by the last minHead letters of w, for a
// word of that length or more.
func setEndBit(bits *[4]uint64, w string) {
	if b, ok := endBit(w); ok {
		setBit(bits, b)
	}
}

// endBit returns the bit setEndBit sets for w, ok false for a word shorter than minHead.
func endBit(w string) (uint8, bool) {
	if len(w) < minHead {
		return 0, false
	}
	e := w[len(w)-minHead:]
	return uint8(uint(e[0])*31*31*31 + uint(e[1])*31*31 + uint(e[2])*31 + uint(e[3])), true
}

// setHeadBit sets in bits the one of 256 bits chosen by the first three letters of w, for a
// word of three letters or more.
func setHeadBit(bits *[4]uint64, w string) {
	if b, ok := headBit(w); ok {
		setBit(bits, b)
	}
}

// headBit returns the bit setHeadBit sets for w, ok false for a word shorter than three
// letters.
func headBit(w string) (uint8, bool) {
	if len(w) < 3 {
		return 0, false
	}
	return uint8(uint(w[0])*31*31 + uint(w[1])*31 + uint(w[2])), true
}

// setBit sets bit b of 256 in bits; hasBit reports whether it is set. The start, head and end
// bits of words (startBit, headBit, endBit) are kept so.
func setBit(bits *[4]uint64, b uint8)      { bits[b/64] |= 1 << (b % 64) }
func hasBit(bits *[4]uint64, b uint8) bool { return bits[b/64]&(1<<(b%64)) != 0 }

// overlap reports whether a and b have a bit in common.
func overlap(a, b *[4]uint64) bool {
	return a[0]&b[0]|a[1]&b[1]|a[2]&b[2]|a[3]&b[3] != 0
}

// translates reports whether the lexicon's Hungarian word h is the profile's word w: the same,
// or, when both are long enough to tell, one word with other suffixes. lemmas returns h's
// dictionary lemmas (morph's Lemmas).
func translates(h, w string, lemmas func() []string) bool {
	if h == "" || w == "" || h[0] != w[0] {
		return false
	}
	if h == w {
		return true
	}
	// The lexicon may give an inflected or derived form of the profile's word: "nagyobb"
	// (larger) for "major", of "nagy".
	if len(h) >= 5 && len(w) >= 5 && sameStem(h, w) && !otherEntry(h, w, lemmas) ||
		len(w) >= 4 && len(h) > len(w) && strings.HasPrefix(h, w) && slices.Contains(lemmas(), w) {
		return privative(h) == privative(w)
	}
	return false
}

// privative reports whether the folded Hungarian word w carries the suffix that negates its
// stem, "-talan", "-telen" ("érvénytelenít", invalidate, is no form of "érvényes", valid),
// after a stem of three letters or more.
func privative(w string) bool {
	for _, s := range [...]string{"talan", "telen", "tlan", "tlen"} {
		if i := strings.Index(w, s); i >= 3 {
			return true
		}
	}
	return false
}

// soundOf writes a folded word of the Latin alphabet as letters that English and Hungarian
// spell one sound with alike: "ph" and "f", "th" and "t", "ch", "ck", "q" and a "c" that is
// no "c" in Hungarian and "k", "sz", "zs" and "s" as "s", "z" as "s" too (English writes "s"
// where Hungarian writes "z": "diagnosis", "diagnózis"), "w" as "v", "y" as "i", and a
// doubled letter once. "diagnostics" and "diagnosztika" are "diagnostiks" and "diagnostika".
func soundOf(w string) string {
	var b strings.Builder
	b.Grow(len(w))
	last := byte(0)
	put := func(c byte) {
		if c != last {
			b.WriteByte(c)
			last = c
		}
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		next := byte(0)
		if i+1 < len(w) {
			next = w[i+1]
		}
		switch {
		case c >= 0x80:
			return "" // not a word of the Latin alphabet
		case (c == 'p' || c == 't') && next == 'h':
			put(map[byte]byte{'p': 'f', 't': 't'}[c])
			i++
		case c == 'c' && (next == 'h' || next == 'k'):
			put('k')
			i++
		case c == 'c' && next != 'e' && next != 'i' && next != 'y' && next != 's':
			put('k')
		case c == 'q':
			put('k')
		case (c == 's' || c == 'z') && (next == 'z' || next == 's'):
			put('s')
			i++
		case c == 'z':
			put('s')
		case c == 'w':
			put('v')
		case c == 'y':
			put('i')
		default:
			put(c)
		}
	}
	return b.String()
}

// minSound is the fewest letters of a sound that make two words one international word.
const minSound = 5

// soundsAlike tells how well an English word's sound a matches a Hungarian word's b: one
// begins with the other, or both with minSound letters or more, as Hungarian adds its own
// ending ("implant", "implantátum"). A long rest is a compound's other word.
func soundsAlike(a, b string) float64 {
	if len(a) < 4 || len(b) < 4 || a[0] != b[0] {
		return 0
	}
	p := commonPrefix(a, b)
	if p < minSound && p < min(len(a), len(b)) || p < len(a)-2 {
		return 0
	}
	if len(b)-p > 5 {
		return compound
	}
	return sameIdea
}

// sameStem reports whether two folded words are one word with different suffixes, which in
// Hungarian carry case and number ("garancia", "garanciát", "szállításról"). A short word takes
// short suffixes only: "terül" (pays back) is not "területén" (in the area).
func sameStem(a, b string) bool {
	if a == b {
		return true
	}
	short, long := min(len(a), len(b)), max(len(a), len(b))
	p := 0
	for p < short && a[p] == b[p] {
		p++
	}
	if p == short {
		return short >= 3 && long-short <= 1 || short >= 6 && long-short <= 4
	}
	return p >= 6 && p >= short-2
}

// headsAgree reports whether neither of q and k is a compound whose head the other does not
// go on with (see headBeyond): words of one stem are one word only then.
func headsAgree(q, k *term) bool { return !headBeyond(q, k) && !headBeyond(k, q) }

// headBeyond reports whether a is a compound whose first part b begins with, and whose head
// b does not go on with (b is the first part alone or with a suffix): "laptoptáskát" (a
// laptop bag) shares its first letters with "laptopot" as a word and its suffixed form do,
// and "kerékpártáskát" its lemma's with "kerékpárt", but each names a bag. The head says what
// a compound is; its first part matches b as a part does, never as one word.
func headBeyond(a, b *term) bool {
	if len(a.parts) < 2 || len(a.parts[1]) < 3 || !strings.HasPrefix(b.fold, a.parts[0]) {
		return false
	}
	rest := b.fold[len(a.parts[0]):]
	return len(rest) < 3 || !strings.HasPrefix(rest, a.parts[1][:3])
}

// otherHeads reports whether q and k are both compounds the dictionary splits, with other
// heads: "laptoptáskát" (a laptop bag) is no typo of "laptopmárkát" (laptop brands), two
// letters apart; each is a word spelled right.
func otherHeads(q, k *term) bool {
	return len(q.parts) >= 2 && len(k.parts) >= 2 && q.parts[len(q.parts)-1] != k.parts[len(k.parts)-1]
}

// suffixed reports whether the visitor's Hungarian word q, which the dictionary does not know,
// is the profile's word stem with suffixes added: "chipeztetni" (have chipped) is "chip" with
// "-eztet" and "-ni". Words the dictionary lacks (loans, brands) take suffixes as any other.
func suffixed(q *term, stem string) bool {
	if q.english || q.stemmed || q.parts != nil || len(stem) < 4 || len(q.fold) <= len(stem) ||
		!strings.HasPrefix(q.fold, stem) {
		return false
	}
	lang := morph.Load()
	return !lang.Known(q.lemmas[0]) && lang.SuffixChain(q.fold[len(stem):])
}

// compoundPart reports whether part is a word of the compound whole: its beginning, or a
// later part of five letters or more.
func compoundPart(part, whole string) bool {
	if len(part) < 4 || len(whole) < len(part)+3 {
		return false
	}
	if strings.HasPrefix(whole, part) {
		return true
	}
	i := strings.Index(whole, part)
	return len(part) >= 5 && i >= 2
}

// laterPart is compoundPart for a part that does not begin the compound, without its cost
// for the many pairs of words whose lengths rule it out: the lengths are tested inline, and
// three of four pairs in a turn go no further.
func laterPart(part, whole string) bool {
	return len(part) >= 5 && len(whole) >= len(part)+3 && containsLater(part, whole)
}

// containsLater is laterPart past its lengths; kept a call of its own so that laterPart is
// inlined.
//
//go:noinline
func containsLater(part, whole string) bool { return strings.Contains(whole[2:], part) }

func commonPrefix(a, b string) int {
	p := 0
	for p < min(len(a), len(b)) && a[p] == b[p] {
		p++
	}
	return p
}

// nearTypo reports words of five letters or more that one typo apart (a letter added, left
// out, changed, or two swapped), or two apart in words of nine letters or more.
func nearTypo(a, b string) bool {
	if len(a) < 5 || len(b) < 5 || a[0] != b[0] || len(a)-len(b) > 4 || len(b)-len(a) > 4 {
		return false // a rune is at most two bytes in folded words: never within two runes
	}
	la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	if min(la, lb) < 5 || a[0] != b[0] {
		return false
	}
	allowed := 1
	if min(la, lb) >= 9 {
		allowed = 2
	}
	if la-lb > allowed || lb-la > allowed {
		return false
	}
	if len(a) == la && len(b) == lb && la < maxASCII && lb < maxASCII {
		// Each edit changes the letters the words have apart by one at most (a swap by none):
		// words with more letters apart are no typo of each other, whatever their order.
		if bagDistance(a, b) > allowed {
			return false
		}
		return editDistanceASCII(a, b) <= allowed // folded words are mostly ASCII: no allocation
	}
	return editDistance([]rune(a), []rune(b)) <= allowed
}

// bagDistance is how many letters of one ASCII word, counted with repeats, the other lacks,
// the more of the two ways: a lower bound of their edit distance.
func bagDistance(a, b string) int {
	var count [128]uint8
	for i := 0; i < len(a); i++ {
		count[a[i]&127]++
	}
	onlyB := 0
	for i := 0; i < len(b); i++ {
		if c := b[i] & 127; count[c] > 0 {
			count[c]--
		} else {
			onlyB++
		}
	}
	onlyA := len(a) - (len(b) - onlyB)
	return max(onlyA, onlyB)
}

// maxASCII bounds the words editDistanceASCII takes.
const maxASCII = 40

// editDistanceASCII is editDistance of two ASCII words shorter than maxASCII.
func editDistanceASCII(a, b string) int {
	var prev2, prev, cur [maxASCII + 1]int
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev = prev, cur
	}
	return prev[len(b)]
}

// editDistance is the optimal string alignment distance: insertions, deletions,
// substitutions and swaps of neighbours.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// loanTail reports whether the English stem en ends the profile's Hungarian compound k after
// three letters or more, as an English loan word does: "shop" in "webshop".
func loanTail(en string, k *term) bool {
	if len(en) < 4 {
		return false
	}
	for _, w := range [2]string{k.fold, k.lemmas[0]} {
		if len(w) >= len(en)+3 && strings.HasSuffix(w, en) {
			return true
		}
	}
	return false
}

// indexIf is where w is in list, only when worth looking (-1 otherwise): the look is skipped when
// a cheaper test already says w cannot be there.
func indexIf(worth bool, list []string, w string) int {
	if !worth {
		return -1
	}
	return slices.Index(list, w)
}

// markGlossStarts sets glossStart from the term's gloss and partGloss.
func (t *term) markGlossStarts() {
	t.glossStart = [4]uint64{}
	for _, gs := range [2][]string{t.gloss, t.partGloss} {
		for _, g := range gs {
			setStart(&t.glossStart, g)
		}
	}
}
