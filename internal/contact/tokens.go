package contact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenize splits text into words. It is one pass over the text with no regular expression:
// Go's \b only knows ASCII, so "Ádám" would not be a word to it.
func tokenize(text string) []token {
	var toks []token
	start := -1
	prevLetter := false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) && start >= 0
		if !word && start >= 0 && prevLetter && (r == '-' || r == '\'' || r == '’') {
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			word = unicode.IsLetter(next)
		}
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			toks = append(toks, newToken(text, start, i))
			start = -1
		}
		prevLetter = unicode.IsLetter(r) || unicode.IsMark(r)
		i += size
	}
	if start >= 0 {
		toks = append(toks, newToken(text, start, len(text)))
	}
	return toks
}

func newToken(text string, start, end int) token {
	t := token{start: start, end: end, text: text[start:end]}
	if len(t.text) <= 16 { // cue words are short; sparing the rest saves allocations
		t.lower = strings.ReplaceAll(strings.ToLower(t.text), "’", "'")
	}
	return t
}

// sepAfter is the text between toks[i] and the next token, or the rest of the text.
func sepAfter(text string, toks []token, i int) string {
	if i+1 < len(toks) {
		return text[toks[i].end:toks[i+1].start]
	}
	return text[toks[i].end:]
}

// walkBack collects the name words right before toks[cue], in text order.
func walkBack(text string, toks []token, cue int) []string {
	from := cue
	for j := cue - 1; j >= 0 && cue-j <= maxNameWords; j-- {
		if !isPlainSep(sepAfter(text, toks, j)) || !isNameWord(toks[j].text) || isStopWord(toks[j].text) {
			break
		}
		from = j
	}
	if from == cue {
		return nil
	}
	words := make([]string, 0, cue-from)
	for j := from; j < cue; j++ {
		words = append(words, toks[j].text)
	}
	return words
}

// walkFwd collects the name words right after toks[cue] and returns them with the index of
// the last token read; firstSep judges the text between the cue and the first of them, plain
// spaces between the others. A title right after the cue is skipped.
func walkFwd(text string, toks []token, cue int, firstSep func(string) bool) ([]string, int) {
	if cue+2 < len(toks) && titles[toks[cue+1].lower] && firstSep(sepAfter(text, toks, cue)) {
		return walkFwd(text, toks, cue+1, isTitleSep)
	}
	var words []string
	j := cue + 1
	for ; j < len(toks) && len(words) < maxNameWords; j++ {
		sep := sepAfter(text, toks, j-1)
		if j == cue+1 && !firstSep(sep) || j > cue+1 && !isPlainSep(sep) {
			break
		}
		if !isNameWord(toks[j].text) || isStopWord(toks[j].text) {
			break
		}
		words = append(words, toks[j].text)
	}
	return words, j - 1
}

// isPlainSep reports a separator of spaces only, as between the words of one name.
func isPlainSep(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != ' ' && r != '\u00a0' && r != '\t' {
			return false
		}
	}
	return true
}

// isLabelSep accepts "Nevem Anna", "Nevem: Anna", "Name - Anna", but not a line break.
func isLabelSep(s string) bool {
	t := strings.Trim(s, " \u00a0\t")
	return t == "" && s != "" || t == ":" || t == "-" || t == "–" || t == ","
}

// isSignOffSep accepts what follows "Üdvözlettel" or "Best regards": a comma, colon, line
// breaks or spaces.
func isSignOffSep(s string) bool {
	return s != "" && strings.Trim(s, " \u00a0\t\r\n,:-–") == ""
}

// isTitleSep accepts what follows a title: "Dr. Patel", "Dr Patel".
func isTitleSep(s string) bool { return isPlainSep(s) || isPlainSep(strings.TrimPrefix(s, ".")) }

func hasColon(s string) bool { return strings.Trim(s, " \u00a0\t") == ":" }

// hasSentenceEnd reports punctuation that ends a sentence or a clause.
func hasSentenceEnd(s string) bool { return strings.ContainsAny(s, ".!?,;:\n") }

// sentenceStartAt reports whether toks[i] begins a sentence, where a capital proves nothing.
// Emoji and other symbols count as sentence breaks, as people use them that way.
func sentenceStartAt(text string, toks []token, i int) bool {
	if i <= 0 {
		return true
	}
	for _, r := range text[toks[i-1].end:toks[i].start] {
		if strings.ContainsRune(".!?:;\n", r) || unicode.IsSymbol(r) {
			return true
		}
	}
	return false
}

// restIsEnd reports whether nothing but punctuation, spaces and emoji follows toks[i].
func restIsEnd(toks []token, i int) bool {
	return i+1 >= len(toks)
}

// caseEndings are Hungarian suffixes that make a capitalised word a place or an adjective
// ("Budapesten", "Debrecenből", "Szegedi"), checked only on words not known as given names.
var caseEndings = []string{
	"ban", "ben", "ból", "ből", "ról", "ről", "tól", "től", "nál", "nél", "hoz", "hez", "höz",
	"ba", "be", "ra", "re", "on", "en", "ön", "ként", "ig", "val", "vel", "ért", "i",
}

func hasCaseEnding(w string) bool {
	return hasAnySuffix(strings.ToLower(w), caseEndings)
}

func hasAnySuffix(w string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}
