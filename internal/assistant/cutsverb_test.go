package assistant

import "testing"

// TestSplitKeepsPrefixedVerb: a profile word that is a verbal prefix and a form of a verb the
// dictionary's rules read ("kivitelezése", its construction: "ki" and "vitelez") is not split
// through that verb into nonsense parts ("kivi", kiwi, and "telek", plot, whose glosses let
// "waste" match it); a compound ("hajfestés") and a split at the prefix's end
// ("felülvizsgálat") stay split.
func TestSplitKeepsPrefixedVerb(t *testing.T) {
	if k := makeTerm("kivitelezése", false, true); len(k.parts) > 0 {
		t.Errorf("kivitelezése: parts %v, want none", k.parts)
	}
	q, k := newTerm("waste", true), makeTerm("kivitelezése", false, true)
	if m := match(&q, &k); m > 0 {
		t.Errorf("match(waste, kivitelezése) = %.2f, want 0", m)
	}
	for _, w := range []string{"hajfestés", "felülvizsgálat"} {
		if k := makeTerm(w, false, true); len(k.parts) < 2 {
			t.Errorf("%s: parts %v, want a split", w, k.parts)
		}
	}
}
