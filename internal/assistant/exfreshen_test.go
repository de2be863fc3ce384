package assistant

import "testing"

// TestMinorSenseKeepsItsWord: an English word that reaches a word of the company's name only
// through a sense beyond its main ones (see minorSense) is no word of the name: it stays the
// visitor's word, whose main senses may name an entry. "hydraulic" reaches "szerviz" only by
// a late sense, and asks about the hydraulic jobs of a "Gépszerviz"; "hedge" reaches "kert"
// only as "kertel" (to beat about the bush), and asks about the hedges a "Zöldkert" plants.
// A word the name's own glosses begin with ("clean" of a "Takarító" firm, whose gloss is
// "cleaner") stays the name's word, however late the lexicon lists it.
func TestMinorSenseKeepsItsWord(t *testing.T) {
	machines := Profile{CompanyName: "Tóth Gépjavítás és Szerviz",
		Description: "Mezőgazdasági gépek javítása Kecelen.",
		Services: []Service{{Name: "Hidraulikus henger javítása", Description: "Tömítéscsere és nyomáspróba.", Price: "18 000 Ft"},
			{Name: "Traktor átvizsgálás", Description: "Szezon előtti ellenőrzés.", Price: "25 000 Ft"}},
		FAQ: []QA{{Question: "Kijöttök a tanyára?", Answer: "Igen, 30 km-en belül kiszállási díjjal."}}}
	garden := Profile{CompanyName: "Pápai Kertépítés Bt.",
		Description: "Kertek gondozása Pápán.",
		Services: []Service{{Name: "Sövényültetés", Description: "Tuják és babérmeggy ültetése.", Price: "4 800 Ft / fm"},
			{Name: "Gyepszellőztetés", Description: "Gépi szellőztetés és felülvetés.", Price: "150 Ft / m²"}},
		FAQ: []QA{{Question: "Hétvégén is dolgoztok?", Answer: "Szombaton igen, vasárnap nem."}}}
	cleaning := Profile{CompanyName: "Fényes Takarító Kft.",
		Description: "Lakások és irodák takarítása Győrben.",
		Services: []Service{{Name: "Nagytakarítás", Description: "Alapos takarítás ablakpucolással és a szekrények belsejével.", Price: "400 Ft / m²"},
			{Name: "Kárpittisztítás", Description: "Kanapék és matracok gépi mélytisztítása.", Price: "6 000 Ft-tól"}},
		FAQ: []QA{{Question: "Hozzátok a szereket?", Answer: "Igen, mi hozunk mindent."}}}
	checkAnswers(t, machines, []answerCase{
		{English, "How much is a hydraulic cylinder repair?", "18 000 Ft", false, ""},
		{English, "Do you repair hydraulic systems?", "Hidraulikus", false, ""},
	})
	checkAnswers(t, garden, []answerCase{
		{English, "Can you plant a hedge?", "Sövényültetés", false, ""},
		{English, "How much is a hedge per metre?", "4 800 Ft", false, ""},
	})
	checkAnswers(t, cleaning, []answerCase{{English, "Can you clean my car?", "", true, ""}})
}
