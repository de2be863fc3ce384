package morph

import "testing"

// TestPhrasalKey: a verb in any form with its particle finds the phrase's own line; a
// preposition is no particle ("pay in cash"), and a verb the lexicon has no phrase of with
// that particle has none.
func TestPhrasalKey(t *testing.T) {
	d := Load()
	for _, c := range [][3]string{
		{"pick", "up", "pick up"}, {"picked", "up", "pick up"}, {"picking", "up", "pick up"},
		{"take", "away", "take away"}, {"took", "away", "take away"}, {"find", "out", "find out"},
		{"pay", "in", ""}, {"come", "to", ""}, {"pick", "the", ""}, {"rug", "up", ""},
	} {
		if got := d.PhrasalKey(c[0], c[1]); got != c[2] {
			t.Errorf("PhrasalKey(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	if ws := d.English("pick up"); len(ws) == 0 || ws[0] == d.English("pick")[0] {
		t.Errorf(`English("pick up") = %v, want the phrase's own words`, ws)
	}
}
