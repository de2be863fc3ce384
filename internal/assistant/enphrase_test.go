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
