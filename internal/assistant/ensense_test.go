package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestMinorSense: an English word matches a profile word through a minor sense when neither
// dictionary ranks the pair among its main senses: "fine" gives "remek" (splendid) only fourth,
// and "remek" has no "fine" among its own first words. Both dictionaries pairing the words, a
// main sense of either, a main sense of a compound's part, or a pair that the dictionaries'
// two-word phrases give ("french lesson", "francia óra") is no minor sense.
func TestMinorSense(t *testing.T) {
	for _, tc := range []struct {
		english, profile string
		minor            bool
	}{
		{"fine", "remek", true},
		{"tips", "borítjuk", true},
		{"cover", "borítjuk", false},
		{"cancellation", "lemondás", false}, // each dictionary gives the other, though late
		{"lesson", "óra", false},            // two-word phrases pair them ("french lesson")
		{"shirt", "ingtisztítás", false},    // a part's first gloss
		{"gift", "ajándék", false},
	} {
		q, k := newTerm(tc.english, true), makeTerm(tc.profile, false, true)
		if match(&q, &k) < sameIdea {
			t.Fatalf("%s ~ %s: match %v, the case needs a match as one idea", tc.english, tc.profile, match(&q, &k))
		}
		if got := minorSense(&q, &k); got != tc.minor {
			t.Errorf("%s ~ %s: minor %v, want %v", tc.english, tc.profile, got, tc.minor)
		}
	}
}

// TestMinorSensesDecideNothing: of a made-up bookshop that covers the books it sells in foil
// ("borítjuk"), "Do you take tips?" matches that FAQ only through "tip" as "borít" (tip
// over), the fourth word of its entry, which "borít" does not give back among its first: it is
// handed over, not answered with the foil. Asked by a main sense ("cover" is "borít" third),
// the FAQ still answers.
func TestMinorSensesDecideNothing(t *testing.T) {
	p := Profile{
		CompanyName: "Lapozó Könyvesbolt",
		Services:    []Service{{Name: "Ajándékcsomagolás", Description: "Színes papírba csomagoljuk a könyvet.", Price: "500 Ft"}},
		FAQ: []QA{{Question: "Bekötitek a könyvet?", Answer: "Igen, átlátszó fóliával borítjuk, ingyen."},
			{Question: "Lehet könyvet rendelni?", Answer: "Igen, a hiányzó könyvet két hét alatt beszerezzük."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message  string
		handover bool
		want     string
	}{
		{"Do you take tips?", true, ""},
		{"Do you cover books?", false, "fóliával"},
		{"Can I order a book?", false, "két hét"},
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

// TestMinorSensesDoNotPool: a word matched only through a minor sense explains the question
// only in part, as a part of a compound does, and is no strong match: of a made-up bookshop
// whose FAQ offers help choosing a "remek ajándék" (a splendid gift), "Is there a fine for
// returning a gift?" matches it by "gift" and by "fine" as "remek" (fourth), which no longer
// add up to an answer: it is handed over. The gift questions are still answered.
func TestMinorSensesDoNotPool(t *testing.T) {
	p := Profile{
		CompanyName: "Lapozó Könyvesbolt",
		Services: []Service{{Name: "Ajándékcsomagolás", Description: "Színes papírba csomagoljuk a könyvet.", Price: "500 Ft"},
			{Name: "Ajándékutalvány", Description: "Bármely könyvre beváltható utalvány.", Price: "5 000 Ft-tól"}},
		FAQ: []QA{{Question: "Segítetek remek ajándékot választani?", Answer: "Igen, eladóink szívesen ajánlanak könyvet bármely korosztálynak."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message  string
		handover bool
		want     string
	}{
		{"Is there a fine for returning a gift?", true, ""},
		{"Can you help me choose a gift?", false, "szívesen ajánlanak"},
		{"How much is a gift voucher?", false, "5 000 Ft"},
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
