package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestGenericWordsExplainNothing: a fact whose only words in common with the question are
// generic ones ("jön", come) does not answer it, however short the FAQ question it answers:
// "Miben kell jönni?" (what to come in) shares only "jön" with "Gyerekkel is jöhetek?" and is
// handed over, while a question that names the FAQ's topic is still answered.
func TestGenericWordsExplainNothing(t *testing.T) {
	p := Profile{CompanyName: "Csermely Kerámiaműhely",
		Services: []Service{{Name: "Korongozás", Description: "Kétórás alkalom, anyaggal és égetéssel.", Price: "9 000 Ft"}},
		FAQ: []QA{{Question: "Gyerekkel is jöhetek?", Answer: "Igen, nyolc éves kortól szívesen látjuk."},
			{Question: "Hol lehet parkolni?", Answer: "Az udvarban ingyen."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Miben kell jönni?", "", true},
		{"Gyerekkel is jöhetek?", "nyolc éves", false},
		{"Hol tudok parkolni?", "udvarban", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}
