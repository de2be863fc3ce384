package assistant

import (
	"strings"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// savingLetters are the letters of "mentés" (saving, rescue) folded: those of the suffix of
// lack "-mentes" (free of), which the dictionary's rules strip as a suffix.
const savingLetters = "mentes"

// savingCompound reads a word written with the noun "mentés" ("adatmentés", data recovery)
// as the compound of its first part and that noun, as the dictionary's compounding splits it,
// not as the first part with the suffix of lack ("adatmentes", data-free), whose stem the
// rules strip it to: the written "é" is no letter of the suffix. Its lemma is the compound,
// its parts the first word and "mentes"; the stripped stem and that stem's own lemmas ("adat",
// and "ad", give, a generic word) go. It reports whether it did.
func savingCompound(t *term, lower string) bool {
	i := strings.LastIndex(t.fold, savingLetters)
	if i < 2 || !strings.Contains(lower, "mentés") {
		return false
	}
	head := t.fold[:i]
	if !morph.Load().Known(head) {
		return false
	}
	whole := t.fold[:i+len(savingLetters)]
	lemmas := append(t.lemmas[:0:0], whole)
	for _, l := range t.lemmas {
		if len(l) > len(head) && l != whole && len(lemmas) < maxLemmas {
			lemmas = append(lemmas, l) // a lemma of the whole word's own
		}
	}
	t.lemmas, t.parts = lemmas, []string{head, savingLetters}
	return true
}
