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

// TestMatchAnyFiled: matchAny, which tries a word against the phrases of a filed list that may
// begin with it, finds what trying every phrase of the list at every word finds.
func TestMatchAnyFiled(t *testing.T) {
	whole := func(toks []string, ps []phrase, negatable bool) bool {
		for i := range toks {
			for _, p := range ps {
				if p.matchAt(toks, i) && !(negatable && negated(toks, i)) {
					return true
				}
			}
		}
		return false
	}
	messages := []string{"Szia, mennyibe kerül egy fogkő-eltávolítás?", "Nem kérek árajánlatot, köszönöm.",
		"Hívjanak vissza holnap!", "How long have you been open?", "Mivel foglalkoztok? Kik vagytok?",
		"Can I come in on Sunday?", "Nem szeretnék rendelni.", "Hello! What services do you offer?",
		"elérhetőség kapcsolat", "Köszi", ""}
	lists := [][]phrase{greetingPhrases, thanksPhrases, pricePhrases, quotePhrases, callbackPhrases, buyingPhrases,
		visitPhrases, servicesPhrases, sincePhrases, aboutPhrases, reachPhrases, hoursPhrases}
	found := 0
	for _, m := range messages {
		toks := tokens(m)
		for li, ps := range lists {
			for _, neg := range []bool{false, true} {
				want := whole(toks, ps, neg)
				if got := matchAny(toks, ps, neg); got != want {
					t.Errorf("%q, list %d, negatable %v: %v, want %v", m, li, neg, got, want)
				}
				if want {
					found++
				}
			}
		}
	}
	if found < 10 {
		t.Errorf("only %d matches: the messages test little", found)
	}
}
