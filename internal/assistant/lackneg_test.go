package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestLackSaidAsNegation: a lack said as "X nélkül", "nincs X", "without X" or "no X", on
// either side, is one polarity: the made-up bookbinder's FAQ "Ragasztó nélkül is kötitek?"
// answers "without glue", "with no glue" and "ha nincs ragasztó", and its FAQ "Mi van, ha
// nincs ISBN-szám?" answers "ISBN-szám nélkül"; a question about glue itself gets the glue
// entry, not the entry of its lack.
func TestLackSaidAsNegation(t *testing.T) {
	p := Profile{CompanyName: "Próba Könyvkötészet",
		FAQ: []QA{{Question: "Ragasztó nélkül is kötitek a könyvet?", Answer: "Igen, cérnafűzéssel is dolgozunk."},
			{Question: "Milyen ragasztót használtok?", Answer: "Növényi alapú enyvet használunk."},
			{Question: "Borító nélküli könyvet is vállaltok?", Answer: "Papírkötést is készítünk."},
			{Question: "Mennyibe kerül egy bőr borító?", Answer: "Egy bőr borító 12 000 Ft."},
			{Question: "Hol lehet parkolni?", Answer: "Az udvarban van parkoló."}}}
	checkAnswers(t, p, []answerCase{
		{English, "Can you bind my book without glue?", "cérnafűzéssel", false, "enyvet"},
		{English, "Can you bind my book with no glue?", "cérnafűzéssel", false, "enyvet"},
		{Hungarian, "Ha nincs ragasztó, akkor is kötitek a könyvet?", "cérnafűzéssel", false, "enyvet"},
		{Hungarian, "Ragasztó nélkül is kötitek a könyvet?", "cérnafűzéssel", false, "enyvet"},
		{English, "What glue do you use?", "enyvet", false, "cérnafűzéssel"},
		{Hungarian, "Milyen ragasztót használtok?", "enyvet", false, "cérnafűzéssel"},
		{English, "Do you take a book without a cover?", "Papírkötést", false, ""},
		{English, "Do you take a book that has no cover?", "Papírkötést", false, ""},
		{Hungarian, "Vállaltok könyvet akkor is, ha nincs borítója?", "Papírkötést", false, ""},
		{Hungarian, "Borítótlan könyvet is vállaltok?", "Papírkötést", false, ""},
		{English, "How much is a leather cover?", "12 000", false, ""},
	})
}

// TestLackPostpositionIsNoTopic: "nélküli" (without, as an adjective) is the lack of the word
// before it, not a topic the profile lacks: "Borító nélküli könyvet is vállaltok?" gets the
// made-up bookbinder's FAQ "Borító nélkül is vállaltok könyvet?", both ways round.
func TestLackPostpositionIsNoTopic(t *testing.T) {
	for _, tc := range []struct{ faq, message string }{
		{"Borító nélkül is vállaltok könyvet?", "Borító nélküli könyvet is vállaltok?"},
		{"Borító nélküli könyvet is vállaltok?", "Borító nélkül is vállaltok könyvet?"},
	} {
		p := Profile{CompanyName: "Próba Könyvkötészet",
			FAQ: []QA{{Question: tc.faq, Answer: "Papírkötést is készítünk."},
				{Question: "Mennyibe kerül egy bőr borító?", Answer: "Egy bőr borító 12 000 Ft."},
				{Question: "Vállaltok régi könyvet?", Answer: "Antikvár kötést is javítunk."}}}
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, "Papírkötést") {
			t.Errorf("%q against %q: got (handover %v): %s", tc.message, tc.faq, got.Handover, got.Text)
		}
	}
}

// TestEnglishLackFindsWordOfLack: an English word said as lacking ("without glue", "no
// cover") is the Hungarian word of lack of its main translation ("ragasztómentes",
// "borítótlan"), as "nincs borítója" is; "with glue" still gets the glue entry, not its lack.
func TestEnglishLackFindsWordOfLack(t *testing.T) {
	p := Profile{CompanyName: "Próba Könyvkötészet",
		FAQ: []QA{{Question: "Ragasztómentes kötést is csináltok?", Answer: "Igen, cérnafűzéssel is dolgozunk."},
			{Question: "Milyen ragasztót használtok?", Answer: "Növényi alapú enyvet használunk."},
			{Question: "Borítótlan könyvet is vállaltok?", Answer: "Papírkötést is készítünk."},
			{Question: "Mennyibe kerül egy bőr borító?", Answer: "Egy bőr borító 12 000 Ft."}}}
	checkAnswers(t, p, []answerCase{
		{English, "Can you bind a book without glue?", "cérnafűzéssel", false, "enyvet"},
		{English, "Do you take a book with no cover?", "Papírkötést", false, ""},
		{Hungarian, "Vállaltok könyvet, ha nincs borítója?", "Papírkötést", false, ""},
		{English, "Can you bind a book with glue?", "enyvet", false, "cérnafűzéssel"},
		{English, "How much is a leather cover?", "12 000", false, ""},
	})
}

// TestHavingAdjectiveLacks: "borítós kötés nélkül" (without a binding with a cover) lacks the
// cover as "borító nélkül" does: the made-up bookbinder's FAQ answers "without a cover",
// "borító nélkül" and "borítótlan", while a plain price of a cover gets its own entry.
func TestHavingAdjectiveLacks(t *testing.T) {
	p := Profile{CompanyName: "Próba Könyvkötészet",
		FAQ: []QA{{Question: "Borítós kötés nélkül is vállaltok könyvet?", Answer: "Papírkötést is készítünk."},
			{Question: "Mennyibe kerül egy bőr borító?", Answer: "Egy bőr borító 12 000 Ft."},
			{Question: "Vállaltok régi könyvet?", Answer: "Antikvár kötést is javítunk."}}}
	checkAnswers(t, p, []answerCase{
		{English, "Do you take a book without a cover?", "Papírkötést", false, ""},
		{Hungarian, "Vállaltok könyvet borító nélkül?", "Papírkötést", false, ""},
		{Hungarian, "Vállaltok borítótlan könyvet?", "Papírkötést", false, ""},
		{English, "How much is a leather cover?", "12 000", false, ""},
	})
}

// TestNegativeQuestionAsksEitherWay: a question that opens with its negator ("Nincs
// diákkedvezmény?", "Isn't there a free slot on Saturday?") asks whether there is what it
// negates, which the made-up bookbinder's FAQ about it answers; a lack said in a clause of its
// own ("Nincs borítója a könyvnek, ...") is still the lack, answered by the lack's FAQ.
func TestNegativeQuestionAsksEitherWay(t *testing.T) {
	p := Profile{CompanyName: "Próba Könyvkötészet",
		FAQ: []QA{{Question: "Van diákkedvezmény?", Answer: "Diákigazolvánnyal 10% kedvezményt adunk."},
			{Question: "Van szabad időpont szombaton?", Answer: "Szombaton 9 és 12 között fogadunk."},
			{Question: "Borító nélkül is vállaltok könyvet?", Answer: "Papírkötést is készítünk."},
			{Question: "Mennyibe kerül egy bőr borító?", Answer: "Egy bőr borító 12 000 Ft."}}}
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Nincs diákkedvezmény?", "10% kedvezményt", false, ""},
		{English, "Isn't there a free slot on Saturday?", "Szombaton 9", false, ""},
		{Hungarian, "Nincs borítója a könyvnek, így is vállaljátok?", "Papírkötést", false, ""},
		{English, "How much is a leather cover?", "12 000", false, ""},
	})
}
