package contact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// nameOrder is the order in which a language writes a full name.
type nameOrder int

const (
	familyFirst nameOrder = iota // Hungarian: Kovács Péter
	givenFirst                   // English: John Smith
	familyAlone                  // Hungarian, and a lone word is a family name: "Horváth névre"
)

// maxNameWords is the longest name taken, e.g. "Kovács-Nagy Anna Mária".
const maxNameWords = 3

// token is a word of the text; apostrophes and hyphens inside a word belong to it.
type token struct {
	start, end int
	text       string
	lower      string // lower case with ’ as ', for matching cue words
}

// findName returns the given and family name a visitor introduces themself with. Names are
// found after or before a cue ("vagyok", "a nevem", "I'm", "my name is", a sign-off) or,
// failing that, as a phrase standing alone that holds a known given name; never from a
// capital letter alone, because a false name in a lead is worse than none.
func findName(text string) (first, last string) {
	toks := tokenize(text)
	for i := range toks {
		if words, order := nameAt(text, toks, i); len(words) > 0 {
			return assemble(words, order)
		}
	}
	if words := bareName(text, toks); len(words) > 0 {
		return assemble(words, familyFirst)
	}
	return "", ""
}

// nameAt reads the name that the cue word toks[i] introduces, if it is a cue word.
func nameAt(text string, toks []token, i int) ([]string, nameOrder) {
	words, order := cueName(text, toks, i)
	// After a title a lone word is a family name: "I'm Dr. Patel".
	for _, j := range [...]int{i + 1, i + 2} {
		if len(words) == 1 && j < len(toks) && titles[toks[j].lower] && toks[j].text != words[0] {
			order = familyAlone
		}
	}
	return words, order
}

// cueName reads the name that toks[i] introduces, and the order of its words.
func cueName(text string, toks []token, i int) ([]string, nameOrder) {
	w := toks[i].lower
	next := func(word string) bool {
		return i+1 < len(toks) && toks[i+1].lower == word && isPlainSep(sepAfter(text, toks, i))
	}
	switch w {
	case "vagyok":
		return checkVagyok(text, toks, i), familyFirst
	case "névre", "néven", "nevre", "neven":
		// "Horváth névre foglalnék": the name a booking is made under.
		return walkBack(text, toks, i), familyAlone
	case "hívnak", "hivnak", "szólítanak", "szolitanak":
		return dative(walkBack(text, toks, i)), familyFirst
	case "nevem":
		if words, _ := walkFwd(text, toks, i, isLabelSep); len(words) > 0 {
			return words, familyFirst
		}
		if i > 0 && (toks[i-1].lower == "a" || toks[i-1].lower == "az") && isPlainSep(sepAfter(text, toks, i-1)) {
			return walkBack(text, toks, i-1), familyFirst
		}
	case "név", "nev", "neve", "kapcsolat", "kapcsolattartó":
		if hasColon(sepAfter(text, toks, i)) {
			return fwd(text, toks, i, isLabelSep), familyFirst
		}
	case "itt":
		// "Itt Kelemen Zsófia, ..." introduces the caller, as on the phone; "Itt" opens many
		// other sentences, so a known given name is required.
		words := followedBy(text, toks, i, isPlainSep, ittFollowers, true)
		for _, w := range words {
			if isGivenName(w) {
				return words, familyFirst
			}
		}
	case "contact":
		if hasColon(sepAfter(text, toks, i)) {
			return fwd(text, toks, i, isLabelSep), givenFirst
		}
	case "name":
		if hasColon(sepAfter(text, toks, i)) {
			return fwd(text, toks, i, isLabelSep), givenFirst
		}
		if next("is") {
			return fwd(text, toks, i+1, isPlainSep), givenFirst
		}
	case "name's":
		return fwd(text, toks, i, isPlainSep), givenFirst
	case "i'm", "im":
		return fwd(text, toks, i, isPlainSep), givenFirst
	case "i":
		if next("am") {
			return fwd(text, toks, i+1, isPlainSep), givenFirst
		}
	case "this":
		if next("is") {
			return followedBy(text, toks, i+1, isPlainSep, thisIsFollowers, true), givenFirst
		}
	case "it's", "its":
		return followedBy(text, toks, i, isPlainSep, itsFollowers, false), givenFirst
	case "here":
		if restIsEnd(toks, i) || hasSentenceEnd(sepAfter(text, toks, i)) {
			return checkVagyok(text, toks, i), givenFirst
		}
	}
	if order, minWords, ok := signOff(w); ok && i >= 2 {
		words, last := walkFwd(text, toks, i, isSignOffSep)
		if len(words) >= minWords && restIsEnd(toks, last) {
			return words, order
		}
	}
	return nil, 0
}

