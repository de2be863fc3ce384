package assistant

import (
	"testing"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// TestShortEnglishByLexicon: a short message with no marker word of either language is
// English when its words are English dictionary words that the Hungarian dictionary does not
// know, and stays Hungarian (not sure) when they are Hungarian words typed without accents.
func TestShortEnglishByLexicon(t *testing.T) {
	tests := []struct {
		text string
		want Language
		sure bool
	}{
		{"Is parking free?", English, true},
		{"check out time?", English, true},
		{"pets allowed?", English, true},
		{"wifi password?", Hungarian, false}, // "wifi" is Hungarian too: one English word against one
		{"leasing?", Hungarian, false},       // one English word may be a loanword
		{"fitness berlet?", Hungarian, false},
		{"Is the sauna heated?", English, true}, // "the" is a marker already
		{"garage free?", English, true},
		{"parkolas ingyenes?", Hungarian, false},
		{"hol vagytok", Hungarian, true},
		{"nyitva vagytok?", Hungarian, true},
		{"ara?", Hungarian, true},
		{"foglalas holnap?", Hungarian, false},
		{"reggeli?", Hungarian, false},
		{"hotel?", Hungarian, false}, // both dictionaries know it: nothing decides
		{"06 30 123 4567", Hungarian, false},
		{"Anna Kiss", Hungarian, false}, // a name says nothing
		{"Kovacs Peter, anna@example.com", Hungarian, false},
	}
	for _, tt := range tests {
		if got, sure := DetectLanguage(tt.text); got != tt.want || sure != tt.sure {
			t.Errorf("DetectLanguage(%q) = %q, %v; want %q, %v", tt.text, got, sure, tt.want, tt.sure)
		}
	}
}

// TestSuperlativeIsItsAdjective: an English superlative the lexicon lacks is read as its
// adjective ("cheapest" as "cheap"); a word that only ends so ("modest", "priest") is itself.
// The key wanted is the stem of the word meant, not EnglishKey of it: EnglishKey("modest")
// against itself could not fail.
func TestSuperlativeIsItsAdjective(t *testing.T) {
	d := morph.Load()
	for w, want := range map[string]string{"cheapest": "cheap", "finest": "fine", "biggest": "big",
		"newest": "new", "modest": "modest", "priest": "priest"} {
		got, _ := d.EnglishKey(w)
		if k := morph.EnglishStem(want); got != k {
			t.Errorf("EnglishKey(%q) = %q; want the stem of %q (%q)", w, got, want, k)
		}
	}
}

// TestRatesAndCheapestAskThePrice: a rate by the hour or the day, and the cheapest (or a
// cheaper) one, ask for a price in either language; a rate that is no charge does not.
func TestRatesAndCheapestAskThePrice(t *testing.T) {
	for text, want := range map[string]bool{
		"hourly rate?":                  true,
		"What are your rates?":          true,
		"Do you have a daily rate?":     true,
		"What's your cheapest haircut?": true,
		"Is there a cheaper option?":    true,
		"Mi a legolcsóbb csomagotok?":   true,
		"Van olcsóbb megoldás?":         true,
		"What is your pass rate?":       false,
		"Do you rate the tutors?":       false,
		"Mennyi idő alatt készül el?":   false,
	} {
		if got := DetectIntent(text).Price; got != want {
			t.Errorf("DetectIntent(%q).Price = %v; want %v", text, got, want)
		}
	}
}
