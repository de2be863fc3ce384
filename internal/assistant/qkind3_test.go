package assistant

import "testing"

// upholsterer is a made-up profile of the tests in this file.
var upholsterer = Profile{CompanyName: "Puha Párna Kárpitos Bt.",
	Description:  "Bútorkárpitozás és javítás Kecskeméten, 1998 óta.",
	OpeningHours: "Hétfő–péntek 8–17, szombat 9–12; vasárnap zárva.",
	Phone:        "+36 76 555 0140",
	Address:      "6000 Kecskemét, Rákóczi út 12.",
	Services: []Service{{Name: "Fotel újrakárpitozás", Description: "Régi fotel szivacsának és huzatának cseréje.", Price: "38 000 Ft"},
		{Name: "Kanapé újrakárpitozás", Description: "Háromszemélyes kanapé teljes áthúzása.", Price: "95 000 Ft"}},
	FAQ: []QA{{Question: "Hozhatok saját anyagot?", Answer: "Igen, a fotel vagy kanapé huzatához hozhat saját szövetet."},
		{Question: "Mennyi ideig tart?", Answer: "Egy fotel általában 8–10 munkanap."}}}

// TestWhatItComesToAsksThePrice: "mennyiből jön ki" (what does it come to) asks a price, as
// "mennyibe kerül" does: an FAQ that states no price does not answer it because its answer
// says the question's words ("Igen, ... saját szövetet" is no price), and a priced entry the
// question names answers with its price.
func TestWhatItComesToAsksThePrice(t *testing.T) {
	checkAnswers(t, upholsterer, []answerCase{
		{Hungarian, "Saját anyaggal mennyibe kerül a fotel?", "", true, "Igen"},
		{Hungarian, "Saját anyaggal mennyiből jön ki a fotel?", "", true, "Igen"},
		{Hungarian, "A fotel huzatának cseréje mennyiből jön ki?", "38 000 Ft", false, ""},
	})
}

// TestWhatTimeAsksATimeOfDay: in "What time is check-in?" the word "time" says the kind of
// answer, a time of day (as "how" + "long" does a length), not a topic: an FAQ about how much
// time ahead to book does not outrank the hours that say when check-in is.
func TestWhatTimeAsksATimeOfDay(t *testing.T) {
	cabins := Profile{CompanyName: "Fenyves Faházak Kft.",
		Description:  "Faházak kiadása a Bükkben, Szilvásváradon.",
		OpeningHours: "Recepció minden nap 8–20; bejelentkezés 15 órától, kijelentkezés 11 óráig.",
		Services:     []Service{{Name: "Faház négy főre", Description: "Két hálószoba, konyha, terasz.", Price: "32 000 Ft / éj"}},
		FAQ: []QA{{Question: "Mennyi idővel előre kell foglalni?", Answer: "Nyáron legalább két héttel előtte érdemes."},
			{Question: "Van parkoló?", Answer: "Igen, minden faház mellett."}}}
	checkAnswers(t, cabins, []answerCase{
		{English, "What time is check-in?", "15 órától", false, "két héttel"},
	})
}

// TestHowFarAheadAsksALeadTime: "how far ahead", "how early" and "mennyivel előbb" ask how long
// before something must be done, not a distance: the entry that states a length before ("3
// hónappal előtte") answers first, not one whose length is of something else ("48 órán
// belül"). "How far" alone still asks a distance.
func TestHowFarAheadAsksALeadTime(t *testing.T) {
	photo := Profile{CompanyName: "Fénykép Műhely Bt.",
		Description: "Esküvői és portréfotózás Szegeden.",
		Address:     "6720 Szeged, Kárász utca 5.",
		FAQ: []QA{{Question: "Hogyan foglalhatok?", Answer: "E-mailben írjon nekünk, 48 órán belül visszaigazoljuk a foglalást."},
			{Question: "Mennyi idővel előre kell foglalni?", Answer: "Esküvőre legalább 3 hónappal előtte érdemes, portréra egy héttel."}}}
	checkAnswers(t, photo, []answerCase{
		{English, "How far ahead do I need to book a wedding?", "3 hónappal", false, ""},
		{English, "How early do I need to book?", "3 hónappal", false, ""},
		{Hungarian, "Mennyivel előbb kell foglalni esküvőre?", "3 hónappal", false, ""},
	})
}

// TestWhichDaysWantsADay: "milyen napokon", "which days" ask on which days; an entry that
// names no day (a class's description without its schedule) does not answer, one that names
// the days does, and the opening hours answer which days the company is open.
func TestWhichDaysWantsADay(t *testing.T) {
	dance := Profile{CompanyName: "Ritmus Tánciskola",
		Description:  "Társastánc és latin tánc oktatás Győrben.",
		OpeningHours: "Hétfő–péntek 16–21, szombat 10–14.",
		Services: []Service{{Name: "Salsa kezdő", Description: "Kedden és csütörtökön 18 órától, egyedül is jöhet.", Price: "2 500 Ft / alkalom"},
			{Name: "Tangó haladó", Description: "Párban, nyolc alkalmas kurzus, a lépések finomítása.", Price: "22 000 Ft / pár"}}}
	checkAnswers(t, dance, []answerCase{
		{Hungarian, "Milyen napokon van salsa?", "Kedden", false, ""},
		{Hungarian, "Milyen napokon van tangó?", "", true, "Párban"},
		{English, "Which days is the tango course?", "", true, "Párban"},
		{Hungarian, "Milyen napokon vagytok nyitva?", "Hétfő–péntek", false, ""},
	})
}

// TestMustBookIsNoQuestionOfHours: "Hétvégére kell asztalt foglalni?" asks whether one must
// book, a rule the opening hours do not state, though the question names a day: without an
// entry on booking it is handed over, with one that entry answers; "Hétvégén nyitva
// vagytok?" still gets the hours.
func TestMustBookIsNoQuestionOfHours(t *testing.T) {
	bistro := Profile{CompanyName: "Kis Kert Bisztró",
		Description:  "Bisztró és kávézó Veszprém belvárosában.",
		OpeningHours: "Kedd–péntek 11–22, szombat–vasárnap 10–23; hétfőn zárva.",
		Services: []Service{{Name: "Napi menü", Description: "Leves és főétel hétköznap délben.", Price: "2 900 Ft"},
			{Name: "Kiszállítás", Description: "Ételek kiszállítása egyeztetett időpontra a városon belül.", Price: "900 Ft"}},
		FAQ: []QA{{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával és készpénzzel is."}}}
	checkAnswers(t, bistro, []answerCase{
		{Hungarian, "Hétvégére kell asztalt foglalni?", "", true, "Kedd–péntek"},
		{English, "Do I need to book a table for Saturday?", "", true, "Kedd–péntek"},
		{Hungarian, "Hétvégén nyitva vagytok?", "szombat–vasárnap 10–23", false, ""},
	})
	bistro.FAQ = append(bistro.FAQ, QA{Question: "Kell előre asztalt foglalni?", Answer: "Hétvégén ajánlott, telefonon vagy e-mailben."})
	checkAnswers(t, bistro, []answerCase{
		{Hungarian, "Szombatra kell asztalt foglalni?", "Hétvégén ajánlott", false, ""},
	})
}