// checkVagyok reads the words before the cue toks[cue] ("vagyok", "here"), which are often
// not a name: "Kíváncsi vagyok", "Budapesten vagyok". Unless one is a known given name, the
// word next to the cue must carry no case ending, and a lone word must not start a sentence,
// where any word is capitalised.
func checkVagyok(text string, toks []token, cue int) []string {
	words := walkBack(text, toks, cue)
	if len(words) == 0 {
		return nil
	}
	for _, w := range words {
		if isGivenName(w) {
			return words
		}
	}
	if len(words) >= 2 && isFamilyName(words[0]) {
		return words // "Kovács Zsófiána vagyok": a given name after a known family name
	}
	if hasCaseEnding(words[len(words)-1]) || len(words) == 1 && sentenceStartAt(text, toks, cue-1) {
		return nil
	}
	return words
}

// dative turns "Kovács Péternek" (as in "Kovács Péternek hívnak") into "Kovács Péter".
func dative(words []string) []string {
	if len(words) == 0 {
		return nil
	}
	w := words[len(words)-1]
	lw := strings.ToLower(w)
	if !strings.HasSuffix(lw, "nak") && !strings.HasSuffix(lw, "nek") || len(w) < 5 {
		return nil
	}
	w = w[:len(w)-3]
	// Hungarian lengthens a final a or e before a suffix: Anna -> Annának, Bence -> Bencének.
	if r, size := utf8.DecodeLastRuneInString(w); r == 'á' || r == 'é' {
		w = w[:len(w)-size] + map[rune]string{'á': "a", 'é': "e"}[r]
	}
	if utf8.RuneCountInString(w) < 2 {
		return nil
	}
	words[len(words)-1] = w
	return words
}

// followedBy reads the name after the cue toks[cue] and keeps it only if the token after it
// is one of the follower words, or, when punctOK, the name ends the sentence or the clause:
// "This is Mark from Acme", "this is Lucas,".
func followedBy(text string, toks []token, cue int, firstSep func(string) bool, followers map[string]bool, punctOK bool) []string {
	words, last := walkFwd(text, toks, cue, firstSep)
	if len(words) == 0 {
		return nil
	}
	if punctOK && (restIsEnd(toks, last) || strings.ContainsAny(sepAfter(text, toks, last), ",.!;:(\n")) {
		return words
	}
	if last+1 < len(toks) && followers[toks[last+1].lower] && isPlainSep(sepAfter(text, toks, last)) {
		return words
	}
	return nil
}

// fwd is walkFwd for callers that need only the words.
func fwd(text string, toks []token, cue int, firstSep func(string) bool) []string {
	words, _ := walkFwd(text, toks, cue, firstSep)
	return words
}

var (
	thisIsFollowers = map[string]bool{"from": true, "here": true, "at": true, "and": true, "with": true, "of": true, "speaking": true, "calling": true, "writing": true, "again": true}
	ittFollowers    = map[string]bool{"a": true, "az": true, "vagyok": true, "beszél": true}
	itsFollowers    = map[string]bool{"here": true, "from": true, "speaking": true, "calling": true, "writing": true, "again": true}
)

