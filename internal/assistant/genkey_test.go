package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestShortFAQLeavesAWordToAnother: an FAQ whose whole question is one everyday word
// ("Hogyan lehet fizetni?") is not what a question asks that also names a word another FAQ's
// own question says ("részlet" of "Lehet részletre vásárolni?"): "Lehet részletre fizetni?"
// asks of instalments, and the ways to pay are no answer to it. A word the short FAQ says
// itself ("kártyával"), or one no other FAQ asks of, leaves it the answer, as does a question
// asked with the FAQ's own question word ("Hogyan…?").
func TestShortFAQLeavesAWordToAnother(t *testing.T) {
	p := Profile{CompanyName: "Hangoló Bt.", Address: "7621 Pécs, Király u. 8.",
		Services: []Service{
			{Name: "Zongorahangolás", Description: "Pianínó vagy zongora hangolása a helyszínen.", Price: "18 000 Ft"},
			{Name: "Mechanika javítása", Description: "Kalapácsok és billentyűk javítása, az alkatrészek ára külön.", Price: "60 000 Ft-tól"},
			{Name: "Teljes felújítás", Description: "Kalapácsfilcek, húrok és mechanika cseréje a műhelyben.", Price: "450 000 Ft-tól"}},
		FAQ: []QA{
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel, kártyával vagy átutalással, a munka végén."},
			{Question: "Lehet részletre vásárolni?", Answer: "Felújításnál három havi részletben, kamat nélkül."},
			{Question: "Mennyi ideig tart a felújítás?", Answer: "Általában hat hét."},
			{Question: "Ingyenes a felmérés?", Answer: "Igen, a helyszíni felmérés ingyenes."}}}
	const ways = "Készpénzzel, kártyával"
	cases := []struct {
		message   string
		want, not string
		first     bool // want begins the reply
	}{
		{message: "Lehet részletre fizetni a felújítást?", want: "három havi részletben", not: ways},
		{message: "Lehet részletre fizetni a zongorahangolást?", want: "három havi részletben", not: ways},
		{message: "Részletre is lehet fizetni?", want: "három havi részletben"},
		{message: "Lehet részletre fizetni a mechanika javítását?", want: "három havi részletben", not: ways},
		{message: "Hogyan lehet fizetni?", want: ways},
		{message: "Kártyával lehet fizetni a hangolást?", want: ways},
		// Asked with the short FAQ's own question word, the question is the FAQ's, of a thing.
		{message: "Hogyan lehet fizetni a felmérést?", want: ways, first: true},
	}
	for _, tc := range cases {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Text, tc.want) || tc.not != "" && strings.Contains(got.Text, tc.not) || tc.first && !strings.HasPrefix(got.Text, tc.want) {
			t.Errorf("%q: %q; want %q and not %q", tc.message, got.Text, tc.want, tc.not)
		}
	}
}

// TestPartOfAWordLeftForTheSecondAnswer: a word of the question that the first answer says
// only as a part of another word ("részlet" in "alkatrészek") is not answered by it, so an
// entry that says the word itself may answer it second: "Lehet részletre kérni a mechanika
// javítását?" is the repair and the instalments, not the repair alone.
func TestPartOfAWordLeftForTheSecondAnswer(t *testing.T) {
	p := Profile{CompanyName: "Hangoló Bt.", Address: "7621 Pécs, Király u. 8.",
		Services: []Service{
			{Name: "Mechanika javítása", Description: "Kalapácsok és billentyűk javítása, az alkatrészek ára külön.", Price: "60 000 Ft-tól"},
			{Name: "Zongorahangolás", Description: "Pianínó vagy zongora hangolása a helyszínen.", Price: "18 000 Ft"}},
		FAQ: []QA{
			{Question: "Lehet részletre vásárolni?", Answer: "Javításnál három havi részletben, kamat nélkül."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Lehet részletre kérni a mechanika javítását?", lang: Hungarian, want: "három havi részletben"},
		{message: "Mennyibe kerül a mechanika javítása?", lang: Hungarian, want: "60 000 Ft"},
	})
}

// TestOneWordAskedAlike: a question whose one topic word is the whole of a short FAQ's
// question ("fizetni" of "Hogyan lehet fizetni?") but asks of it with another question word
// ("Kell…?", whether, not how) is the question of another FAQ that holds the word and asks
// alike ("Kell előleget fizetni?"). Asked how, the short FAQ answers.
func TestOneWordAskedAlike(t *testing.T) {
	p := Profile{CompanyName: "Hangoló Bt.", Address: "7621 Pécs, Király u. 8.",
		Services: []Service{
			{Name: "Zongorahangolás", Description: "Pianínó vagy zongora hangolása a helyszínen.", Price: "18 000 Ft"}},
		FAQ: []QA{
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel, kártyával vagy átutalással, a munka végén."},
			{Question: "Kell előleget fizetni?", Answer: "Felújításnál 30% előleget kérünk a megrendeléskor."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Előre kell fizetni valamennyit?", lang: Hungarian, want: "30% előleget"},
		{message: "Hogyan tudok fizetni?", lang: Hungarian, want: "Készpénzzel, kártyával"},
		{message: "Mivel lehet fizetni?", lang: Hungarian, want: "Készpénzzel, kártyával"},
	})
}
