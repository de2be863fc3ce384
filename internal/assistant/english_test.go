package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestEnglishLoanWordEndsCompound: a Hungarian profile writes English loan words into its
// compounds ("webshop", "showroom"), so an English word whose stem ends such a compound names a part of
// it, as a Hungarian part does.
func TestEnglishLoanWordEndsCompound(t *testing.T) {
	for _, c := range []struct {
		en, hu string
		want   float64
	}{
		{"shops", "webshop", compound},
		{"stores", "webstore", compound},
		{"rooms", "showroom", compound},
	} {
		q := newTerm(c.en, true)
		k := makeTerm(c.hu, false, true)
		if got := match(&q, &k); got != c.want {
			t.Errorf("match(%s, %s) = %v, want %v", c.en, c.hu, got, c.want)
		}
	}
}

// TestPhrasePairs: an English word takes the Hungarian word a two-word phrase pairs it with
// when both dictionaries pair the phrases' first words ("french lesson" is "francia óra"), so
// "How long is a lesson?" finds the lesson's length, not another entry's "24 órával".
func TestPhrasePairs(t *testing.T) {
	p := Profile{CompanyName: "Próba Nyelviskola",
		Services: []Service{{Name: "Egyéni óra", Description: "Egy tanárral, 45 perces, online is.", Price: "9 000 Ft"}},
		FAQ:      []QA{{Question: "Le lehet mondani az órát?", Answer: "Az órát 24 órával előtte díjmentesen lemondhatja."}}}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: "How long is a lesson?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "45 perces") || strings.Contains(got.Text, "24 órával") {
		t.Errorf("handover %v, %q; want the lesson's 45 minutes only", got.Handover, got.Text)
	}
}