// signOff reports whether w closes a message before a signature, the order names take after
// it, and how many name words it needs: a lone given name after "thanks" more likely
// addresses the assistant than signs the message.
func signOff(w string) (nameOrder, int, bool) {
	switch w {
	case "üdvözlettel", "tisztelettel", "üdv", "köszönettel", "üdvözlet":
		return familyFirst, 1, true
	case "köszönöm", "köszi", "kösz", "köszönjük":
		return familyFirst, 2, true
	case "regards", "cheers", "sincerely", "wishes":
		return givenFirst, 1, true
	case "thanks":
		return givenFirst, 2, true
	}
	return 0, 0, false
}

// assemble splits name words into given and family name. The cue's language sets the order,
// unless exactly one of two words is a known given name ("Anna Nagy vagyok", "I'm Kovács Dávid").
// Of three words, the middle one goes with the given name only if it is a given name itself:
// "Nagy Anna Mária", but "Farkasné Kiss Judit".
func assemble(words []string, order nameOrder) (first, last string) {
	switch {
	case len(words) == 1 && !isGivenName(words[0]) &&
		(order == familyAlone || strings.HasSuffix(words[0], "né")): // Szabóné: Mrs Szabó
		return "", words[0]
	case len(words) == 1:
		return words[0], ""
	case len(words) == 2:
		a, b := words[0], words[1]
		ga, gb := isGivenName(a), isGivenName(b)
		fa, fb := isFamilyName(a), isFamilyName(b)
		switch {
		case ga && fa && !gb && !fb:
			return b, a // "Simon Dzsenifer": a family name that is also a given name, and one unknown
		case gb && fb && !ga && !fa:
			return a, b
		case ga != gb && ga:
			return a, b
		case ga != gb:
			return b, a
		case fa != fb && fa:
			return b, a // "Kovács Zsófiána", "I'm Kovács Zsófiána"
		case fa != fb:
			return a, b
		}
		if order == givenFirst {
			return a, b
		}
		return b, a
	}
	split := 1 // given names start here
	if order == givenFirst {
		split = len(words) - 1
	}
	if !isGivenName(words[1]) {
		split = 2
		if order == givenFirst {
			split = 1
		}
	}
	if order == givenFirst {
		return strings.Join(words[:split], " "), strings.Join(words[split:], " ")
	}
	return strings.Join(words[split:], " "), strings.Join(words[:split], " ")
}

// isNameWord reports whether w can be part of a name: a capital, then at least one lower-case
// letter (no all-caps abbreviations), and only letters, hyphens and apostrophes.
func isNameWord(w string) bool {
	first, _ := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(first) || utf8.RuneCountInString(w) < 2 ||
		strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s") { // "Anna's mother"
		return false
	}
	lower := false
	for _, r := range w {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsLetter(r), unicode.IsMark(r), r == '-', r == '\'', r == '’':
		default:
			return false
		}
	}
	return lower
}

// SplitName splits a whole name as a person typed it in one field ("Kovács Péter", "Anna
// Smith") into given and family name: a known given or family name decides, else the
// language's order (Hungarian: family name first). A text that is not two or three name words
// is kept whole as the given name.
func SplitName(full, language string) (first, last string) {
	words := strings.Fields(full)
	if len(words) < 2 || len(words) > maxNameWords {
		return strings.TrimSpace(full), ""
	}
	for _, w := range words {
		if !isNameWord(w) || isStopWord(w) {
			return strings.Join(words, " "), ""
		}
	}
	order := familyFirst
	if language == "en" {
		order = givenFirst
	}
	return assemble(words, order)
}

// IsHungarianName reports whether a name looks Hungarian: a known Hungarian family name, or a
// letter only Hungarian spells (ő, ű) or an accented vowel. Lists use it to put the family name
// first for Hungarian names only.
func IsHungarianName(first, last string) bool {
	const hungarian = "áéíóöőúüű"
	switch {
	case isFamilyName(last):
		return true
	case !utf8.ValidString(first): // a rune may start in first and end in last
		return strings.ContainsAny(strings.ToLower(first+last), hungarian)
	}
	// Each name's runes as strings.ToLower(first+last) lowers them, without the two strings.
	for _, s := range [2]string{first, last} {
		for _, r := range s {
			if r >= utf8.RuneSelf && strings.ContainsRune(hungarian, unicode.ToLower(r)) {
				return true
			}
		}
	}
	return false
}
