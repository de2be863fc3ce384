package assistant

import "testing"

// priceProfile is a made-up watch repairer whose FAQ about opening a watch mentions the seal
// that one of its priced services is.
func priceProfile() Profile {
	return Profile{CompanyName: "Ketyegő Kft.",
		Description:  "Karórák és faliórák javítása, elemcsere és tömítés megvárható.",
		OpeningHours: "Hétfő–péntek 9–17",
		Address:      "Győr, Próba utca 7.",
		Services: []Service{
			{Name: "Elemcsere", Description: "Karóra elemének cseréje, helyben, pár perc alatt.", Price: "3 500 Ft"},
			{Name: "Vízálló tömítés", Description: "Karcolásálló gumitömítés, nyomáspróbával.", Price: "12 000 Ft-tól"},
			{Name: "Szíjcsere", Description: "Bőr- vagy fémszíj felszerelése, a régi szíj elvihető.", Price: "4 000 Ft-tól"},
			{Name: "Sürgős javítás", Description: "Javítás még aznap, a sorban előre véve.", Price: "a javítás ára + 5 000 Ft"},
			{Name: "Rendszeres karbantartás", Description: "Havi átalány: évente kétszeri átvizsgálás.", Price: "9 000 Ft / hó"},
			{Name: "Ultrahangos tisztítás", Description: "A tok és a fémszíj tisztítása, szárítással.", Price: "2 500 Ft"},
		},
		FAQ: []QA{
			{Question: "Kinyitjátok a hátlapot?", Answer: "Igen, kíméletesen: a tömítést sem karcoljuk meg."},
			{Question: "Van garancia a javításra?", Answer: "Minden javításra egy év garanciát adunk."},
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy kártyával, az átvételkor."},
			{Question: "Milyen órákat vállaltok?", Answer: "Kar- és faliórát, mechanikusat és kvarcot is."},
			{Question: "Benne van az árban a tisztítás?", Answer: "A javítás árában nincs benne; a tisztítás külön kérhető."},
		}}
}

// TestTrailingHowMuch: a "mennyi" that stands as a part of its own, with no topic word ("…?
// Mennyi?", "…, az mennyi lesz?"), asks the price of what the message named before it, when
// that is a priced service's own name; and that name said, the rest of the question may
// describe the service in the visitor's words, also when another entry chosen beside the
// service ("Milyen órákat vállaltok?" by "vállaltok") leaves the two short of an answer. A trailing "mennyi" of what no priced service
// names ("…garancia? Mennyi?") asks no price.
func TestTrailingHowMuch(t *testing.T) {
	checkAnswers(t, priceProfile(), []answerCase{
		{Hungarian, "Van olyan tömítésetek, amit nem lehet megkarcolni? Mennyi?", "12 000 Ft", false, "kíméletesen"},
		{Hungarian, "Van tömítés, amit nem lehet megkarcolni? Mennyi lenne?", "12 000 Ft", false, "kíméletesen"},
		{Hungarian, "Tömítés, amit nem lehet megkarcolni, az mennyi lesz?", "12 000 Ft", false, "kíméletesen"},
		{Hungarian, "Havidíjas karbantartást is vállaltok gyűjtőknek? Mennyi?", "9 000 Ft", false, ""},
		{Hungarian, "Van garancia a javításra? Mennyi?", "egy év garanciát", false, "Ft"},
	})
}

// TestHowMuchOfAPricedService: a bare "mennyi" of a word that an FAQ and one priced service
// both name by their own words ("Mennyi a tisztítás?" of "Benne van az árban a tisztítás?" and
// "Ultrahangos tisztítás") asks what the service costs; a word in the distributive case
// ("alkalmanként", "havonta") in such a question, or right after its "mennyi", is the unit of
// the price, not a topic the profile must say.
func TestHowMuchOfAPricedService(t *testing.T) {
	checkAnswers(t, priceProfile(), []answerCase{
		{Hungarian, "Mennyi a tisztítás?", "2 500 Ft", false, "külön kérhető"},
		{Hungarian, "Mennyi a tisztítás alkalmanként?", "2 500 Ft", false, "külön kérhető"},
		{Hungarian, "Mennyi alkalmanként a tisztítás?", "2 500 Ft", false, "külön kérhető"},
		{Hungarian, "Mennyi havonta a tisztítás?", "2 500 Ft", false, "külön kérhető"},
		{Hungarian, "Mennyi a garancia?", "egy év garanciát", false, "Ft"},
	})
}

// TestHowMuchMoreToPay: "mennyivel kell többet fizetni" asks what something costs beyond the
// usual, a price, not whether or how one pays.
func TestHowMuchMoreToPay(t *testing.T) {
	checkAnswers(t, priceProfile(), []answerCase{
		{Hungarian, "Sürgős javításnál mennyivel kell többet fizetni?", "5 000 Ft", false, "Készpénzzel"},
		{Hungarian, "Sürgős javításnál mennyivel többet kell fizetni?", "5 000 Ft", false, "Készpénzzel"},
	})
}

// recordProfile is a made-up record cleaner whose FAQ about posting mentions records and a
// price of its own.
func recordProfile() Profile {
	return Profile{CompanyName: "Barázda Bt.",
		Description: "Hanglemezek gondozása Pécsett.",
		Services: []Service{
			{Name: "Bakelit felújítás", Description: "Tisztítás ultrahanggal, antisztatikus tasakkal.", Price: "900 Ft / lemez"},
			{Name: "Digitalizálás", Description: "Lemezről hangfájl, sávokra vágva.", Price: "3 000 Ft / lemez"},
		},
		FAQ: []QA{
			{Question: "Tisztítás postán?", Answer: "Igen, a bakelit lemezeket postán is fogadjuk; a visszaküldés 2 000 Ft."},
			{Question: "Bakelit postán?", Answer: "Igen, fogadjuk; a visszaküldés 2 000 Ft."},
		}}
}

// TestPriceOfTheNamedService: a price question that an FAQ and a priced service match as
// much, the FAQ by a word of its question and one of its answer, which states a price of
// something else, asks the price of the service the question names; so does one that names
// the two alike ("Bakelit ára?" of "Bakelit postán?" and "Bakelit felújítás").
func TestPriceOfTheNamedService(t *testing.T) {
	checkAnswers(t, recordProfile(), []answerCase{
		{Hungarian, "Mennyibe kerül a bakelit tisztítás?", "900 Ft", false, "2 000 Ft"},
		{Hungarian, "Mi a bakelit tisztítás ára?", "900 Ft", false, "2 000 Ft"},
		{Hungarian, "Bakelit ára?", "900 Ft", false, "2 000 Ft"},
	})
}
