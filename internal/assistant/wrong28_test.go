package assistant

import "testing"

// TestUnansweredPriceOfTwoParts: a message of two questions whose whole answer is the entry of
// one part, while the other part asks a price of something no fact says, answers the one part
// and hands the price over: "Mennyi a tükörjavítás, és kell hozzá időpont?" of a picture
// framer that names appointments and mirrors but no mirror repair is no answer to what the
// repair costs, though the appointment FAQ says "tükör". A part of another kind that no fact
// says leaves the whole answer standing.
func TestUnansweredPriceOfTwoParts(t *testing.T) {
	p := Profile{CompanyName: "Csillag Képkeretező Bt.", Address: "7621 Pécs, Rákóczi út 5.",
		Description: "Képkeretezés és tükörkészítés saját műhelyben, 1998 óta.",
		Services: []Service{{Name: "Képkeretezés", Description: "Fa vagy alumínium keret, üveggel és hátlappal.", Price: "8 000 Ft-tól"},
			{Name: "Tükörkészítés", Description: "Csiszolt szélű tükör méretre vágva.", Price: "12 000 Ft / m²"}},
		FAQ: []QA{{Question: "Kell időpontot foglalni?", Answer: "A tükör és a keret kiválasztásához érdemes időpontot kérni telefonon."},
			{Question: "Mennyi idő alatt készül el a keret?", Answer: "Általában egy hét."}}}
	checkAnswers(t, p, []answerCase{
		{lang: Hungarian, message: "Mennyi a tükörjavítás, és kell hozzá időpont?", want: "időpontot kérni", handover: true},
		{lang: Hungarian, message: "Kell időpontot foglalni?", want: "időpontot kérni", handover: false},
		{lang: Hungarian, message: "Messze van a parkoló? Kell időpontot foglalni?", want: "időpontot kérni", handover: false},
	})
}
