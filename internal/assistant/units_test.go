package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestWordsReadsUnits: "m²" is the word "m2", not "m" and a dropped sign; a number and the unit
// written onto it are two words ("60nm", "9am"), a number and other letters one ("3D"); a sign of a unit is a word ("20%", "€50");
// "square metres" is one word.
func TestWordsReadsUnits(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"60 m²-es lakás", []string{"60", "m2", "es", "lakás"}},
		{"5 m³", []string{"5", "m3"}},
		{"60nm", []string{"60", "nm"}},
		{"9am", []string{"9", "am"}},
		{"b2b", []string{"b2b"}},
		{"3D-s", []string{"3d", "s"}},
		{"20kg-os", []string{"20", "kg", "os"}},
		{"20% kedvezmény", []string{"20", "%", "kedvezmény"}},
		{"€50 or 40 £", []string{"€", "50", "or", "40", "£"}},
		{"a 10 square metre room", []string{"a", "10", "squaremetre", "room"}},
		{"HUF 390,000.", []string{"huf", "390", "000", ""}},
		{"1.500 Ft, 1,5 óra", []string{"1", "500", "ft", "", "1", "", "5", "óra"}},
	} {
		if got := words(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("words(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestUnitInAnyForm: a unit written in any form, Hungarian or English, symbol or word, matches
// the profile's form of it as the same word; a number with its unit matches the same number in
// the same unit only. A word of a unit that is also an everyday noun ("óra": an hour, a lesson,
// a clock) is a unit only after a number.
func TestUnitInAnyForm(t *testing.T) {
	best := func(q, k []term) float64 {
		m := 0.0
		for i := range q {
			for j := range k {
				m = max(m, match(&q[i], &k[j]))
			}
		}
		return m
	}
	for _, tc := range []struct {
		visitor string
		english bool
		profile string
		want    float64
	}{
		{"nm", false, "m²", sameWord},
		{"négyzetméteres", false, "m2", sameWord},
		{"square metres", true, "m²", sameWord},
		{"sqm", true, "négyzetméter", sameWord},
		{"forintért", false, "Ft", sameWord},
		{"HUF", true, "forint", sameWord},
		{"euro", true, "€", sameWord},
		{"EUR", true, "euró", sameWord},
		{"kilométerre", false, "km", sameWord},
		{"percent", true, "százalék", sameWord},
		{"kilograms", true, "kg", sameWord},
		{"60 nm-es", false, "60 m²-es", sameWord},
		{"20 százalék", false, "20%", sameWord},
		{"2 hours", true, "2 óra", sameWord},
		{"90 min", true, "90 perc", sameWord},
		{"3 pcs", true, "3 db", sameWord},
		{"10 000 HUF", true, "10 000 Ft", sameWord},
		{"€50", true, "50 euró", sameWord},
		{"HUF 390,000", true, "390 000 Ft", sameWord},
		{"60", false, "50 m²", 0},      // a number alone is no quantity
		{"60 nm", false, "50 m²", 1.0}, // the unit still matches...
	} {
		q, k := textTerms(tc.visitor, tc.english, nil), termsOf(tc.profile)
		if got := best(q, k); got != tc.want {
			t.Errorf("%q ~ %q: %v, want %v", tc.visitor, tc.profile, got, tc.want)
		}
	}
	// ...but not the quantity, which names another size.
	q, k := termsOf("60 nm"), termsOf("50 m²")
	for i := range q {
		for j := range k {
			if (q[i].quantity || k[j].quantity) && match(&q[i], &k[j]) > 0 {
				t.Errorf("%q ~ %q: quantities match", q[i].fold, k[j].fold)
			}
		}
	}
	for text, want := range map[string]string{"60 m²-es": "60m2", "14 000 Ft": "14000huf", "€50": "50eur",
		"HUF 390,000": "390000huf", "20%": "20%"} {
		if !slices.ContainsFunc(termsOf(text), func(t term) bool { return t.quantity && t.fold == want }) {
			t.Errorf("terms of %q: no quantity %q", text, want)
		}
	}
	for _, tc := range []struct {
		text, unit string
	}{
		{"óra", ""}, {"2 óra", "h"}, {"hours", ""}, {"darab", ""}, {"m", ""}, {"5 m", "m"}, {"nm", "m2"},
	} {
		ts := termsOf(tc.text)
		i := slices.IndexFunc(ts, func(t term) bool { return !t.quantity })
		got := ""
		if i >= 0 {
			got = ts[i].unit.symbol()
		}
		if got != tc.unit {
			t.Errorf("unit of %q: %q, want %q", tc.text, got, tc.unit)
		}
	}
}

// TestQuestionUnitFindsProfileUnit: a made-up storage company states its boxes' sizes in "m²"
// and its delivery range in "km"; a visitor who writes "nm", "négyzetméteres", "square
// metres" or "kilométer" gets the entry with that size, and of two boxes alike but for their
// size, the one of the size asked.
func TestQuestionUnitFindsProfileUnit(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Tároló Kft.",
		Services: []Service{
			{Name: "Kis tárolóbox", Description: "3 m²-es zárható box a földszinten.", Price: "9 000 Ft / hó",
				NameEN: "Small storage box", DescriptionEN: "A lockable 3 m² box on the ground floor."},
			{Name: "Nagy tárolóbox", Description: "10 m²-es zárható box rámpával.", Price: "24 000 Ft / hó",
				NameEN: "Large storage box", DescriptionEN: "A lockable 10 m² box with a ramp."},
		},
		FAQ: []QA{{Question: "Elszállítjátok a holmimat?", Answer: "Igen, kisteherautóval, 30 km-en belül.",
			QuestionEN: "Do you move my things?", AnswerEN: "Yes, by van, within 30 km."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		lang      Language
		message   string
		want, not string
	}{
		{Hungarian, "Mennyibe kerül egy 10 nm-es box?", "24 000 Ft", "9 000 Ft"},
		{Hungarian, "Mennyibe kerül a 3 négyzetméteres?", "9 000 Ft", "24 000 Ft"},
		{English, "How much is a 10 square metre box?", "24 000 Ft", "9 000 Ft"},
		{English, "What does a 3 sqm box cost?", "9 000 Ft", "24 000 Ft"},
		{Hungarian, "Hány kilométeren belül?", "30 km", "Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) || strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, %q; want %q, not %q", tc.message, got.Handover, got.Text, tc.want, tc.not)
		}
	}
}

// TestSizeQuestionFindsAnArea: "mekkora", "how big", "milyen nagy" ask a size, which the entry
// that states one in a unit of area, volume or length gives, not another entry about the same
// thing. The English cases pass on the old code too ("big" after "how" was skipped, and the
// words of the caterer find its entry); they keep the new rule from taking another entry.
func TestSizeQuestionFindsAnArea(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Rendezvényház Kft.",
		Services: []Service{
			{Name: "Terembérlés", Description: "Világos, klimatizált terem, 120 m² alapterület.", Price: "40 000 Ft / nap",
				NameEN: "Hall hire", DescriptionEN: "A bright, air-conditioned hall of 120 m²."},
		},
		FAQ: []QA{
			{Question: "Mikor lehet bejárni a terembe?", Answer: "A terem a rendezvény előtt egy órával nyílik.",
				QuestionEN: "When can we get into the hall?", AnswerEN: "The hall opens one hour before the event."},
			{Question: "Hoztok ételt?", Answer: "Igen, a partner cateringünk 15 km-en belül szállít.",
				QuestionEN: "Do you bring food?", AnswerEN: "Yes, our partner caterer delivers within 15 km."},
		},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		lang      Language
		message   string
		want, not string
	}{
		{Hungarian, "Mekkora a terem?", "120 m²", "nyílik"},
		{Hungarian, "Milyen nagy a terem?", "120 m²", "nyílik"},
		{English, "How big is the hall?", "120 m²", "opens"},
		{English, "How far does the caterer deliver?", "15 km", "120"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) || strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, %q; want %q, not %q", tc.message, got.Handover, got.Text, tc.want, tc.not)
		}
	}
}

// TestTimeOfDayIsNoAge: "-kor" after a number ("9-kor", "20:00-kor") makes it a time of day; it
// is not the noun "kor" (age), which a swimming school's "4 éves kortól" (from the age of 4)
// uses.
func TestTimeOfDayIsNoAge(t *testing.T) {
	p := Profile{
		CompanyName:  "Próba Uszoda Kft.",
		OpeningHours: "Hétfő–péntek 6:00–21:00, szombat 8:00–18:00",
		Services:     []Service{{Name: "Úszásoktatás", Description: "Gyerekeknek 4 éves kortól, kis csoportban.", Price: "3 000 Ft / alkalom"}},
		FAQ:          []QA{{Question: "Van büfé?", Answer: "Igen, a bejáratnál."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message   string
		want, not string
	}{
		{"Nyitva vagytok szombaton 9-kor?", "szombat 8:00–18:00", "kortól"},
		{"Lehet jönni 7-kor?", "", "kortól"},
		{"Lehet úszni 20:00-kor?", "", "kortól"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Text, tc.want) || strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: %q; want %q, not %q", tc.message, got.Text, tc.want, tc.not)
		}
	}
	if got := termsOf("Bejelentkezés 4 éves kortól, nyitás 9-kor."); slices.ContainsFunc(got, func(t term) bool { return t.fold == "kor" }) {
		t.Errorf("the terms of a profile text have the suffix of \"9-kor\" as a word")
	}
}
