package assistant

import (
	"slices"
	"testing"
)

// TestPhraseStartsKeepMayStart: the phrases filed by first letter that a word is tried against
// are those mayStart lets it begin, in the list's order, for every first byte; a list with a
// phrase that may begin anywhere is tried whole.
func TestPhraseStartsKeepMayStart(t *testing.T) {
	lists := [][]phrase{pricePhrases, servicesPhrases, phrases("b", "a", "c x", "a y", "b z"), phrases("a b", "*x y")}
	for _, ps := range lists {
		s := startsOf(ps)
		ws := []string{"", "mennyibe", "kerul"}
		for c := range 256 {
			ws = append(ws, string([]byte{byte(c), 'a'}))
		}
		for _, w := range ws {
			got := slices.DeleteFunc(slices.Clone(s.at(w)), func(p phrase) bool { return !p.mayStart(w) })
			want := slices.DeleteFunc(slices.Clone(ps), func(p phrase) bool { return !p.mayStart(w) })
			if s.sorted && len(got) != len(s.at(w)) || !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%q: tried %q, want %q", w, s.at(w), want)
			}
		}
	}
}
