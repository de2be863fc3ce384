package assistant

import "testing"

// TestNounTakesNoVerbGloss: an English word after an article or a possessive is a noun, and a
// Hungarian verb's glosses are its English verbs: "my house" is no "fogad" (receive, which
// glosses "house" first, as in housing someone). Of a made-up piano tuner who "fogad"
// (takes) pianos in for repair and also tunes at home, "Can you come to my house?" is the
// home service, not the workshop FAQ; a derived noun ("the cleaning") still names the
// verb's action.
func TestNounTakesNoVerbGloss(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Zongorahangoló",
		Services: []Service{
			{Name: "Házhoz menő hangolás", Description: "Hangolás az ügyfél lakásán, Budapesten.", Price: "18 000 Ft"},
			{Name: "Billentyűk tisztítása", Description: "A billentyűzet alapos tisztítása.", Price: "9 000 Ft"},
		},
		FAQ: []QA{{Question: "Régi hangszert is fogadtok javításra?", Answer: "Igen, bármilyen korú zongorát fogadunk a műhelyben."}},
	}
	checkAnswers(t, p, []answerCase{
		{lang: English, message: "Can you come to my house?", want: "18 000 Ft", not: "műhelyben"},
		{lang: English, message: "How much is the cleaning of the keys?", want: "9 000 Ft"},
	})
}

// TestPriceUnitTakesNoGloss: the word a price counts by ("25 000 Ft / hó", a month, "hó"
// short for "hónap") matches an English word only by the English word's own lexicon line,
// not by the unit's Hungarian glosses, which are those of another word spelled alike ("hó",
// snow). Of a made-up pool keeper, "Do you remove snow?" is handed over, not answered with
// the monthly care; the care is still answered when asked for.
func TestPriceUnitTakesNoGloss(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Medence Kft.",
		Services: []Service{
			{Name: "Medencekarbantartás", Description: "Heti vízvizsgálat és szűrőtisztítás.", Price: "25 000 Ft / hó-tól"},
			{Name: "Medence feltöltése", Description: "Feltöltés tiszta vízzel.", Price: "15 000 Ft"},
		},
		FAQ: []QA{{Question: "Vegyszert is hoztok?", Answer: "Igen, a vegyszert mi visszük."}},
	}
	checkAnswers(t, p, []answerCase{
		{lang: English, message: "Do you remove snow?", handover: true, want: "colleague", not: "25 000"},
		{lang: English, message: "And snow?", handover: true, want: "colleague", not: "25 000"},
		{lang: English, message: "How much is pool maintenance?", want: "25 000 Ft"},
	})
}

// TestConceptOfCompoundHead: a visitor's compound that has a concept only by its last part
// ("hűségkártya", loyalty card, is of paying by its "kártya") names a kind of the concept's
// thing, and matches the concept's other words only in part. Of a made-up second-hand
// bookshop, "Van hűségkártyátok?" is handed over, not answered with how to pay; a card
// payment is still answered, and a verb with its prefix ("előre bejelentkezni") keeps its
// concept.
func TestConceptOfCompoundHead(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Antikvárium",
		Services: []Service{
			{Name: "Könyvbecslés", Description: "Régi könyvek értékének becslése.", Price: "5 000 Ft"},
		},
		FAQ: []QA{
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy bankkártyával a pultnál."},
			{Question: "Kell időpontot kérni a becsléshez?", Answer: "Igen, a becsléshez időpontot adunk telefonon."},
		},
	}
	checkAnswers(t, p, []answerCase{
		{lang: Hungarian, message: "Van hűségkártyátok?", handover: true, want: "kollégánk", not: "pultnál"},
		{lang: Hungarian, message: "Lehet kártyával fizetni?", want: "bankkártyával"},
		{lang: Hungarian, message: "Kell előre bejelentkezni?", want: "időpontot adunk"},
	})
}

// TestPriceUnitCountedBy: an English word said as what something is counted by ("a night",
// "per night") still matches a price's unit word by its glosses ("éj", night, in "18 000 Ft
// / éj"), which the visitor's own lexicon line does not reach. A made-up guest house.
func TestPriceUnitCountedBy(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Vendégház",
		Services: []Service{
			{Name: "Kétágyas szoba", Description: "Saját fürdőszobával, reggelivel.", Price: "18 000 Ft / éj"},
			{Name: "Kerékpárbérlés", Description: "Túrakerékpár a vendégeknek.", Price: "3 000 Ft / nap"},
		},
	}
	checkAnswers(t, p, []answerCase{
		{lang: English, message: "What does a night cost?", want: "18 000 Ft"},
		{lang: English, message: "How much is a bike per day?", want: "3 000 Ft"},
	})
}
