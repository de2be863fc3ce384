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
