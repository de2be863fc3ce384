package assistant

import "testing"

// TestDerivedIsAnotherWord: a word of the lexicon that is a word of its own beside the
// profile's, with a root in common and neither lemma beginning the other ("alkalmazott",
// employee, beside "alkalmas", suitable, and "alkalmat", occasion, of "alkalom"), does not
// translate it: "people" is no "alkalmat". A form of the lexicon's own word still does, and
// so does a prefixed verb's form ("lemondani", cancel, of "lemondás").
func TestDerivedIsAnotherWord(t *testing.T) {
	for _, tc := range []struct {
		en, hu string
		least  float64 // the match must reach this
		below  float64 // and stay under this (0: no bound)
	}{
		{"people", "alkalmat", 0, weakMatch},
		{"people", "alkalmas", 0, weakMatch},
		{"employee", "alkalmazottak", sameIdea, 0},
		{"repair", "javítását", sameIdea, 0},
		{"prepare", "készítése", sameIdea, 0},
		{"cancellation", "lemondani", sameIdea, 0},
	} {
		q, k := newTerm(tc.en, true), makeTerm(tc.hu, false, true)
		m := match(&q, &k)
		if m < tc.least || tc.below > 0 && m >= tc.below {
			t.Errorf("match(%q, %q) = %.2f, want at least %.2f and under %.2f", tc.en, tc.hu, m, tc.least, tc.below)
		}
	}
}
