package morph

import "testing"

// TestEnglishLack: an English word is a suffix of lack when both dictionaries pair it with
// one that is a word of its own ("free", "exempt": "mentes"); "rescue" gives "mentés", which
// folds alike, but "mentes" does not gloss it.
func TestEnglishLack(t *testing.T) {
	d := Load()
	for w, want := range map[string]string{"free": "mentes", "exempt": "mentes", "rescue": "", "in": "", "sugar": ""} {
		if got := d.EnglishLack(w); got != want {
			t.Errorf("EnglishLack(%q) = %q, want %q", w, got, want)
		}
	}
	for _, tc := range [][3]string{{"cukor", "mentes", "cukormentes"}, {"kamat", "mentes", "kamatmentes"}, {"qxzv", "mentes", ""}} {
		if got := d.LackOf(tc[0], tc[1]); got != tc[2] {
			t.Errorf("LackOf(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}
