package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestLateSenseMatchesInPart: an English word matches a profile word through its lexicon's
// sixth sense or later, or through a later English word of the profile word's compound part,
// only in part; its first five senses and a part's first glosses still match as its idea.
// "plumbing" (filed under "plumb") gives "mér" (measure) sixth, and "plumb" is a late gloss
// of "vizsgál" (examine).
func TestLateSenseMatchesInPart(t *testing.T) {
	for _, tc := range []struct {
		english, profile string
		want             float64
	}{
		{"plumbing", "mérés", compound},          // the word's sixth sense
		{"plumbing", "felmérés", compound},       // the sixth sense of a part ("mér")
		{"plumbing", "felülvizsgálat", compound}, // a late gloss of a part ("vizsgál")
		{"lesson", "óra", sameIdea},              // fifth sense: still the idea
		{"store", "gumitárolás", sameIdea},       // a part's first gloss
	} {
		q, k := newTerm(tc.english, true), makeTerm(tc.profile, false, true)
		if got := match(&q, &k); got != tc.want {
			t.Errorf("%s ~ %s: %v, want %v", tc.english, tc.profile, got, tc.want)
		}
	}
}

// TestLateSenseHandsOver: of an electrician's profile that names an inspection with its
// measurement and wholesale prices, "Do you do plumbing as well?" is handed over, not
// answered with the inspection ("plumbing" matches "mérés", measurement, only through its
// sixth sense; "well" the "nagy" of "nagykereskedelmi" through "nagyon", very, fourth). The
// inspection is still answered when asked for.
func TestLateSenseHandsOver(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Villany Kft.",
		Services: []Service{
			{Name: "Villamos biztonsági felülvizsgálat", Description: "Érintésvédelmi mérés és jegyzőkönyv.", Price: "30 000 Ft-tól"},
			{Name: "Konnektor cseréje", Description: "Régi dugalj cseréje újra.", Price: "6 000 Ft / db"},
		},
		FAQ: []QA{{Question: "Ki veszi meg az anyagot?", Answer: "Mi szerezzük be, nagykereskedelmi áron számlázzuk."},
			{Question: "Mérőórát is áthelyeztek?", Answer: "Igen, a felmérés után a szolgáltatóval egyeztetünk."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message  string
		handover bool
		want     string
	}{
		{"Do you do plumbing as well?", true, ""},
		{"How much is a safety inspection?", false, "30 000 Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}
