package assistant

import (
	"testing"
)

// TestQuestionKindWords: the words that ask which kind of answer is wanted are read as such,
// on a made-up profile: "merre" asks where like "hol"; "do you charge for" asks whether one
// pays, so an FAQ without a price still answers it; a request for a quote gets the FAQ that
// asks for one; "hétköznap" (on weekdays) asks the opening hours.
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
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Merre van a műhely?", "Minta utca", false, ""},
		{English, "Do you charge for clay?", "külön nem számolunk", false, ""},
		{Hungarian, "Tudtok árajánlatot adni csoportnak?", "létszámmal", false, ""},
		{Hungarian, "Hétköznap mikor vagytok nyitva?", "10–18", false, ""},
	})
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
