package assistant

import "testing"

// TestCommonWordAloneAnswersNothing: of a cat sitter whose every entry but one names the cat,
// a question whose only topic word is the cat, with generic words around it ("közbejön",
// "tud", "hoz"), names no entry: the FAQ that shares the cat and the question word "mi" with
// it is not an answer, and the question goes to a colleague. The same FAQ asked by its own
// topic ("beteg") still answers, and so does a question of the cat that asks a kind of answer
// (a length), which few entries state.
func TestCommonWordAloneAnswersNothing(t *testing.T) {
	p := Profile{CompanyName: "Dorombolás Kft.", Address: "4025 Debrecen, Piac u. 12.",
		Services: []Service{
			{Name: "Macskafelügyelet otthon", Description: "Naponta kétszer meglátogatjuk a macskát: etetés, itatás, alomtisztítás.", Price: "4 000 Ft / nap"},
			{Name: "Macskapanzió", Description: "A macska nálunk lakik, saját szobában, napi játékkal.", Price: "6 000 Ft / éj"},
			{Name: "Karomvágás", Description: "A macska karmainak óvatos rövidítése.", Price: "2 000 Ft"}},
		FAQ: []QA{
			{Question: "Mi van, ha beteg a macskám?", Answer: "Beteg macskát csak állatorvosi igazolással fogadunk."},
			{Question: "Meddig maradhat nálatok a macska?", Answer: "Legfeljebb 4 hétig fogadunk macskát."},
			{Question: "Le tudom mondani a foglalást?", Answer: "Legalább 48 órával előtte ingyen lemondható."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Mi van, ha közbejön valami és nem tudom hozni a macskát?", lang: Hungarian, handover: true},
		{message: "Mi van, ha beteg a macska?", lang: Hungarian, want: "állatorvosi igazolással"},
		{message: "Meddig lehet nálatok a macska?", lang: Hungarian, want: "4 hétig"},
	})
}
