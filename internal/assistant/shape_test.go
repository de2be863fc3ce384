package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestWhetherPaidIsNoPriceQuestion: a yes-or-no question of paying asks whether one pays, not
// how much, though it names a fee: "Újra kell fizetni a vizsgadíjat?" is answered by the FAQ
// on failing, not handed over for a price the FAQ does not state nor answered with the exam's
// price. A question of how much still asks the price.
func TestWhetherPaidIsNoPriceQuestion(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Nyelvstúdió",
		Services:    []Service{{Name: "Nyelvvizsga-felkészítő", Description: "Tíz alkalom kiscsoportban.", Price: "60 000 Ft"}},
		FAQ: []QA{
			{Question: "Mennyibe kerül a nyelvvizsga?", Answer: "A nyelvvizsga díja 32 000 Ft."},
			{Question: "Mi van, ha nem sikerül a nyelvvizsga?", Answer: "Egy ingyenes konzultációt adunk; a vizsgadíjat újra be kell fizetni."},
		},
	}
	x := NewIndex(p)
	for _, tc := range []struct{ message, want string }{
		{"Ha megbukom, újra kell fizetni a nyelvvizsga díját?", "újra be kell fizetni"},
		{"Ha megbukom, újra kell fizetni a vizsgadíjat?", "újra be kell fizetni"},
		{"Mennyit kell fizetni a nyelvvizsgáért?", "32 000 Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}
