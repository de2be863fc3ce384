package assistant

import "testing"

// TestFalseFriendBySound: an English word matches a Hungarian word that sounds alike (an
// international word the dictionaries do not pair, "vinyl" and "vinilpadló") only when one of
// the dictionaries lacks its word. When the lexicon knows the English word and the
// Hungarian–English dictionary glosses the Hungarian one, and neither pairs them, the likeness
// is a false friend: "padlocks" is no "padló" (floor), and with "sell" matched by another entry
// the two must not pool into an answer.
func TestFalseFriendBySound(t *testing.T) {
	floors := Profile{CompanyName: "Fényes Parketta Kft.",
		Description: "Parketta csiszolása és lakkozása Szolnokon.",
		Services: []Service{{Name: "Parkettacsiszolás", Description: "A régi padló csiszolása és háromszori lakkozása.", Price: "3 900 Ft / m²"},
			{Name: "Vinilpadló lerakása", Description: "Kattintós vinilpadló lerakása szegélyléccel.", Price: "2 500 Ft / m²"}},
		FAQ: []QA{{Question: "Árultok lakkot is?", Answer: "Igen, a lakkot és az ápolószert a boltunkban árusítjuk."}}}
	checkAnswers(t, floors, []answerCase{
		{English, "Do you sell padlocks?", "", true},
		{English, "How much is vinyl flooring?", "2 500 Ft", false},
		{English, "Do you sell varnish?", "lakkot", false},
	})
}
