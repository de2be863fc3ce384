package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestWhereToDoIsNoAddress: a where-question whose verb no fact says ("Hol tudok megállni a
// kocsival?" of a profile that says nothing of stopping or parking) asks where one may do
// something, not where the company is: a colleague answers, not the address. A where-question
// of the company's own place ("Hol van a műhely?"), or one whose verb a fact says, keeps its
// answer.
func TestWhereToDoIsNoAddress(t *testing.T) {
	p := Profile{CompanyName: "Csillag Képkeretező Bt.", Address: "7621 Pécs, Rákóczi út 5.",
		Description: "Képkeretezés és tükörkészítés saját műhelyben, 1998 óta.",
		Services:    []Service{{Name: "Képkeretezés", Description: "Fa vagy alumínium keret, üveggel és hátlappal.", Price: "8 000 Ft-tól"}},
		FAQ: []QA{{Question: "Hol lehet parkolni?", Answer: "Az udvarban két vendégparkoló van."},
			{Question: "Mennyi idő alatt készül el a keret?", Answer: "Általában egy hét."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Hol tudok megállni a kocsival?", "", true},
		{"Hol tudnánk együtt aludni?", "", true},
		{"Hol van a műhely?", "Rákóczi út 5", false},
		{"Hol vagytok?", "Rákóczi út 5", false},
		{"Hol lehet parkolni?", "vendégparkoló", false},
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
