package assistant

import "testing"

// pricerankProfile is a made-up bicycle repairer with two priced services that share the word
// "szerviz", a service whose description states its surcharge, an FAQ that names that word
// among others, and two FAQs about paying whose English questions ask otherwise than their
// Hungarian ones.
func pricerankProfile() Profile {
	return Profile{CompanyName: "Küllő Bt.",
		Description:  "Kerékpárok javítása Szegeden.",
		OpeningHours: "Hétfő–péntek 9–17",
		Address:      "Szeged, Próba utca 3.",
		Services: []Service{
			{Name: "Téli szerviz", Description: "Teljes átvizsgálás, kenés, fékbeállítás.", Price: "8 000 Ft"},
			{Name: "Nyári szerviz", Description: "Gyors átnézés a szezon elején.", Price: "6 000 Ft"},
			{Name: "Sürgősségi felár", Description: "Soron kívüli javítás aznapra, a munkadíjra 50% felár.", Price: "a munkadíj szerint"},
			{Name: "Láncmosás", Description: "A lánc tisztítása és olajozása."},
		},
		FAQ: []QA{
			{Question: "Gyerekbiciklit is hozhatok a boltba szervizre?", Answer: "Igen, a gyerekbicikliket is átnézzük."},
			{Question: "Van garancia a javításra?", Answer: "Minden javításra fél év garanciát adunk."},
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy kártyával.",
				QuestionEN: "How can I pay?", AnswerEN: "By card or in cash."},
			{Question: "Előre kell fizetni?", Answer: "Nem, az átvételkor fizet.",
				QuestionEN: "When do I pay?", AnswerEN: "On collection, not in advance."},
		}}
}

// TestHowMuchOfTwoPricedServices: a bare "mennyi" of a word that two priced services both name
// ("szerviz" of "Téli szerviz" and "Nyári szerviz") does not say which of them is meant, so
// neither is taken for it over the entry the question chose ("Gyerekbicikli szerviz mennyi?"
// of the FAQ about children's bicycles).
func TestHowMuchOfTwoPricedServices(t *testing.T) {
	checkAnswers(t, pricerankProfile(), []answerCase{
		{Hungarian, "Gyerekbicikli szerviz mennyi?", "gyerekbicikliket is átnézzük", false, "8 000 Ft"},
	})
}

// TestSurchargeInTheDescription: a question of a surcharge about a service whose description
// states it ("a munkadíjra 50% felár") is answered with the description too, not with the
// price field alone, which names no surcharge.
func TestSurchargeInTheDescription(t *testing.T) {
	checkAnswers(t, pricerankProfile(), []answerCase{
		{Hungarian, "Mennyibe kerül a sürgősségi felár?", "50% felár", false, ""},
	})
}

// TestEnglishQuestionWords: an English question is compared with the question words of an
// FAQ's English question, not of its Hungarian one: "When do I pay?" asks what "When do I
// pay?" asks (Hungarian "Előre kell fizetni?", no question word), not "How can I pay?".
func TestEnglishQuestionWords(t *testing.T) {
	checkAnswers(t, pricerankProfile(), []answerCase{
		{English, "When do I pay?", "On collection", false, "By card"},
	})
}

// siblingSurchargeProfile is siblingProfile's cleaning firm whose window cleaning states no
// price of its own, only a weekend surcharge.
func siblingSurchargeProfile() Profile {
	return Profile{CompanyName: "Próba Bt.",
		Services: []Service{
			{Name: "Ablaktisztítás", Description: "Lakások és irodák ablakainak tisztítása kívül-belül, kerettel együtt. Hétvégén 20% felár."},
			{Name: "Autótisztítás", Description: "Ha a kárpit foltos lett vagy sáros maradt: az autó belsejének tisztítása gőzzel.", Price: "12 000 Ft"},
			{Name: "Autómosás", Description: "Kézi mosás kívül, viasz bevonattal.", Price: "6 000 Ft"},
		},
	}
}

// TestSiblingAsChooseFirst: the entry whose compound name the question says whole answers
// first when choose would take it as a first answer: of a question of a surcharge, one that
// states the surcharge though no price ("Hétvégén 20% felár"). The sibling rule had its own
// copy of choose's rules, which asked for a price, and left the car cleaning first.
func TestSiblingAsChooseFirst(t *testing.T) {
	const message = "Foltos lett és sáros maradt az ablak, hétvégén mennyivel drágább megtisztítani?"
	checkFirst(t, siblingSurchargeProfile(), Hungarian, message, "20% felár", "12 000 Ft")
}
