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
	for _, tc := range []struct {
		message string
		lang    Language
		want    string
	}{
		{"Can you bind my book without glue?", English, "cérnafűzéssel"},
		{"Can you bind my book with no glue?", English, "cérnafűzéssel"},
		{"Ha nincs ragasztó, akkor is kötitek a könyvet?", Hungarian, "cérnafűzéssel"},
		{"Ragasztó nélkül is kötitek a könyvet?", Hungarian, "cérnafűzéssel"},
		{"What glue do you use?", English, "enyvet"},
		{"Milyen ragasztót használtok?", Hungarian, "enyvet"},
		{"Do you take a book without a cover?", English, "Papírkötést"},
		{"Do you take a book that has no cover?", English, "Papírkötést"},
		{"Vállaltok könyvet akkor is, ha nincs borítója?", Hungarian, "Papírkötést"},
		{"Borítótlan könyvet is vállaltok?", Hungarian, "Papírkötést"},
		{"How much is a leather cover?", English, "12 000"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: want the entry saying %q, got (handover %v): %s", tc.message, tc.want, got.Handover, got.Text)
		}
	}
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
	for _, tc := range []struct {
		message string
		lang    Language
		want    string
	}{
		{"Can you bind a book without glue?", English, "cérnafűzéssel"},
		{"Do you take a book with no cover?", English, "Papírkötést"},
		{"Vállaltok könyvet, ha nincs borítója?", Hungarian, "Papírkötést"},
		{"Can you bind a book with glue?", English, "enyvet"},
		{"How much is a leather cover?", English, "12 000"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: want the entry saying %q, got (handover %v): %s", tc.message, tc.want, got.Handover, got.Text)
		}
	}
}

// TestHavingAdjectiveLacks: "borítós kötés nélkül" (without a binding with a cover) lacks the
// cover as "borító nélkül" does: the made-up bookbinder's FAQ answers "without a cover",
// "borító nélkül" and "borítótlan", while a plain price of a cover gets its own entry.
func TestHavingAdjectiveLacks(t *testing.T) {
	p := Profile{CompanyName: "Próba Könyvkötészet",
		FAQ: []QA{{Question: "Borítós kötés nélkül is vállaltok könyvet?", Answer: "Papírkötést is készítünk."},
			{Question: "Mennyibe kerül egy bőr borító?", Answer: "Egy bőr borító 12 000 Ft."},
			{Question: "Vállaltok régi könyvet?", Answer: "Antikvár kötést is javítunk."}}}
	for _, tc := range []struct {
		message string
		lang    Language
		want    string
	}{
		{"Do you take a book without a cover?", English, "Papírkötést"},
		{"Vállaltok könyvet borító nélkül?", Hungarian, "Papírkötést"},
		{"Vállaltok borítótlan könyvet?", Hungarian, "Papírkötést"},
		{"How much is a leather cover?", English, "12 000"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: want the entry saying %q, got (handover %v): %s", tc.message, tc.want, got.Handover, got.Text)
		}
	}
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
	for _, tc := range []struct {
		message string
		lang    Language
		want    string
	}{
		{"Nincs diákkedvezmény?", Hungarian, "10% kedvezményt"},
		{"Isn't there a free slot on Saturday?", English, "Szombaton 9"},
		{"Nincs borítója a könyvnek, így is vállaljátok?", Hungarian, "Papírkötést"},
		{"How much is a leather cover?", English, "12 000"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: want the entry saying %q, got (handover %v): %s", tc.message, tc.want, got.Handover, got.Text)
		}
	}
}
