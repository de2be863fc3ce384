package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestQuestionKindWords: the words that ask which kind of answer is wanted are read as such,
// on a made-up profile: "merre" asks where like "hol"; "number of hours" counts hours (a
// length), not the opening hours; "do you charge for" asks whether one pays, so an FAQ
// without a price still answers it.
func TestQuestionKindWords(t *testing.T) {
	p := Profile{CompanyName: "Próba Kerámiaműhely",
		Description:  "Korongozás és kerámiafestés kezdőknek.",
		OpeningHours: "Hétfő–péntek 10–18",
		Address:      "Budapest, Minta utca 7.",
		Services: []Service{{Name: "Korongozás", Description: "Alkalmanként legalább három órás foglalkozás.", Price: "9 000 Ft",
			NameEN: "Wheel throwing", DescriptionEN: "Sessions of at least three hours each."}},
		FAQ: []QA{{Question: "Kell fizetni az agyagért?", Answer: "Az agyag benne van az árban, külön nem számolunk fel érte semmit."},
			{Question: "Hogyan kapok árajánlatot csoportnak?", Answer: "Írjon nekünk e-mailt a létszámmal."},
			{Question: "Hol lehet parkolni?", Answer: "Az udvarban van parkoló."}}}
	for _, tc := range []struct {
		message string
		lang    Language
		want    string // a piece of the answer
		not     string // a piece the answer must not hold
	}{
		{"Merre van a műhely?", Hungarian, "Minta utca", ""},
		{"Do you charge for clay?", English, "külön nem számolunk", ""},
		{"Tudtok árajánlatot adni csoportnak?", Hungarian, "létszámmal", ""},
		{"Hétköznap mikor vagytok nyitva?", Hungarian, "10–18", ""},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) || tc.not != "" && strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, want %q and not %q in: %s", tc.message, got.Handover, tc.want, tc.not, got.Text)
		}
	}
}

// TestNumberOfHoursIsALength: "number of hours" counts hours, as "how many hours" does: it
// asks a length, not the opening hours, which "opening hours" still asks.
func TestNumberOfHoursIsALength(t *testing.T) {
	for _, tc := range []struct {
		message string
		hours   bool
	}{
		{"What's the minimum number of hours?", false},
		{"What is the number of days you need?", false},
		{"What are your opening hours?", true},
		{"Are you open on Sunday?", true},
	} {
		if got := DetectIntent(tc.message).Hours; got != tc.hours {
			t.Errorf("%q: Hours %v, want %v", tc.message, got, tc.hours)
		}
	}
}

// TestVisitOnADayAsksHours: a wish to go in asks the opening hours when it names a day or a
// time of day, and not otherwise.
func TestVisitOnADayAsksHours(t *testing.T) {
	for _, tc := range []struct {
		message string
		hours   bool
	}{
		{"Szombaton be lehet menni?", true},
		{"Can I come in on Saturday morning?", true},
		{"Be lehet menni kutyával?", false},
		{"Can I come in with my dog?", false},
	} {
		if got := DetectIntent(tc.message).Hours; got != tc.hours {
			t.Errorf("%q: Hours %v, want %v", tc.message, got, tc.hours)
		}
	}
}
