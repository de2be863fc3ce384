package assistant

import "testing"

// relativePriceProfile is a made-up piano tuner whose FAQs state a surcharge and a discount in
// percent, and whose services have prices of their own.
func relativePriceProfile() Profile {
	return Profile{CompanyName: "Tiszta Hang Bt.",
		Description:  "Zongorák és pianínók hangolása, javítása a megyében.",
		OpeningHours: "Hétfő–péntek 8–17",
		Address:      "Kecskemét, Minta utca 3.",
		Services: []Service{
			{Name: "Zongorahangolás", Description: "Pianínó vagy zongora hangolása a helyszínen.", Price: "18 000 Ft",
				NameEN: "Piano tuning", DescriptionEN: "Tuning an upright or a grand piano on site."},
			{Name: "Mechanikajavítás", Description: "Kalapácsok és billentyűk javítása.", Price: "9 000 Ft / óra",
				NameEN: "Action repair", DescriptionEN: "Repairing hammers and keys."},
		},
		FAQ: []QA{
			{Question: "Szombaton is jöttök?", Answer: "Igen, szombaton is, ilyenkor 30% felárat számolunk.",
				QuestionEN: "Do you come on Saturdays?", AnswerEN: "Yes, on Saturdays too, at 30% extra."},
			{Question: "Ha két hangszer van egy helyen?", Answer: "A második hangszer hangolásából 15% kedvezményt adunk.",
				QuestionEN: "What if there are two instruments in one place?", AnswerEN: "The second instrument is tuned at 15% off."},
			{Question: "Honnan jöttök?", Answer: "Kecskemétről, a megyében bárhová kiszállunk.",
				QuestionEN: "Where do you come from?", AnswerEN: "From Kecskemét, anywhere in the county."},
		}}
}

// TestRelativePriceQuestion: a question of a price relative to another ("mennyivel drágább",
// "olcsóbb", "more expensive", "surcharge", "extra charge", "discount") is answered by the
// entry that states the surcharge or discount, in percent, though it states no amount of money;
// a surcharge answers no question of a discount. A percentage answers no plain question of
// what a thing costs: the price stated is the service's own.
func TestRelativePriceQuestion(t *testing.T) {
	checkAnswers(t, relativePriceProfile(), []answerCase{
		{Hungarian, "Szombaton mennyivel drágább?", "30% felárat", false, ""},
		{Hungarian, "Olcsóbb, ha két hangszert hangoltok egy helyen?", "15% kedvezményt", false, "30%"},
		{English, "Is it more expensive on Saturday?", "30% extra", false, ""},
		{English, "Is there a surcharge on Saturdays?", "30% extra", false, ""},
		{English, "Is there an extra charge on Saturdays?", "30% extra", false, ""},
		{English, "Any discount for two instruments?", "15% off", false, "30%"},
		{English, "Is it less expensive for two instruments?", "15% off", false, "30%"},
		{Hungarian, "Mennyibe kerül a zongorahangolás?", "18 000 Ft", false, "%"},
		{English, "How much is piano tuning?", "18 000 Ft", false, "%"},
		{Hungarian, "Mennyibe kerül két hangszer hangolása?", "", true, ""}, // not "15%": no amount
		{Hungarian, "Van felár szombaton?", "30% felárat", false, ""},
		{Hungarian, "Mennyivel olcsóbb a második hangszer?", "15% kedvezményt", false, "30%"},
	})
	// A percentage alone states the surcharge: "+20%".
	p := relativePriceProfile()
	p.FAQ[0].Answer, p.FAQ[0].AnswerEN = "Igen, szombaton is: +20%.", "Yes, on Saturdays too: +20%."
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Szombaton mennyivel drágább?", "+20%", false, ""},
		{English, "Is it more expensive on Saturday?", "+20%", false, ""},
		{English, "Is it cheaper if you tune two instruments?", "15% off", false, "20%"},
	})
	// Of a profile that states no discount, a discount question is a colleague's, not the surcharge's.
	p = relativePriceProfile()
	p.FAQ = p.FAQ[:1]
	checkAnswers(t, p, []answerCase{
		{English, "Any discount for two instruments?", "", true, ""},
		{Hungarian, "Van kedvezmény két hangszerre?", "", true, ""},
	})
}
