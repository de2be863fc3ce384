package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestNoJunkCompoundPart: a profile word the dictionary's rules read as a stem with suffixes is
// not also a compound of a word and those suffixes read as a word: "gyártói" (the maker's) has
// no "tó" (lake), "kapcsolók" (switches) no "cső" (pipe), "lakások" (flats) no "ásó" (spade),
// "vezetékek" (wires) no "eke" (plough). A compound the
// dictionary lists whole still has its parts ("készpénz": "kész", "pénz", money).
func TestNoJunkCompoundPart(t *testing.T) {
	for _, tc := range []struct {
		visitor, profile string
		want             bool
	}{
		{"lake", "gyártói", false},
		{"pipe", "kapcsolók", false},
		{"spade", "lakások", false},
		{"plough", "vezetékek", false},
		{"money", "készpénzzel", true},
	} {
		q, k := newTerm(tc.visitor, true), makeTerm(tc.profile, false, true)
		if got := match(&q, &k) > 0; got != tc.want {
			t.Errorf("%s ~ %s (parts %v): %v, want %v", tc.visitor, tc.profile, k.parts, got, tc.want)
		}
	}
}

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
