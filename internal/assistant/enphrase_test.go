package assistant

import "testing"

// TestEnglishPronounsNameNoTopic: "he", "him", "his", "she", "her" point back at someone the
// visitor names or means; they name no topic the profile could lack, as "it" and "them" do
// not. Capitalised at the start of a sentence ("His helmet…") such a pronoun is no proper name
// either. A name the profile does not say still is one: no guess at its answer.
func TestEnglishPronounsNameNoTopic(t *testing.T) {
	p := Profile{CompanyName: "Patkó Lovarda", Address: "2000 Szentendre, Dózsa Gy. út 40.",
		Services: []Service{
			{Name: "Lovaglóóra kezdőknek", Description: "Egyórás óra futószáron, oktatóval.", Price: "9 000 Ft"}},
		FAQ: []QA{
			{Question: "Kell saját bukósisak?", Answer: "Nem kell, bukósisakot mi adunk minden lovasnak."},
			{Question: "Hány éves kortól lehet lovagolni?", Answer: "Hatéves kortól, szülői felügyelettel."}}}
	checkAnswers(t, p, []answerCase{
		{message: "His helmet is old. Do you give helmets?", lang: English, want: "bukósisakot mi adunk"},
		{message: "Her helmet: do you give one?", lang: English, want: "bukósisakot mi adunk"},
		{message: "Does she need a helmet for him?", lang: English, want: "bukósisakot mi adunk"},
		{message: "Does Peter need a helmet?", lang: English, handover: true},
		{message: "Do you give Haflinger helmets?", lang: English, handover: true},
	})
}

// TestPhrasalVerbSensesReplaceTheVerbs: a verb and its particle written apart ("pick up",
// "take away") are read as the phrase the dictionaries give senses of its own ("felvesz",
// "elvisz"), not as the verb alone ("pick": "kikeres", and a "tisztít" that matched the
// cleaning service) with a stop word; before, the take-away question got the cleaning service
// alone. The verb without its particle keeps its own senses.
func TestPhrasalVerbSensesReplaceTheVerbs(t *testing.T) {
	p := Profile{CompanyName: "Rojtos Bt.", Address: "4025 Debrecen, Piac u. 12.",
		Services: []Service{
			{Name: "Szőnyegtisztítás", Description: "Gépi mélytisztítás, folttisztítás és szárítás.", Price: "1 900 Ft / m²"},
			{Name: "Kárpittisztítás", Description: "Kanapé és fotel tisztítása helyszínen.", Price: "8 000 Ft-tól"}},
		FAQ: []QA{
			{Question: "Elviszitek a régi szőnyeget?", Answer: "A régi szőnyeget 3 000 Ft-ért elvisszük."},
			{Question: "Honnan veszitek fel a szőnyeget?", Answer: "Debrecenben otthonról felvesszük, és tisztán visszavisszük."},
			{Question: "Mennyi ideig tart a tisztítás?", Answer: "Általában egy hét."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Can you pick up the rug?", lang: English, want: "felvesszük"},
		{message: "Did you pick up the rug?", lang: English, want: "felvesszük"},
		{message: "Can you take away my rug after cleaning?", lang: English, want: "elvisszük"},
		{message: "How long does the cleaning take?", lang: English, want: "egy hét"},
		{message: "Can I pick a date?", lang: English, handover: true},
	})
}
