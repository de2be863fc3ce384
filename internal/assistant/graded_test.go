package assistant

import "testing"

// gradedProfile is a made-up pottery studio whose entries say no comparative or superlative.
func gradedProfile() Profile {
	return Profile{CompanyName: "Agyagkert Műhely",
		Description:  "Fazekasműhely és korongozó tanfolyamok Szegeden.",
		OpeningHours: "Kedd–szombat 10–18",
		Address:      "Szeged, Minta utca 5.",
		Services: []Service{
			{Name: "Korongozó tanfolyam", Description: "Hat alkalom, kis csoportban, anyaggal és égetéssel.", Price: "48 000 Ft"},
			{Name: "Névre szóló bögre", Description: "Kézzel korongozott egyedi bögre névvel vagy mintával.", Price: "4 500 Ft / darab, legalább 6 darabtól"},
		},
		FAQ: []QA{
			{Question: "Mikor kell szólni, ha tányérkészletet szeretnék?", Answer: "Tányérkészletet legalább 3 héttel előre kérjük megrendelni."},
			{Question: "Hogyan kezdhetek bele?", Answer: "Az első alkalom féláron, 6 500 Ft-ért kipróbálható."},
		}}
}

// TestGradedWordAside: a comparative or a superlative, as the dictionary's lemmas read it
// ("előbb", earlier; "legkisebb", the smallest), that no entry of the profile says grades what
// is asked rather than naming it, so it leaves the question no less answered; a topic word no
// entry says still does.
func TestGradedWordAside(t *testing.T) {
	checkAnswers(t, gradedProfile(), []answerCase{
		{Hungarian, "Kipróbálhatom előbb?", "6 500 Ft", false},
		{Hungarian, "Bögréből mennyi a legkisebb?", "legalább 6 darabtól", false},
		{Hungarian, "Van nagyobb kemencétek égetésre?", "kollégánk", true},
	})
}
