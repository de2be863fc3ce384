package morph

import "testing"

// TestGraded: a comparative is a dictionary word's lemma with "bb" after it, or a linking
// vowel and "bb"; a superlative is one with "leg" before it.
func TestGraded(t *testing.T) {
	d := Load()
	for w, want := range map[string]bool{"elobb": true, "legkisebb": true, "legjobb": true, "kisebb": true,
		"hamarabb": true, "bogre": false, "kozott": false, "legeny": false, "leg": false} {
		if got := d.Graded(w); got != want {
			t.Errorf("Graded(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestUninflected: an adverb or a conjunction the dictionary lets take no suffix is
// uninflected; a noun, an adjective or a verb is not.
func TestUninflected(t *testing.T) {
	d := Load()
	for w, want := range map[string]bool{"mielott": true, "amikor": true, "valahol": true,
		"sima": false, "torta": false, "lany": false, "vet": false, "qqqq": false} {
		if got := d.Uninflected(w); got != want {
			t.Errorf("Uninflected(%q) = %v, want %v", w, got, want)
		}
	}
}
