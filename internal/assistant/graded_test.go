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
			{Question: "Meg lehet nézni a termet?", Answer: "Igen, nyitvatartási időben bárki benézhet hozzánk."},
		}}
}

// TestGradedWordAside: a comparative or a superlative, as the dictionary's lemmas read it
// ("előbb", earlier; "legkisebb", the smallest), that no entry of the profile says grades what
// is asked rather than naming it, so it leaves the question no less answered; so does an
// adverb the dictionary lets take no suffix ("mielőtt"), of a question that names an entry by
// its own words. A topic word no entry says still leaves it unanswered, and an adverb of a
// question that does not name an entry keeps its weight ("eddig", so far).
func TestGradedWordAside(t *testing.T) {
	checkAnswers(t, gradedProfile(), []answerCase{
		{Hungarian, "Kipróbálhatom előbb?", "6 500 Ft", false, ""},
		{Hungarian, "Bögréből mennyi a legkisebb?", "legalább 6 darabtól", false, ""},
		{Hungarian, "Meg lehet nézni a termet, mielőtt kiválasztom a csomagot?", "bárki benézhet", false, ""},
		{Hungarian, "Van nagyobb kemencétek égetésre?", "kollégánk", true, ""},
		{Hungarian, "Hány bögrét készítettetek eddig?", "kollégánk", true, ""},
	})
}
