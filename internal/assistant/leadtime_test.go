package assistant

import "testing"

// TestStatesLead: a number and a unit of time state a lead time in the instrumental or before
// a word of before, within its clause; a length or a time of day alone states none.
func TestStatesLead(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Legalább 6 héttel az esküvő előtt.", true},
		{"Két nappal előre kérjük.", true},
		{"48 órával a kezdés előtt lemondható.", true},
		{"2–3 héttel korábban érdemes szólni.", true},
		{"Please book 2 weeks ahead.", true},
		{"Order 3 days in advance.", true},
		{"Egy hét előtte szóljon.", true},
		{"A kezelés 6 hét.", false},
		{"Nyitás 9 órakor.", false},
		{"It takes 2 weeks. Ahead of that we call you.", false},
		{"5 000 Ft-tal több.", false},
	} {
		if got := statesLead(tc.text); got != tc.want {
			t.Errorf("statesLead(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestInstrumental: "-val/-vel", whose v turns into a last consonant before it, doubled.
func TestInstrumental(t *testing.T) {
	for _, tc := range []struct {
		word string
		want bool
	}{
		{"oraval", true},
		{"hettel", true},
		{"nappal", true},
		{"perccel", true},
		{"napokkal", true},
		{"het", false},
		{"hetes", false},
		{"hetente", false},
	} {
		if got := instrumental(tc.word); got != tc.want {
			t.Errorf("instrumental(%q) = %v, want %v", tc.word, got, tc.want)
		}
	}
}
