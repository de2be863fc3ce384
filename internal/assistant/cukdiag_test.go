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
