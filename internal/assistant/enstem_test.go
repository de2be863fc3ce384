package assistant

import "testing"

// TestDerivedWordGlossOfAnotherEntry: an English word far past its Snowball stem does not match
// a Hungarian word through that word's gloss when the gloss is another entry's word of the
// stem: "állít" glosses "install" as a main sense, stem "instal", which "installments" shares;
// its own line ranks "állít" late, so "Can I pay for the repair in installments?" of a restorer whose entry
// says "helyreállítás" and no fact says instalments is handed over, not answered with it.
func TestDerivedWordGlossOfAnotherEntry(t *testing.T) {
	p := Profile{CompanyName: "Patina Bútorműhely Kft.", Address: "9021 Győr, Kazinczy utca 12.",
		Description: "Régi bútorok javítása és felújítása saját műhelyben.",
		Services: []Service{{Name: "Bútor helyreállítás", Description: "Törött lábak, fiókok és ajtók javítása, felületkezeléssel.", Price: "18 000 Ft-tól"},
			{Name: "Kárpitozás", Description: "Székek és fotelek újrakárpitozása választható anyagból.", Price: "25 000 Ft-tól"}},
		FAQ: []QA{{Question: "Mikor vagytok nyitva?", Answer: "Hétköznap 8 és 16 óra között."}}}
	checkAnswers(t, p, []answerCase{
		{lang: English, message: "Can I pay for the repair in installments?", handover: true},
		{lang: English, message: "How much is the upholstery?", want: "25 000 Ft", handover: false},
	})
}
