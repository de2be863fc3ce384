package morph

import "testing"

// TestAdjective: a word the dictionary lists as an adjective and never as a noun or a verb is
// an adjective; a noun, a verb, a word that is an adjective and a noun ("plusz"), and a
// word no dictionary knows are not.
func TestAdjective(t *testing.T) {
	d := Load()
	for w, want := range map[string]bool{"sima": true, "olcso": true, "gyors": true, "draga": true, "hosszu": true,
		"foltos": true, "koszos": true, "kopott": true, "regi": true, "antik": true, "plusz": false, "torta": false, "vet": false, "gyorsan": false, "qqqq": false} {
		if got := d.Adjective(w); got != want {
			t.Errorf("Adjective(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestMannerAdverb: an adjective with "-n", "-an", "-en", "-ul" or "-ül" is an adverb of
// manner; the adjective itself, and a noun with such an ending, are not.
func TestMannerAdverb(t *testing.T) {
	d := Load()
	for w, want := range map[string]bool{"gyorsan": true, "olcson": true, "pontosan": true, "rendesen": true, "rosszul": true,
		"gyors": false, "asztalon": false, "magyarul": false, "kedden": false} {
		if got := d.MannerAdverb(w); got != want {
			t.Errorf("MannerAdverb(%q) = %v, want %v", w, got, want)
		}
	}
}
