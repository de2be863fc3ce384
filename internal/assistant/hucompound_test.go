package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestTranslationEndsInAPart: an English word whose lexicon gives a compound ending in a part
// of the profile's compound matches it in part: "blinds" is "ablakredőny" (window blind), and
// "redőnyvezérlés" (blind control) begins with "redőny".
func TestTranslationEndsInAPart(t *testing.T) {
	q, k := newTerm("blinds", true), makeTerm("redőnyvezérlés", false, true)
	if got := match(&q, &k); got != compound {
		t.Errorf("blinds ~ redőnyvezérlés: %v, want %v", got, compound)
	}
	p := Profile{
		CompanyName: "Próba Villany Kft.",
		Services: []Service{
			{Name: "Szerelvénycsere", Description: "Régi kapcsolók és konnektorok cseréje.", Price: "6 000 Ft / db"},
			{Name: "Okosotthon", Description: "Okos redőnyvezérlés és világítás telefonról.", Price: "45 000 Ft-tól"},
			{Name: "Lámpa felszerelése", Description: "Mennyezeti lámpa bekötése.", Price: "9 000 Ft"},
		},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: "Can you install smart blinds?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "redőnyvezérlés") {
		t.Errorf("blinds: handover %v, %q; want the smart home service", got.Handover, got.Text)
	}
}
