package assistant

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// fold lower-cases s and strips accents (see morph.Fold), as every word is compared.
func fold(s string) string { return morph.Fold(s) }

// clauseBreak separates clauses in a token list, so that a phrase or a negation never reaches
// across punctuation.
const clauseBreak = ""

// tokens splits s into folded words, with clauseBreak where punctuation ends a clause.
func tokens(s string) []string {
	ws := words(s)
	for i, w := range ws {
		ws[i] = fold(w)
	}
	return ws
}

// phrase is a sequence of folded words; a word ending in '*' matches any word it begins.
type phrase []string

func phrases(list ...string) []phrase {
	out := make([]phrase, len(list))
	for i, s := range list {
		out[i] = strings.Fields(s)
	}
	return out
}

func (p phrase) matchAt(toks []string, i int) bool {
	if i+len(p) > len(toks) || i < len(toks) && !p.mayStart(toks[i]) {
		return false
	}
	for j, w := range p {
		t := toks[i+j]
		if stem, ok := strings.CutSuffix(w, "*"); ok {
			if t == clauseBreak || !strings.HasPrefix(t, stem) {
				return false
			}
		} else if t != w {
			return false
		}
	}
	return true
}

// mayStart reports whether the phrase may begin with the word t: most words begin otherwise
// than a phrase does, and are passed over at its first letter without a call to matchAt.
func (p phrase) mayStart(t string) bool {
	return len(p) == 0 || p[0][0] == '*' || t != "" && t[0] == p[0][0]
}

// phraseStarts files a list of phrases by the first letter of their first word, so that a word
// is tried against the few phrases that may begin with it (see mayStart), in the list's order.
type phraseStarts struct {
	all    []phrase // the list, by first letter; as given when a phrase may begin with any word
	from   [257]uint16
	sorted bool
}

// startsOf files ps.
func startsOf(ps []phrase) phraseStarts {
	s := phraseStarts{all: ps}
	if len(ps) >= 1<<16 || slices.ContainsFunc(ps, func(p phrase) bool { return len(p) == 0 || p[0] == "" || p[0][0] == '*' }) {
		return s
	}
	s.all = slices.Clone(ps)
	slices.SortStableFunc(s.all, func(a, b phrase) int { return int(a[0][0]) - int(b[0][0]) })
	for c := range 257 {
		s.from[c] = uint16(slices.IndexFunc(s.all, func(p phrase) bool { return int(p[0][0]) >= c }))
		if s.from[c] == 0xffff {
			s.from[c] = uint16(len(s.all))
		}
	}
	s.sorted = true
	return s
}

// at returns the phrases that may begin with the word t (see mayStart), in the list's order.
func (s *phraseStarts) at(t string) []phrase {
	switch {
	case !s.sorted:
		return s.all
	case t == "":
		return nil
	}
	return s.all[s.from[t[0]]:s.from[int(t[0])+1]]
}

// matchAny reports whether one of ps occurs in toks as whole words. With negatable, a match
// preceded in its clause by a negation ("nem", "not"...) within three words does not count.
func matchAny(toks []string, ps []phrase, negatable bool) bool {
	s := filedAs(ps)
	for i := range toks {
		for _, p := range s.at(toks[i]) {
			if p.matchAt(toks, i) && !(negatable && negated(toks, i)) {
				return true
			}
		}
	}
	return false
}

// listKey names a phrase list by its first phrase's address and its length.
type listKey struct {
	first *phrase
	n     int
}

// filedLists are the phrase lists matchAny (and hoursAsked) is given for every message, filed
// by first letter.
var filedLists = fileLists(greetingPhrases, thanksPhrases, pricePhrases, quotePhrases, callbackPhrases,
	buyingPhrases, visitPhrases, servicesPhrases, sincePhrases, aboutPhrases, reachPhrases, hoursPhrases)

func fileLists(lists ...[]phrase) map[listKey]*phraseStarts {
	out := make(map[listKey]*phraseStarts, len(lists))
	for _, ps := range lists {
		s := startsOf(ps)
		out[listKey{&ps[0], len(ps)}] = &s
	}
	return out
}

// filedAs returns ps filed by first letter: as filedLists holds it, or unfiled for a list it
// does not hold (tried whole).
func filedAs(ps []phrase) *phraseStarts {
	if len(ps) > 0 {
		if s, ok := filedLists[listKey{&ps[0], len(ps)}]; ok {
			return s
		}
	}
	return &phraseStarts{all: ps}
}

func negated(toks []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-3 && toks[j] != clauseBreak; j-- {
		switch toks[j] {
		case "nem", "ne", "sem", "se", "not", "dont", "never", "no":
			return true
		}
	}
	return false
}

// sentences splits text after each '.', '!' or '?' that ends a sentence, and at line breaks.
func sentences(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		end := -1
		switch r {
		case '\n':
			end = i
		case '.', '!', '?':
			if next := i + 1; next >= len(text) || text[next] == ' ' || text[next] == '\n' {
				end = next
			}
		}
		if end >= 0 {
			if s := strings.TrimSpace(text[start:end]); s != "" {
				out = append(out, s)
			}
			start = end
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// stripPrices drops every sentence of text that states an amount of money.
func stripPrices(text string) string {
	var kept []string
	for _, s := range sentences(text) {
		if !ContainsPrice(s) {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

// clip shortens s to at most n runes, cutting at a space and marking the cut with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 2 {
		return ""
	}
	cut := []rune(s)[:n-1]
	if i := strings.LastIndex(string(cut), " "); i > 0 {
		return strings.TrimRight(string(cut)[:i], " ,;:-") + "…"
	}
	return string(cut) + "…"
}

// sentence returns s ending in a full stop unless it already ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if last, _ := utf8.DecodeLastRuneInString(s); s == "" || strings.ContainsRune(".!?…", last) {
		return s
	}
	return s + "."
}

// spaced reports whether s is already its words (strings.Fields) joined by single spaces: no
// white space but a space between two words.
func spaced(s string) bool {
	prev := ' ' // a space at the start is one too many
	for _, r := range s {
		if unicode.IsSpace(r) && (r != ' ' || prev == ' ') {
			return false
		}
		prev = r
	}
	return prev != ' '
}

// tidy collapses white space and drops the full stop a template adds after a value that
// already ends a sentence ("Kft.." → "Kft."), keeping an ellipsis "...".
func tidy(s string) string {
	t := s
	if !spaced(s) {
		t = strings.Join(strings.Fields(s), " ")
	}
	if utf8.ValidString(t) && !strings.Contains(t, "..") && !strings.Contains(t, "!.") &&
		!strings.Contains(t, "?.") && !strings.Contains(t, "….") {
		return t // no full stop follows the end of a sentence: most replies, kept as they are
	}
	rs := []rune(t)
	var b strings.Builder
	b.Grow(len(t))
	for i, r := range rs {
		if r == '.' && i > 0 && strings.ContainsRune(".!?…", rs[i-1]) &&
			(i+1 == len(rs) || rs[i+1] != '.') && (i < 2 || rs[i-2] != '.') {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
