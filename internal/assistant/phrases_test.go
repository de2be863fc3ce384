package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestFreeOfIsALackWord: an English noun hyphenated with "free" is the noun with a suffix of
// lack, as Hungarian builds it ("sugar-free": "cukormentes"), not the noun and "free" of
// charge: of a made-up cake shop, the sugar-free cake answers "sugar-free" and no other
// "-free" cake, which is handed over, and "free" alone still asks about what is free.
func TestFreeOfIsALackWord(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Cukrászda Kft.",
		Services: []Service{
			{Name: "Cukormentes torta", Description: "Édesítőszerrel készült torta.", Price: "9 000 Ft"},
			{Name: "Csokoládétorta", Description: "Étcsokoládés torta.", Price: "8 000 Ft"},
		},
		FAQ: []QA{{Question: "Van kóstoló?", Answer: "Szombatonként ingyenes kóstolót tartunk."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message  string
		handover bool
		want     string
	}{
		{"Do you have sugar-free cakes?", false, "9 000 Ft"},
		{"Is there a gluten-free cake?", true, ""},
		{"Do you make a dairy-free chocolate cake?", true, ""},
		{"Is the tasting free?", false, "ingyenes kóstolót"},
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

// TestLackPhraseWords: the pair's words are each of the noun's words with the suffix of lack,
// in the noun's order, as the rules read them; a word that is no suffix of lack makes none.
func TestLackPhraseWords(t *testing.T) {
	for _, tc := range []struct {
		a, b, profile string
		want          float64
	}{
		{"sugar", "free", "cukormentes", translated},
		{"sugar", "free", "cukortalan", translated}, // the other suffix, through the profile's lemmas
		{"sugar", "free", "ingyenes", 0},
		{"sugar", "free", "cukor", 0},
		{"interest", "free", "kamatmentes", sameIdea}, // "interest" is "kamat" fourth
	} {
		q, ok := lackPhrase(tc.a, tc.a, tc.b)
		if !ok {
			t.Fatalf("%s-%s: no word of lack", tc.a, tc.b)
		}
		k := makeTerm(tc.profile, false, true)
		if got := match(&q, &k); got != tc.want {
			t.Errorf("%s-%s ~ %s: %v, want %v", tc.a, tc.b, tc.profile, got, tc.want)
		}
	}
	if _, ok := lackPhrase("walk", "walk", "in"); ok {
		t.Error("walk-in read as a word of lack")
	}
}
