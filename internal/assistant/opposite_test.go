package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestNegatedOpposite: a visitor's word matches a profile's negated word whose opposite it
// is by the English WordNet ("megbukik", fail, and "nem sikerül", not succeed), in Hungarian
// and in English, while a question about the word itself, not negated, still gets no answer
// from the negated entry.
func TestNegatedOpposite(t *testing.T) {
	p := Profile{CompanyName: "Próba Tánciskola",
		FAQ: []QA{{Question: "Mi van, ha nem sikerül a felvételi?", Answer: "Fél év múlva ingyen újra jelentkezhet."},
			{Question: "Hol lehet parkolni?", Answer: "Az udvarban van parkoló."}}}
	for _, tc := range []struct {
		message string
		lang    Language
		want    bool
	}{
		{"És ha megbukom?", Hungarian, true},
		// "entrance exam", not "audition": "audition" reaches the name word "Próba" only as
		// its fourth sense, and stays the visitor's word (see TestMinorSenseKeepsItsWord),
		// which no entry says; "entrance exam" is "felvételi".
		{"What if I fail the entrance exam?", English, true},
		{"Mi van, ha sikerül?", Hungarian, false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if answered := !got.Handover && strings.Contains(got.Text, "Fél év múlva"); answered != tc.want {
			t.Errorf("%q: answered %v, want %v: %s", tc.message, answered, tc.want, got.Text)
		}
	}
}

// TestLackIsNegatedStem: a word of lack is the negated word of the stem it lacks, both ways:
// "cukormentes" (sugar-free) asks for what is "nem cukros" (not sugary), and "nem cukros" for
// what is "cukormentes"; "cukros" gets no answer from "cukormentes".
func TestLackIsNegatedStem(t *testing.T) {
	for _, tc := range []struct {
		faq, message string
		want         bool
	}{
		{"Melyik tortátok nem cukros?", "Van cukormentes tortátok?", true},
		{"Van cukormentes tortátok?", "Melyik tortátok nem cukros?", true},
		{"Van cukormentes tortátok?", "Van cukros tortátok?", false},
	} {
		p := Profile{CompanyName: "Habcsók Cukrászda",
			FAQ: []QA{{Question: tc.faq, Answer: "A diétás tortánk eritrittel készül."},
				{Question: "Hol lehet parkolni?", Answer: "Az udvarban van parkoló."}}}
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if answered := !got.Handover && strings.Contains(got.Text, "eritrittel"); answered != tc.want {
			t.Errorf("%q against %q: answered %v, want %v: %s", tc.message, tc.faq, answered, tc.want, got.Text)
		}
	}
}
