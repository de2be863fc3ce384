package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestSuspendedHyphenWritesOutCompounds: Hungarian orthography suspends the shared part of
// coordinated compounds with a hyphen; each suspended part is the whole compound.
func TestSuspendedHyphenWritesOutCompounds(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		made    []string
	}{
		{"Ajtó- és ablakjavítás", "Ajtójavítás és ablakjavítás", []string{"Ajtójavítás"}},
		{"a be- és kivétel", "a bevétel és kivétel", []string{"bevétel"}},
		{"kis-, közép- vagy nagykereskedelem", "kiskereskedelem, középkereskedelem vagy nagykereskedelem", []string{"kiskereskedelem", "középkereskedelem"}},
		{"Bútorszétszerelés és -összeszerelés", "Bútorszétszerelés és Bútorösszeszerelés", []string{"Bútorösszeszerelés"}},
		{"e-mail, Hétfő-Péntek 8-17", "e-mail, Hétfő-Péntek 8-17", nil},
	} {
		out, made := expandSuspended(tc.in)
		if out != tc.out || !slices.Equal(made, tc.made) {
			t.Errorf("%q: %q %q; want %q %q", tc.in, out, made, tc.out, tc.made)
		}
	}
}

// TestSuspendedHyphenMatches: of a made-up joinery, the service written "Ajtó- és
// ablakjavítás" is the one asked as "ajtójavítás" or "ajtót javítotok", and a question that
// suspends a part itself names the whole compound.
func TestSuspendedHyphenMatches(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Asztalosműhely Kft.",
		Services: []Service{
			{Name: "Ajtó- és ablakjavítás", Description: "Zárak, zsanérok, tömítések cseréje.", Price: "12 000 Ft-tól"},
			{Name: "Konyhabútor-készítés", Description: "Egyedi konyhák méretre.", Price: "árajánlat alapján"},
			{Name: "Bútorszétszerelés és -összeszerelés", Description: "Költözéshez, helyszínen.", Price: "8 000 Ft/óra"},
		},
		FAQ: []QA{{Question: "Mennyi idő alatt készül el egy konyha?", Answer: "Általában 4-6 hét."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct{ message, want string }{
		{"Mennyibe kerül egy ajtójavítás?", "12 000 Ft"},
		{"Mennyiért javítjátok meg az ajtót?", "12 000 Ft"},
		{"Mennyi egy bútorösszeszerelés?", "8 000 Ft"},
		{"Mennyibe kerül az ajtó- vagy ablakjavítás?", "12 000 Ft"},
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
