package assistant

import (
	"slices"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// otherEntry reports whether the folded lexicon word h and the profile's word w, which begin
// alike, are two words of the dictionary of their own, each a lemma the other is no form of:
// "alkalmazott" (employee, which "people" gives) and "alkalmas" (suitable) or "alkalmat"
// (occasion, of "alkalom") share seven letters and a root, but are no one word with other
// suffixes. lemmas returns h's lemmas.
func otherEntry(h, w string, lemmas func() []string) bool {
	lang := morph.Load()
	if !lang.Known(h) {
		return false
	}
	// w's own lemma: "alkalmak" (occasions) is a form the dictionary lists of "alkalom".
	l := w
	if s := lang.Stems(w); len(s) > 0 {
		l = s[0]
	} else if !lang.Known(w) {
		return false
	}
	if commonPrefix(w, l) < 3 {
		return false // a verbal prefix's verb ("mond" of "lemondani"): w is more than l
	}
	n := commonPrefix(l, h)
	return n < len(l) && n < len(h) && !slices.Contains(lemmas(), l) && !slices.Contains(lang.Stems(l), h)
}
