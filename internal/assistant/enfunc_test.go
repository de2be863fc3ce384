package assistant

import (
	"slices"
	"testing"
)

// TestPrepositionMatchesFunctionWord: an English preposition may carry the point of a question,
// which a Hungarian profile says with a function word the matcher otherwise passes over:
// "Do you work outside the city?" of a violin maker whose FAQ answers "a városon kívül is" is
// answered by that FAQ, not handed over for an unmatched "outside". A question about what the
// profile does not say is still handed over.
func TestPrepositionMatchesFunctionWord(t *testing.T) {
	p := Profile{CompanyName: "Fenyő Műhely",
		Description: "Hegedűk és brácsák javítása Egerben.",
		Services: []Service{{Name: "Hegedűjavítás", Description: "Repedések ragasztása, húrláb cseréje.", Price: "12 000 Ft-tól"},
			{Name: "Vonószőrözés", Description: "Új lószőr a vonóra, egy nap alatt.", Price: "9 000 Ft"}},
		FAQ: []QA{{Question: "Vidéken is vállaltok javítást?", Answer: "Igen, a városon kívül is, postán küldött hangszerrel."},
			{Question: "Megvárhatom a javítást?", Answer: "Kisebb munkák közben leülhet a műhelyben."}}}
	checkAnswers(t, p, []answerCase{
		{English, "Do you work outside the city?", "városon kívül", false, ""},
		{English, "Can I sit in the workshop during the repair?", "közben", false, ""},
		{English, "Do you repair violins?", "Hegedűjavítás", false, ""},
		{English, "Do you sell guitars?", "", true, ""},
	})
}

// TestServicesWordTheProfileSays: a word of asking what the company offers ("products",
// "services") is the topic of a question when the profile's entries say it: "What products
// do you use?" of a violin maker whose FAQ answer names the products it uses is answered by
// that FAQ, while "What services do you offer?" still lists the services.
func TestServicesWordTheProfileSays(t *testing.T) {
	p := Profile{CompanyName: "Fenyő Műhely",
		Description: "Hegedűk és brácsák javítása Egerben.",
		Services: []Service{{Name: "Hegedűjavítás", Description: "Repedések ragasztása, húrláb cseréje.", Price: "12 000 Ft-tól"},
			{Name: "Vonószőrözés", Description: "Új lószőr a vonóra, egy nap alatt.", Price: "9 000 Ft"}},
		FAQ: []QA{{Question: "Mivel kezelitek a fát?", Answer: "Csak természetes olajokat és gyantát, vegyi termékeket nem használunk."},
			{Question: "Van garancia?", Answer: "Minden szolgáltatásunkra egy év garanciát adunk."}}}
	checkAnswers(t, p, []answerCase{
		{English, "What products do you use?", "természetes olajokat", false, ""},
		{English, "What services do you offer?", "Vonószőrözés", false, ""},
		{Hungarian, "Milyen szolgáltatásaitok vannak?", "Vonószőrözés", false, ""},
	})
}

// TestDayIsNoOpeningDay: the words of asking for the opening hours are matched as words, not
// by the senses of their parts: "vasárnap" (Sunday) is built of "vásár" and "nap" (day), so
// "Can you do it in one day?" was answered with the opening hours. It is handed over; a
// question about Sunday or the opening hours is still answered with them.
func TestDayIsNoOpeningDay(t *testing.T) {
	p := Profile{CompanyName: "Fenyő Műhely",
		Description:  "Hegedűk és brácsák javítása Egerben.",
		OpeningHours: "Kedd–péntek 10–18",
		Services:     []Service{{Name: "Hegedűjavítás", Description: "Repedések ragasztása, húrláb cseréje.", Price: "12 000 Ft-tól"}}}
	checkAnswers(t, p, []answerCase{
		{English, "Can you do it in one day?", "", true, ""},
		{English, "Are you open on Sunday?", "Kedd–péntek", false, ""},
		{English, "What are your opening hours?", "Kedd–péntek", false, ""},
	})
}

// TestFunctionWordsOnlyForPrepositions: the function words a profile's text says ("után",
// after) are matched by an English preposition only, not as a part of another word of a
// question: "utánvét" (cash on delivery) shares no word with "Fizetés után postázzuk.".
func TestFunctionWordsOnlyForPrepositions(t *testing.T) {
	p := Profile{CompanyName: "Fenyő Műhely",
		FAQ: []QA{{Question: "Hogyan kapom meg a hangszert?", Answer: "Fizetés után postázzuk."}}}
	x := NewIndex(p)
	for _, tc := range []struct {
		message string
		english bool
		hit     bool
	}{
		{"Van utánvét?", false, false},
		{"Do you post it after payment?", true, true},
	} {
		q := queryIn(tc.message, tc.english, x.facts, nil)
		j := slices.IndexFunc(q.terms, func(t queryTerm) bool { return t.fold == "utanvet" || t.fold == "after" })
		if j < 0 {
			t.Fatalf("%q: no term of the word asked about in %v", tc.message, q.terms)
		}
		if got := score(x, q)[0].hit[j] > 0; got != tc.hit {
			t.Errorf("%q: the FAQ matches %q: %v, want %v", tc.message, q.terms[j].fold, got, tc.hit)
		}
	}
}

// TestWithinIsSaidByTheCase: Hungarian says "within the town" with the town's name in a case
// of being in it ("Egerben") as well as with "belül": "What does a quick bow rehair within Eger
// cost per hour?" of a service "Vonószőrözés, húrcsere és lakkjavítás Egerben" is answered by
// it, while "outside Eger" is not explained by "Egerben" and is handed over.
func TestWithinIsSaidByTheCase(t *testing.T) {
	p := Profile{CompanyName: "Fenyő Műhely",
		Description: "Vonós hangszerek javítása.",
		Services: []Service{{Name: "Vonószőrözés, húrcsere és lakkjavítás Egerben", Description: "Új lószőr a vonóra, a műhelyben.", Price: "9 000 Ft / óra"},
			{Name: "Hegedűjavítás", Description: "Repedések ragasztása, húrláb cseréje.", Price: "12 000 Ft-tól"}}}
	checkAnswers(t, p, []answerCase{
		{English, "What does a quick bow rehair within Eger cost per hour?", "9 000 Ft", false, ""},
		{English, "What does a quick bow rehair outside Eger cost per hour?", "", true, ""},
	})
}
