package assistant

import "testing"

// TestRestatedQuestion: a question of generic words only ("jön", "lenni") that one FAQ's
// question says, asking the same kind of question, is that FAQ's question in fewer words and
// is answered by it: "Hányan jöttök?" of "Hány fővel jöttök?", "Ott kell lennem?" of "Otthon
// kell lennem a munka alatt?". It is handed over when it asks another kind of question ("Mit
// dolgoztok?" is no "Vidéken is dolgoztok?", "Miért jöttök?" no "Hány fővel jöttök?"), or
// when another entry's question says the word too.
func TestRestatedQuestion(t *testing.T) {
	p := Profile{CompanyName: "Fenyves Kertgondozó Bt.",
		Services: []Service{{Name: "Fűnyírás", Description: "Szegélyvágással, a levágott fű elszállításával.", Price: "60 Ft / m²"}},
		FAQ: []QA{{Question: "Hány fővel jöttök?", Answer: "Általában ketten érkezünk, nagy kertbe hárman."},
			{Question: "Otthon kell lennem a munka alatt?", Answer: "Nem, elég a kaput nyitva hagyni."},
			{Question: "Vidéken is dolgoztok?", Answer: "Csak a megyében, 30 km-en belül."}}}
	busier := p
	busier.FAQ = append(append([]QA(nil), p.FAQ...), QA{Question: "Esőben is jöttök?", Answer: "Szakadó esőben nem nyírunk."})
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Hányan jöttök?", "ketten", false, ""},
		{Hungarian, "Ott kell lennem?", "kaput", false, ""},
		{Hungarian, "Hányan dolgoztok?", "", true, ""},
		{Hungarian, "Mikor jöttök?", "", true, ""},
		{Hungarian, "Miért jöttök?", "", true, ""},
		{Hungarian, "Mit dolgoztok?", "", true, ""},
	})
	checkAnswers(t, busier, []answerCase{{Hungarian, "Hányan jöttök?", "", true, ""}})
}
