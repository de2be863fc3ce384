package assistant

import "testing"

// TestTieGoesToTheFAQAskedAlike: two FAQs match a question about equally, one asking with the
// visitor's own question word ("Hogyan…?" for "Hogy…?"), the other asking another thing of
// the same words ("Mennyi idővel előre…?"). The one asked alike is what the visitor asks;
// the other names more of the words only because it asks something else about them.
func TestTieGoesToTheFAQAskedAlike(t *testing.T) {
	p := Profile{CompanyName: "Lapozó Kft.", Address: "9021 Győr, Kossuth u. 3.",
		Services: []Service{
			{Name: "Fotóalbum kötése", Description: "Keményfedeles album vászonborítóval.", Price: "8 000 Ft"}},
		FAQ: []QA{
			{Question: "Hogyan tudok rendelni?", Answer: "Telefonon vagy személyesen a műhelyben; albumhoz küldje el a képeket."},
			{Question: "Mennyi idővel előre kell albumot rendelni?", Answer: "Legalább két héttel előre kérjük leadni."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Hogy tudok albumot rendelni, be kell mennem?", lang: Hungarian, want: "Telefonon"},
		{message: "Mennyi idővel előre kell albumot rendelni?", lang: Hungarian, want: "két héttel"},
	})
}

// TestNameFirstPartEntriesSayAlone: a company-name compound's first part that entries name as
// a word of their own ("cipő" of a "Cipőműhely" selling "Esküvői cipő") names a kind of what
// the company offers, so a question's word of it stays a topic: "esküvői cipő ára?" asks the
// wedding shoes' price, not the price of the fitting held before a wedding. The name's word
// itself still names the company.
func TestNameFirstPartEntriesSayAlone(t *testing.T) {
	p := Profile{CompanyName: "Diófa Cipőműhely", Address: "8200 Veszprém, Óváros tér 4.",
		Description: "Kézzel készült cipők és cipőjavítás Veszprémben.",
		Services: []Service{
			{Name: "Esküvői cipő", Description: "Selyem vagy bőr menyasszonyi és vőlegénycipő, méretre.", Price: "38 000 Ft / pár"},
			{Name: "Egyedi bőrcipő", Description: "Méretre készített utcai cipő.", Price: "52 000 Ft / pár"},
			{Name: "Sarokcsere", Description: "Kopott sarok cseréje.", Price: "4 500 Ft"}},
		FAQ: []QA{
			{Question: "Van próba esküvő előtt?", Answer: "Igen, egy próbát 3 000 Ft-ért tartunk, ennek árát az esküvői pár árából levonjuk."},
			{Question: "Hogyan tudok rendelni?", Answer: "Személyesen a műhelyben, méretvétellel."}}}
	checkAnswers(t, p, []answerCase{
		{message: "esküvői cipő ára?", lang: Hungarian, want: "38 000 Ft"},
		{message: "Hol van a cipőműhely?", lang: Hungarian, want: "Óváros tér 4"},
		{message: "How much are wedding shoes?", lang: English, want: "38 000 Ft"},
	})
}

// TestUntilWhenOnADayAsksTheHours: "Szombaton meddig vagytok?" names an opening day and asks
// until when, and nothing else: the opening hours answer, not an FAQ whose answer states an
// end date on a day ("péntek délig"). A "meddig" of a thing still asks how long it lasts.
func TestUntilWhenOnADayAsksTheHours(t *testing.T) {
	p := Profile{CompanyName: "Lapozó Kft.", Address: "9021 Győr, Kossuth u. 3.",
		OpeningHours: "Hétfő–péntek 8–16, szombat 9–12; vasárnap zárva.",
		Services: []Service{
			{Name: "Szakdolgozat kötése", Description: "Keményfedeles kötés aranyozott felirattal.", Price: "6 000 Ft"}},
		FAQ: []QA{
			{Question: "Mennyi idővel előre kell leadni a szakdolgozatot?", Answer: "Legalább két munkanappal; szombati átvételhez csütörtök délig hozza be."},
			{Question: "Meddig tart a kötés?", Answer: "Általában két munkanap."}}}
	checkAnswers(t, p, []answerCase{
		{message: "szombaton meddig vagytok?", lang: Hungarian, want: "szombat 9–12"},
		{message: "Meddig tart a kötés?", lang: Hungarian, want: "két munkanap"},
	})
}

// TestCountOfAThingNoFactSays: "Hány kalória…?" asks the number of calories; an entry that
// says the rest of the question (the glass, the juice) but no calories cannot answer it, and
// a colleague does. The number of a thing an entry does say is answered.
func TestCountOfAThingNoFactSays(t *testing.T) {
	p := Profile{CompanyName: "Napfény Kft.", Address: "6720 Szeged, Kárász u. 5.",
		Services: []Service{
			{Name: "Almalé", Description: "Frissen préselt almalé pohárban, 3 dl.", Price: "900 Ft"},
			{Name: "Gyümölcstál", Description: "Idény szerinti gyümölcsök tálon, kb. 20 darab.", Price: "4 500 Ft"}}}
	checkAnswers(t, p, []answerCase{
		{message: "Hány kalória egy pohár almalé?", lang: Hungarian, handover: true},
		{message: "How many calories are in a glass of apple juice?", lang: English, handover: true},
		{message: "Hány darab gyümölcs van a gyümölcstálon?", lang: Hungarian, want: "20 darab"},
	})
}
