package assistant

import "testing"

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
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Hol tudok megállni a kocsival?", "", true, ""},
		{Hungarian, "Hol tudnánk együtt aludni?", "", true, ""},
		{Hungarian, "Hol van a műhely?", "Rákóczi út 5", false, ""},
		{Hungarian, "Hol vagytok?", "Rákóczi út 5", false, ""},
		{Hungarian, "Hol lehet parkolni?", "vendégparkoló", false, ""},
	})
}
