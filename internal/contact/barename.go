package contact

import (
	"strings"
	"unicode"
)

// bareName finds a name written without a cue, the way visitors answer "what is your name?"
// or sign a message: "Kántor Bea, +36 20 555 4433", "Tóth Eszter\n06 30 …", "… számon. Nemes
// Lajos". Without a cue a capitalised phrase is taken only when it stands alone between
// punctuation and holds a known given name among at most three name words; a lone given name
// must also be the message's only word besides contact details, or its last.
func bareName(text string, toks []token) []string {
	words := 0
	for j, t := range toks {
		if hasLetter(t.text) && !isAddressPart(text, toks, j) {
			words++
		}
	}
	for i := 0; i < len(toks); {
		j := i + 1
		for j < len(toks) && isPlainSep(sepAfter(text, toks, j-1)) {
			j++
		}
		if name := standaloneName(text, toks, i, j, words); name != nil {
			return name
		}
		i = j
	}
	return nil
}

// standaloneName checks the phrase toks[i:j], whose neighbours are not joined to it by
// spaces alone.
func standaloneName(text string, toks []token, i, j, words int) []string {
	n := j - i
	if n > maxNameWords {
		return nil
	}
	if i > 0 && !isPhraseBreak(sepAfter(text, toks, i-1)) || j < len(toks) && !isPhraseBreak(sepAfter(text, toks, j-1)) {
		return nil
	}
	given := false
	name := make([]string, 0, n)
	for k, t := range toks[i:j] {
		if !isNameWord(t.text) || isStopWord(t.text) {
			return nil
		}
		// A known given name, or any name word after a known family name ("Kovács Zsófiána").
		given = given || isGivenName(t.text) || k > 0 && isFamilyName(toks[i+k-1].text)
		name = append(name, t.text)
	}
	// A lone given name is taken when it is all the message says besides contact details, or
	// when it ends the message like a signature ("… 🙏 Zsófi", "…, Ági").
	if !given || n == 1 && (words != 1 && j < len(toks) || addressed(toks, i)) {
		return nil
	}
	return name
}

// addressed reports a lone name that follows a greeting, or a thanks that opens the message:
// "Szia, Péter!", "Szép napot, Viktória!", "Köszönöm, Anna!" speak to someone, perhaps the
// assistant, while "…? Köszi, Dorina" signs a message.
func addressed(toks []token, i int) bool {
	if i == 0 {
		return false
	}
	prev := toks[i-1].lower
	return greetings[prev] || thanks[prev] && (i == 1 || i == 2 && toks[0].lower == "thank")
}

var (
	greetings = wordSet(`szia sziasztok szió helló hello hali hi hey kedves tisztelt dear napot estét reggelt viszlát bye`)
	thanks    = wordSet(`köszönöm köszi kösz köszönjük thanks you`)
)

// isPhraseBreak reports a separator that ends a phrase: punctuation, a line break or an emoji,
// but not the dot, hyphen or at sign that join the parts of an address or a word.
func isPhraseBreak(sep string) bool {
	if strings.Contains(sep, "@") {
		return false
	}
	for _, r := range sep {
		if strings.ContainsRune(",!?;:()\n", r) || unicode.IsSymbol(r) || unicode.IsSpace(r) && strings.ContainsAny(sep, ".-–/") {
			return true
		}
	}
	return false
}

// isAddressPart reports a word glued to an at sign or a dot, as in an email address or a
// web address, which does not count as a word of the message.
func isAddressPart(text string, toks []token, j int) bool {
	glued := func(sep string) bool { return sep == "." || strings.Contains(sep, "@") }
	return j > 0 && glued(sepAfter(text, toks, j-1)) || j+1 < len(toks) && glued(sepAfter(text, toks, j))
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}
