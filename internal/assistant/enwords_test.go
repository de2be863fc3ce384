package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestLooseKinMatchesInPart: an English word matches a Hungarian word its lexicon line lacks
// but its WordNet kin gives (morph's EnglishLoose) only in part, below a translation of its
// own: "neuter" is first "alter, spay, castrate" in WordNet, and "spay" is "ivartalanít";
// "hurt" is first "ache, smart", and "ache" is "fáj"; "toothache" is first a kind of "ache".
// "neuter" is
// "semleges" by its own line (fourth), and stays so.
func TestLooseKinMatchesInPart(t *testing.T) {
	for _, tc := range []struct {
		english, profile string
		want             float64
	}{
		{"neuter", "ivartalanítás", compound},
		{"hurts", "fáj", compound}, // the word "hurts" inflects
		{"hurt", "fáj", compound},
		{"toothache", "fájdalommal", compound},
		{"neuter", "semleges", sameIdea},
	} {
		q, k := newTerm(tc.english, true), makeTerm(tc.profile, false, true)
		q.looseOn = true // as score sets it for a word that matches no word of the profile
		if got := match(&q, &k); got != tc.want {
			t.Errorf("%s ~ %s: %v, want %v", tc.english, tc.profile, got, tc.want)
		}
	}
}

// TestLooseKinAnswers: of a made-up vet's profile, "How much is it to neuter a cat?" is
// answered with the spaying price (handed over before: no word of the profile translates
// "neuter"), and a question of something the profile lacks is still handed over.
func TestLooseKinAnswers(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Rendelő Bt.",
		Services: []Service{
			{Name: "Macska ivartalanítás", Description: "Altatásban, egy napos megfigyeléssel.", Price: "31 000 Ft"},
			{Name: "Veszettség elleni oltás", Description: "Kötelező évente.", Price: "9 000 Ft"},
		},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message  string
		handover bool
		want     string
	}{
		{"How much is it to neuter a cat?", false, "31 000 Ft"},
		{"Do you sell cat food?", true, ""},
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
