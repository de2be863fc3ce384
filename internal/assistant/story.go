package assistant

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// phoneLike is a run of digits long enough to be a phone number, with what people put between.
var phoneLike = regexp.MustCompile(`[+(]*\d[\d ()./-]{5,}\d`)

// DetectLanguage tells whether a visitor writes Hungarian or English, for companies whose
// assistant answers in the visitor's language. sure is false when the text shows neither (a
// number, an email address, "ok"); the caller then keeps the conversation's language.
func DetectLanguage(text string) (lang Language, sure bool) {
	hu, en := 0, 0
	for _, r := range strings.ToLower(text) {
		if strings.ContainsRune("őű", r) {
			hu += 2 // letters no other language the widget meets uses
		} else if strings.ContainsRune("áéíóöúü", r) {
			hu++
		}
	}
	for _, w := range words(text) {
		switch {
		case huMarkers[w]:
			hu += 2
		case enMarkers[w]:
			en += 2
		}
	}
	switch {
	case hu == 0 && en == 0:
		if lexiconEnglish(text) {
			return English, true
		}
		return Hungarian, false
	case en > hu:
		return English, true
	}
	return Hungarian, true
}

// lexiconEnglish reports whether a message with no marker word ("Is parking free?", "check
// out time?") is English by the dictionaries: two of its words or more are ones the English
// lexicon has and the Hungarian dictionary does not, and they outnumber those only Hungarian
// explains (a word it knows, or stems: "parkolas", "nyitvatartas", typed without accents).
// Words both know ("hotel", "van") count for neither. One English word is not enough: a
// Hungarian visitor writes loanwords ("leasing?", "fitness berlet?"). Addresses and names say
// nothing of the language: a capitalised word after the first, or the first before another
// ("Anna Kiss", "Kovacs Peter"), is left out.
func lexiconEnglish(text string) bool {
	d := morph.Load()
	hu, en := 0, 0
	fs := strings.Fields(text)
	for i, field := range fs {
		if strings.ContainsAny(field, "@/") || strings.HasPrefix(strings.ToLower(field), "www.") ||
			upper(field) && (i > 0 || i+1 < len(fs) && upper(fs[i+1])) {
			continue
		}
		for _, w := range words(field) {
			if w == "" || w[0] >= '0' && w[0] <= '9' {
				continue
			}
			f := fold(w)
			switch english, known := d.EnglishWord(f), d.Known(f); {
			case english && !known:
				en++
			case !english && (known || len(d.Stems(f)) > 0):
				hu++
			}
		}
	}
	return en >= 2 && en > hu
}

// upper reports whether a word begins with a capital letter.
func upper(w string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
	return unicode.IsUpper(r)
}

// Short, frequent words of each language, as the visitor types them (lower case); words both
// languages write ("a", "is", "hello") are in neither.
var (
	huMarkers = wordSet(`az és es egy hogy nem van vagy mi mit mennyi mennyibe kerül kerul lehet
		kell kérem kerem kérek kerek köszönöm koszonom köszi koszi szia sziasztok jó jo napot
		milyen mikor hol hogyan szeretnék szeretnek szeretném érdekel erdekel tudnak tudtok ár ara
		ára nyitva vagytok vannak önök onok nektek nálatok nalatok igen ha de meg még meg azt ezt
		csak már mar`)
	enMarkers = wordSet(`the you your are do does did how what when where which can could would will
		i im i'm my me we our please thanks thank hi hey hello much many price cost open have has
		there any for with about of to and or in on at it this that need want like get book call`)
)

// stripPhones removes the runs of eight digits or more that are not amounts of money.
func stripPhones(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range phoneLike.FindAllStringIndex(s, -1) {
		digits := strings.Count(strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return 'd'
			}
			return -1
		}, s[m[0]:m[1]]), "d")
		rest := s[m[1]:min(len(s), m[1]+12)]
		if digits < 8 || ContainsPrice(s[m[0]:m[1]]+rest) {
			continue
		}
		b.WriteString(s[last:m[0]])
		last = m[1]
	}
	return b.String() + s[last:]
}

// ServiceFor names the profile's service that a visitor's message asks about, by the words
// of its name: "Mennyibe kerül a hőszivattyú?" is about "Hőszivattyú". ok is false when the
// message names none.
func (x *Index) ServiceFor(message string) (name string, ok bool) {
	if x == nil {
		return "", false
	}
	q := newQuery(message, Contact{}, x.facts)
	best := 0.0
	for _, s := range score(x, q) {
		if s.kind != factService {
			continue
		}
		rank, named := 0.0, false
		for j, c := range s.contrib {
			rank += c
			named = named || s.strongAt[j] && q.terms[j].weight >= 1 && s.hit[j] >= sameIdea*keyWeight && keyHit(s.fact, q.terms[j].term)
		}
		if named && rank > best {
			name, best, ok = s.service.Name, rank, true
		}
	}
	return name, ok
}

// keyHit reports whether q matches a word of the fact's keys (a service's name).
func keyHit(f *fact, q term) bool {
	for i := range f.keys {
		if match(&q, &f.keys[i]) >= sameIdea {
			return true
		}
	}
	return false
}

// maxGist bounds one question in a lead's summary, in characters.
const maxGist = 200

// Gist is what a visitor's message adds to the summary of their questions and needs that a
// chat lead carries: the message itself, without the contact details it gave, or "" when it
// asks and wants nothing (a greeting, thanks, "ok", only contact details).
func Gist(message string, captured Contact) string {
	// Addresses and numbers the visitor gave, taken or not: the lead has them in its fields.
	message = stripPhones(message)
	message = strings.Join(slices.DeleteFunc(strings.Fields(message), func(w string) bool { return strings.Contains(w, "@") }), " ")
	in := DetectIntent(message)
	topic := false
	for _, t := range newQuery(message, captured, nil).terms {
		// Words about the visitor's own details ("az e-mail címem") are no question.
		topic = topic || t.concepts&contactConcepts == 0
	}
	if !topic && !(in.Price || in.Quote || in.Callback || in.Buying || in.Hours || in.Services) {
		return ""
	}
	for _, v := range []string{captured.Email, captured.Phone} {
		if v != "" {
			message = strings.ReplaceAll(message, v, "")
		}
	}
	g := strings.Trim(strings.Join(strings.Fields(message), " "), " ,;:-–")
	if utf8.RuneCountInString(g) < 3 {
		return ""
	}
	return clip(g, maxGist)
}
