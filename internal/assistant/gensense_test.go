package assistant

import (
	"context"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// TestPossessorPerson: the dictionary's rules tell whose a Hungarian word's thing is: the
// speaker's ("irodánkban", in our office), the one spoken to ("irodátokba"), or nobody's.
func TestPossessorPerson(t *testing.T) {
	for _, tc := range []struct {
		word string
		want byte
	}{
		{"irodánkban", '1'}, {"címem", '1'}, {"házamtól", '1'}, {"lakásomba", '1'},
		{"irodátokba", '2'}, {"címetek", '2'},
		{"irodában", 0}, {"cím", 0}, {"találom", 0},
	} {
		if got := morph.Load().Possessor(fold(tc.word)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.word, got, tc.want)
		}
	}
}

// TestVisitorsPlaceIsNotTheAddress: a place word of the visitor's own, by a first-person
// possessive ("a címünkre", to our address; "my address", "our office"), names where the
// visitor is, not the company's address, which a second-person one ("az irodátok", "your
// office") asks for; on a made-up piano tuner's profile.
func TestVisitorsPlaceIsNotTheAddress(t *testing.T) {
	p := Profile{CompanyName: "Próba Hangolóműhely",
		Description:  "Zongorák és pianínók hangolása, javítása.",
		OpeningHours: "Hétfő–péntek 9–17",
		Address:      "Szeged, Példa tér 3.",
		Services: []Service{{Name: "Zongorahangolás", Description: "Egy hangolás másfél óra.", Price: "18 000 Ft",
			NameEN: "Piano tuning", DescriptionEN: "A tuning takes an hour and a half."}},
		FAQ: []QA{{Question: "Mikortól számít a munkadíj?", Answer: "A címre érkezéstől számítjuk, az utazás idejét nem."},
			{Question: "Hogyan kérhetek árajánlatot?", Answer: "Küldjön fotót a hangszerről, és írásban válaszolunk."}}}
	for _, tc := range []struct {
		message string
		lang    Language
		want    string // a piece of the answer, "" for any answer or a hand-over
		not     string // a piece the answer must not hold
	}{
		{"Eljöttök a címünkre?", Hungarian, "", "Példa tér"},
		{"Do you come to my address?", English, "", "Példa tér"},
		{"Can you come to our office?", English, "", "Példa tér"},
		{"Do you charge for the travel time to my address?", English, "címre érkezéstől", ""},
		{"Hol van az irodátok?", Hungarian, "Példa tér", ""},
		{"Where is your office?", English, "Példa tér", ""},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if tc.want != "" && (got.Handover || !strings.Contains(got.Text, tc.want)) || tc.not != "" && strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, want %q and not %q in: %s", tc.message, got.Handover, tc.want, tc.not, got.Text)
		}
	}
}
