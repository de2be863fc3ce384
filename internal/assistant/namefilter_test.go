package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestNameWordOfAKindStays: a Hungarian word that holds a word of the company's name and more
// ("gyerektánc", "gyerektáncra", "táncóra" of "Csillag Tánc", even where the guessed stem of
// "táncóra" matches "tánc" as one stem) names a kind of what the company does and
// stays a topic; the name's word itself, inflected or not, is still left out as the company.
func TestNameWordOfAKindStays(t *testing.T) {
	x := NewIndex(Profile{CompanyName: "Csillag Tánc Kft.",
		Description: "Tánc minden korosztálynak Kecskeméten.",
		Services: []Service{
			{Name: "Gyerektánc", Description: "Hat éves kortól, heti két alkalom.", Price: "5 000 Ft"},
			{Name: "Párostánc", Description: "Kezdő és haladó csoport.", Price: "8 000 Ft"},
		}})
	for _, c := range []struct {
		question string
		kept     []string
	}{
		{"Mennyibe kerül a gyerektánc?", []string{"gyerektanc"}},
		{"Hány éves kortól jöhet a fiam gyerektáncra?", []string{"gyerektancra"}},
		{"Milyen hosszú egy táncóra?", []string{"tancora"}},
		{"Hol van a tánc?", nil},
		{"Hol vannak a táncok?", nil},
	} {
		q := newQuery(c.question, Contact{}, x.facts).without(x.company, x.facts)
		var got []string
		for _, qt := range q.terms {
			if strings.Contains(qt.fold, "tanc") {
				got = append(got, qt.fold)
			}
		}
		if !slices.Equal(got, c.kept) {
			t.Errorf("%q: name words kept %q, want %q", c.question, got, c.kept)
		}
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: Profile{CompanyName: "Csillag Tánc Kft.",
		Description: "Tánc minden korosztálynak Kecskeméten.",
		Services: []Service{
			{Name: "Gyerektánc", Description: "Hat éves kortól, heti két alkalom.", Price: "5 000 Ft"},
			{Name: "Párostánc", Description: "Kezdő és haladó csoport.", Price: "8 000 Ft"},
		}}, Message: "Mennyibe kerül a gyerektánc?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "5 000 Ft") || strings.Contains(got.Text, "8 000 Ft") {
		t.Errorf("handover %v, %q; want the children's class price alone", got.Handover, got.Text)
	}
}
