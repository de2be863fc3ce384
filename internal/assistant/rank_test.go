package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestScoreExactWhateverOrder: how well a fact matched a question's word is what match gives,
// whether the word was first met in this fact or in one scored before it, so that two facts
// that use one word rank by their words and not by which comes first in the profile.
func TestScoreExactWhateverOrder(t *testing.T) {
	p := Profile{CompanyName: "Próba Szalon",
		Services: []Service{{Name: "Festés", Description: "Tartós festék, 2 óra.", Price: "12 000 Ft"},
			{Name: "Melír", Description: "Melírozás festék nélkül, 3 óra.", Price: "15 000 Ft"}},
		FAQ: []QA{{Question: "Milyen fóliát használtok?", Answer: "Újrahasznosíthatót; a festék 2 óra alatt szárad."}}}
	x := NewIndex(p)
	q := newQuery("Meddig tart festeni?", Contact{}, x.facts)
	inexact := 0
	for _, s := range score(x, q) {
		for j := range q.terms {
			want := 0.0
			for _, ts := range []struct {
				terms  []term
				weight float64
			}{{s.keys, keyWeight}, {s.joined, keyWeight}, {s.body, bodyWeight}} {
				for ki := range ts.terms {
					m := match(&q.terms[j].term, &ts.terms[ki])
					if one := 1.0; m > 0 && m+one-one != m {
						inexact++ // a strength that adding one and taking it away rounds
					}
					want = max(want, m*ts.weight)
				}
			}
			if want < weakMatch*bodyWeight {
				want = 0
			}
			if s.hit[j] != want {
				t.Errorf("%s ~ a word of %q%q: %v, match gives %v", q.terms[j].fold, s.faq.Question, s.service.Name, s.hit[j], want)
			}
		}
	}
	if inexact == 0 {
		t.Fatal("every match is 0, ½ or 1: the test compares nothing that rounding changes")
	}
}

// TestFixedFactNotForAQualifier: the opening hours, address or phone do not answer a question
// whose only word they match qualifies the thing asked about: "weekend lessons" are lessons,
// which the profile does not name, not the weekend's opening hours. The weekend itself is
// still asked of the hours.
func TestFixedFactNotForAQualifier(t *testing.T) {
	p := Profile{CompanyName: "Próba Autósiskola", OpeningHours: "Iroda hétfő–csütörtök 10–18, péntek 10–14; hétvégén zárva.",
		FAQ: []QA{{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával is."}}}
	for _, tc := range []struct {
		message, want string
		lang          Language
		handover      bool
	}{
		{"Do you have weekend lessons?", "", English, true},
		{"Are you open at the weekend?", "hétvégén zárva", English, false},
		{"Hétvégén nyitva vagytok?", "hétvégén zárva", Hungarian, false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestPartialMatchRanksAsHalf: a word matched only in part (a word of the profile that shares
// a part with it, a late sense) counts half in the rank, as it counts half of what the
// question asks (explained): "driving test" is first the exams' FAQ, which names the test, not
// the motorcycle course, which holds "vizsgamotor" (test motorcycle) and "vezetés" (driving),
// each matched in part.
func TestPartialMatchRanksAsHalf(t *testing.T) {
	p := Profile{CompanyName: "Sávváltó Autósiskola",
		Services: []Service{{Name: "A kategóriás motoros tanfolyam", Description: "Elmélet, rutinpálya és forgalmi vezetés, a vizsgamotort mi adjuk.", Price: "310 000 Ft"}},
		FAQ:      []QA{{Question: "Mennyibe kerülnek a vizsgák?", Answer: "A KRESZ-vizsga 4 600 Ft, a forgalmi vizsga 11 000 Ft."}}}
	x := NewIndex(p)
	message := "How much is the driving test fee?"
	q := newQuery(message, Contact{}, x.facts).without(x.company, x.facts)
	chosen := choose(score(x, q), q, DetectIntent(message), true)
	if len(chosen) == 0 || chosen[0].kind != factFAQ {
		t.Errorf("chose %d facts, first %+v; want the exams' FAQ first", len(chosen), chosen)
	}
}

// TestContactNeedsWordsOfReaching: the phone answers a question that asks how to reach the
// company, not one whose word the lexicon takes to a word of the phone's keys by another sense:
// "invoice" is "számla", which begins as "szám" (number).
func TestContactNeedsWordsOfReaching(t *testing.T) {
	p := Profile{CompanyName: "Fázis Villanyszerelés Kft.", Phone: "+36 62 555 0192",
		FAQ: []QA{{Question: "Van garancia?", Answer: "A munkánkra 2 év garanciát vállalunk."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Do I get an invoice?", "", true},
		{"What's your phone number?", "+36 62 555 0192", false},
		{"Can I call you?", "+36 62 555 0192", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestNegatedQuestionIsAnotherQuestion: an FAQ whose question negates a word ("Mi van, ha nem
// sikerül a vizsga?") does not answer a question that asks the word as it stands ("how many
// succeed"), while a question that negates it too, or asks of the rest, is still answered.
func TestNegatedQuestionIsAnotherQuestion(t *testing.T) {
	p := Profile{CompanyName: "Sávváltó Autósiskola",
		FAQ: []QA{{Question: "Mi van, ha nem sikerül a forgalmi vizsga?", Answer: "Ismétlővizsga előtt legalább 2 pótórát javaslunk."},
			{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával is."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Mennyi nálatok a sikeres vizsgák aránya?", "", true},
		{"Mi történik, ha nem sikerül a forgalmi vizsga?", "2 pótórát", false},
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

// TestPriceOfTheNamedEntry: a price question whose words name an entry without a price (an
// FAQ's question) is handed over, not answered with the price of a service that only mentions
// the word in its description; a price question that names the service is answered.
func TestPriceOfTheNamedEntry(t *testing.T) {
	p := Profile{CompanyName: "Sávváltó Autósiskola",
		Services: []Service{{Name: "B kategóriás tanfolyam", Description: "28 óra elmélet és 29 óra vezetés.", Price: "289 000 Ft"},
			{Name: "Automata váltós képzés", Description: "A jogosítvány csak automata autóra érvényes.", Price: "309 000 Ft"}},
		FAQ: []QA{{Question: "Mennyi idő alatt lehet megszerezni a jogosítványt?", Answer: "Általában 3–4 hónap alatt."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"mennyi a jogositvany ara", "", true},
		{"Mennyibe kerül az automata váltós képzés?", "309 000 Ft", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) || tc.handover && strings.Contains(got.Text, "309 000") {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestGenericPartialMatchDoesNotRank: a generic word ("get") that a fact matches only in part
// (a late sense of the lexicon, "kap" by way of "get") adds nothing to the fact's rank, so it
// does not lift an entry over one that matches the question's topic word ("invoice") as well:
// of two such entries the profile's order decides, not the generic word.
func TestGenericPartialMatchDoesNotRank(t *testing.T) {
	p := Profile{CompanyName: "Fázis Villanyszerelés Kft.",
		FAQ: []QA{{Question: "Kell előre fizetni?", Answer: "Nem, a munka végén fizet; számlát mindig adunk."},
			{Question: "Hozzátok az anyagot?", Answer: "Igen, a szükséges anyagot beszerezzük és nagykereskedelmi áron számlázzuk."}}}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: "Do I get an invoice?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "számlát mindig adunk") {
		t.Errorf("handover %v, %q; want the payment FAQ", got.Handover, got.Text)
	}
}

// TestFixedFactNotSecondForAQualifier: nor are the opening hours the second answer when the
// only word they match is a "-i" adjective that qualifies what the first answer is about:
// "Van hétvégi vezetési óra?" asks about weekend lessons, which the profile does not name,
// not where lessons start and when the office is open. A day asked for itself still gets the
// hours.
func TestFixedFactNotSecondForAQualifier(t *testing.T) {
	p := Profile{CompanyName: "Sávváltó Autósiskola", OpeningHours: "Iroda hétfő–csütörtök 10–18, péntek 10–14; hétvégén zárva.",
		Services: []Service{{Name: "B kategóriás tanfolyam", Description: "28 óra elmélet és 29 óra vezetés.", Price: "289 000 Ft"},
			{Name: "Pótóra", Description: "50 perces vezetési óra a kötelező órákon felül.", Price: "11 500 Ft"},
			{Name: "Vezetéstechnikai felfrissítés", Description: "Vezetési órák jogosítvánnyal rendelkezőknek.", Price: "12 000 Ft / óra"}},
		FAQ: []QA{{Question: "Honnan indulnak a vezetési órák?", Answer: "Az órák az iroda elől indulnak."},
			{Question: "Le lehet mondani a vezetési órát?", Answer: "24 órával előtte díjmentesen lemondható."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Van hétvégi vezetési óra?", "", true},
		{"Hétvégén nyitva vagytok?", "hétvégén zárva", false},
		{"Honnan indul a vezetési óra?", "az iroda elől", false},
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

// TestPriceOfThePartThatAsksIt: in a message of two parts, a price asked in one part is the
// price of what that part names: "How much is the rabies shot and from what age can a puppy
// get it?" does not get the puppies' combined vaccine's price because the other part names
// puppies and age.
func TestPriceOfThePartThatAsksIt(t *testing.T) {
	p := Profile{CompanyName: "Mancs Állatorvosi Rendelő",
		Services: []Service{{Name: "Veszettség elleni oltás", Description: "A kötelező éves veszettség elleni oltás, oltási könyv bejegyzéssel.", Price: "8 500 Ft"},
			{Name: "Kombinált oltás kölyökkutyáknak", Description: "Parvo, szopornyica és fertőző májgyulladás ellen, 6–8 hetes kortól.", Price: "9 000 Ft"}},
		FAQ: []QA{{Question: "Mikor kell először beoltani a kölyökkutyát?", Answer: "Az első oltás 6–8 hetes korban esedékes, a veszettség elleni oltás 12 hetes kortól adható."}}}
	for _, tc := range []struct {
		message, want string
		lang          Language
	}{
		{"How much is the rabies shot and from what age can a puppy get it?", "", English},
		{"Mennyibe kerül a veszettség elleni oltás?", "8 500 Ft", Hungarian},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got.Text, "9 000 Ft") || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: %q; want no price of the combined vaccine, and %q", tc.message, got.Text, tc.want)
		}
	}
}

// TestPriceQuestionSecondAnswerPriced: a second answer to a price question of one part states
// a price too: an entry without one answers nothing the question asks ("How much is the
// course for a car licence?" does not add that the first-aid course is organised by the Red
// Cross, found by "course").
func TestPriceQuestionSecondAnswerPriced(t *testing.T) {
	p := Profile{CompanyName: "Sávváltó Autósiskola",
		Services: []Service{{Name: "B kategóriás tanfolyam", Description: "Elméleti képzés és 29 óra vezetés.", Price: "289 000 Ft"},
			{Name: "Automata váltós képzés", Description: "B kategória automata váltós autóval; a jogosítvány csak automata autóra érvényes.", Price: "309 000 Ft"}},
		FAQ: []QA{{Question: "Kell elsősegély tanfolyam?", Answer: "Igen, az elsősegély-vizsgát a Vöröskereszt szervezi."}}}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: "How much is the course for a car licence?"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Text, "Vöröskereszt") || !strings.Contains(got.Text, "Ft") {
		t.Errorf("%q; want prices only", got.Text)
	}
}

// TestHowOftenIsNoTopic: an adverb of how often ("általában", usually) names nothing an entry
// is about, so "general" in a question finds no topic in it: "Do you treat patients under
// general anaesthesia?" is handed over by a clinic that treats under local anaesthesia and
// does root canals "általában két alkalommal" (usually in two sessions).
func TestHowOftenIsNoTopic(t *testing.T) {
	p := Profile{CompanyName: "Mosoly Fogászat",
		Description: "Magánfogászat Debrecen belvárosában 2008 óta. Felnőtteket és gyerekeket is kezelünk, a fogkő-eltávolítástól az implantációig.",
		Services: []Service{{Name: "Tömés", Description: "Esztétikus, fogszínű kompozit tömés érzéstelenítéssel.", Price: "22 000 Ft-tól"},
			{Name: "Gyökérkezelés", Description: "Mikroszkópos gyökérkezelés, általában két alkalommal.", Price: "45 000 Ft-tól"},
			{Name: "Fogszabályozás láthatatlan sínnel", Description: "Átlátszó fogszabályozó sínek kezelési tervvel és havi kontrollal.", Price: "650 000 Ft-tól"}},
		FAQ: []QA{{Question: "Mennyi idő múlva kapok időpontot?", Answer: "Új páciensként általában egy héten belül kap időpontot."},
			{Question: "Fáj a kezelés?", Answer: "Minden kezelést helyi érzéstelenítéssel végzünk, ha fájdalommal járhat; félős pácienseknek nyugtatót is adunk."},
			{Question: "Gyerekeket is kezelnek?", Answer: "Igen, 4 éves kortól kezelünk gyerekeket, játékos, türelmes légkörben."},
			{Question: "Hol lehet parkolni?", Answer: "A rendelő mögötti parkolóházban az első óra díjtalan pácienseinknek."},
			{Question: "Mennyi ideig tart egy implantátum gyógyulása?", Answer: "Az implantátum csontba épülése általában 3–6 hónap."}}}
	for _, tc := range []struct {
		message, want string
		lang          Language
		handover      bool
	}{
		{"Do you treat patients under general anaesthesia?", "", English, true},
		{"Hány alkalom a gyökérkezelés?", "két alkalommal", Hungarian, false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestDurationNeedsANumberOfTime: a question of how long is answered by an entry that says a
// length, a number before a unit of time, and not by one that only names the thing asked
// about with a word of time ("órák", lessons, are hours too); with no such entry it hands over.
func TestDurationNeedsANumberOfTime(t *testing.T) {
	p := Profile{CompanyName: "Próba Nyelviskola",
		FAQ: []QA{{Question: "Hol vannak az órák?", Answer: "Az órák a belvárosi termünkben vannak, a második emeleten."},
			{Question: "Mennyi ideig érvényes a bérlet?", Answer: "A bérlet három hónapig érvényes."}}}
	withLength := p
	withLength.Services = []Service{{Name: "Egyéni nyelvóra", Description: "Egy tanárral, 45 perces órák, online is.", Price: "9 000 Ft"}}
	for _, tc := range []struct {
		profile  Profile
		message  string
		want     string
		handover bool
	}{
		{p, "Meddig tart egy óra?", "", true},
		{withLength, "Meddig tart egy óra?", "45 perces", false},
		{p, "Meddig érvényes a bérlet?", "három hónapig", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: tc.profile, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestStatesDuration: a length is a number before a unit of time, in words or digits, as a
// range, with a suffix or ending a compound; a word of time alone or a number of something
// else is none.
func TestStatesDuration(t *testing.T) {
	for s, want := range map[string]bool{
		"Átlagosan 3–4 hónap alatt.": true, "50 perces óra": true, "5–7 munkanap alatt": true,
		"It takes two hours.": true, "A 90-minute session": true, "másfél órás": true,
		"Az órák az iroda elől indulnak.": false, "Hétvégén zárva.": false, "12 000 Ft / óra": false,
		"Óránként 4 500 Ft": false, "3 fő, egész nap": false,
	} {
		if got := len(durationUnits(s)) > 0; got != want {
			t.Errorf("durationUnits(%q) = %d units, want some: %v", s, len(durationUnits(s)), want)
		}
	}
}

// TestDayQuestionNeedsAnEntryThatNamesTheDay: a question that asks of a day ("hétvégi", at the
// weekend) is answered by the opening hours or by an entry that names the day, not by one that
// only names the thing asked about.
func TestDayQuestionNeedsAnEntryThatNamesTheDay(t *testing.T) {
	p := Profile{CompanyName: "Próba Kerámiaműhely", OpeningHours: "Hétfőtől péntekig 10–18.",
		FAQ: []QA{{Question: "Hol vannak a foglalkozások?", Answer: "A foglalkozások a Fő utcai műhelyben vannak."}}}
	withDay := p
	withDay.FAQ = append(slices.Clone(p.FAQ), QA{Question: "Van gyerekfoglalkozás?", Answer: "Vasárnap délelőtt tartunk gyerekfoglalkozást."})
	for _, tc := range []struct {
		profile  Profile
		message  string
		want     string
		handover bool
	}{
		{p, "Van hétvégi foglalkozás?", "", true},
		{withDay, "Vasárnap vannak foglalkozások?", "Vasárnap délelőtt", false},
		{p, "Hol vannak a foglalkozások?", "Fő utcai", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: tc.profile, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestDayWithACaseEndingIsNoQualifier: "szombaton" (on Saturday) before a verb asks when, and
// qualifies no noun as "hétvégi" does: the opening hours answer "Szombaton rendeltek?" first,
// before an entry that shares only the verb.
func TestDayWithACaseEndingIsNoQualifier(t *testing.T) {
	p := Profile{CompanyName: "Próba Kerámiaműhely", OpeningHours: "Hétfőtől péntekig 10–18, szombaton 9–13.",
		FAQ: []QA{{Question: "Lehet parkolni?", Answer: "A műhely udvarán ingyen parkolhat, ha rendel nálunk."}}}
	x := NewIndex(p)
	message := "Szombaton rendeltek?"
	q := newQuery(message, Contact{}, x.facts).without(x.company, x.facts)
	chosen := choose(score(x, q), q, DetectIntent(message), false)
	if len(chosen) == 0 || chosen[0].kind != factHours {
		t.Errorf("chose %d facts, first %+v; want the opening hours first", len(chosen), chosen)
	}
}

// TestDurationInAnotherUnit: a how-long question is answered by a length in a unit other than
// the thing asked about: "24 órával előtte" (24 hours before) says when to cancel an "óra"
// (lesson), not how long one lasts; "45 perces" does.
func TestDurationInAnotherUnit(t *testing.T) {
	p := Profile{CompanyName: "Próba Nyelviskola",
		Services: []Service{{Name: "Egyéni óra", Description: "Egy tanárral, 45 perces, online is.", Price: "9 000 Ft"}},
		FAQ:      []QA{{Question: "Le lehet mondani az órát?", Answer: "Az órát 24 órával előtte díjmentesen lemondhatja."}}}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Meddig tart egy óra?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "45 perces") || strings.Contains(got.Text, "24 órával") {
		t.Errorf("handover %v, %q; want the lesson's 45 minutes only", got.Handover, got.Text)
	}
}

// TestEnglishDayQualifierNeedsTheDay: "Sunday courses" are courses of a day; the opening
// hours, which name the day, do not answer them as a second entry after one that names only
// the courses: the question hands over. An everyday thing of the opening hours ("weekend
// appointments") is still answered with them.
func TestEnglishDayQualifierNeedsTheDay(t *testing.T) {
	p := Profile{CompanyName: "Próba Nyelviskola", OpeningHours: "Kedd–szombat 9–18, vasárnap zárva.",
		FAQ: []QA{{Question: "Hol vannak a tanfolyamok?", Answer: "A tanfolyamok a Fő utcai teremben vannak."},
			{Question: "Kell időpontot foglalni?", Answer: "Igen, időpontot telefonon vagy online foglalhat."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Do you have Sunday courses?", "", true},
		{"Do you have weekend appointments?", "vasárnap zárva", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestMilyenHosszuAsksHowLong: "milyen hosszú" (how long) asks a length as "meddig" does, so
// an entry that states one answers it; "hosszú" alone qualifies a thing ("hosszú haj").
func TestMilyenHosszuAsksHowLong(t *testing.T) {
	p := Profile{CompanyName: "Próba Nyelviskola",
		Services: []Service{{Name: "Egyéni óra", Description: "Egy tanárral, 45 perces, online is.", Price: "9 000 Ft"},
			{Name: "Beszédtréning", Description: "Hosszú és rövid előadásokra is felkészít.", Price: "30 000 Ft"}},
		FAQ: []QA{{Question: "Hol vannak a vezetői órák?", Answer: "A vezetői órák a cégüknél vannak."}}}
	for _, tc := range []struct{ message, want, not string }{
		{"Milyen hosszú egy vezetői óra?", "45 perces", "Hosszú és rövid"},
		{"Hosszú előadásra is felkészítetek?", "Hosszú és rövid", "45 perces"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) || strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, %q; want %q without %q", tc.message, got.Handover, got.Text, tc.want, tc.not)
		}
	}
}

// TestPriceOfOneThingNotOfTwoEntries: a price question of one part whose words two priced
// entries each hold only in what they say, neither by name, asks about neither of them: it is
// handed over rather than answered with both prices. Entries the question names are answered,
// and so are two things asked apart.
func TestPriceOfOneThingNotOfTwoEntries(t *testing.T) {
	p := Profile{CompanyName: "Próba Nyelviskola",
		Services: []Service{{Name: "Általános angol tanfolyam", Description: "Heti két óra kiscsoportban, tankönyvvel.", Price: "60 000 Ft"},
			{Name: "Üzleti angol", Description: "Tárgyalás és prezentáció gyakorlása, céges számlával.", Price: "90 000 Ft"}},
		FAQ: []QA{{Question: "Van online oktatás?", Answer: "Igen, minden csoport online is indul."}}}
	for _, tc := range []struct {
		message  string
		want     []string
		handover bool
	}{
		{"Mennyibe kerül egy óra prezentációval?", nil, true},
		{"How much is one lesson of presentation?", nil, true},
		{"Mennyibe kerül az üzleti angol?", []string{"90 000 Ft"}, false},
		{"Mennyibe kerül az üzleti angol és az általános angol tanfolyam?", []string{"90 000 Ft", "60 000 Ft"}, false},
	} {
		lang, _ := DetectLanguage(tc.message)
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || slices.ContainsFunc(tc.want, func(w string) bool { return !strings.Contains(got.Text, w) }) ||
			tc.handover && ContainsPrice(got.Text) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestPriceOfTheEntryItNames: a price question that names an entry, even by a word of its
// own ("pucolás" for "tisztítás"), is answered with that entry's price, not with the price of
// another that mentions the visitor's very word in what it includes.
func TestPriceOfTheEntryItNames(t *testing.T) {
	p := Profile{CompanyName: "Próba Takarító",
		Services: []Service{{Name: "Költözés utáni takarítás", Description: "Teljes lakás, szőnyegpucolással és ablakmosással.", Price: "60 000 Ft"},
			{Name: "Szőnyegtisztítás", Description: "Gépi mosás, szárítással.", Price: "900 Ft / m²"}},
		FAQ: []QA{{Question: "Hozzátok a szereket?", Answer: "Igen, mindent viszünk."}}}
	for _, tc := range []struct{ message, want, not string }{
		{"Szőnyegpucolás ára?", "900 Ft / m²", "60 000 Ft"},
		{"Mennyibe kerül a költözés utáni takarítás?", "60 000 Ft", "900 Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) || strings.Contains(got.Text, tc.not) {
			t.Errorf("%q: handover %v, %q; want %q without %q", tc.message, got.Handover, got.Text, tc.want, tc.not)
		}
	}
}

// TestCountedUnitOfTimeAsksALength: "hány perc", "hány órás", "how many hours" ask a length in
// that unit, answered by an entry that states one, and never the opening hours; "hány óra
// vezetés" still asks about what is counted, and "hány órakor" the time of day.
func TestCountedUnitOfTimeAsksALength(t *testing.T) {
	p := Profile{CompanyName: "Próba Stúdió", OpeningHours: "Hétfő–péntek 9–18",
		Services: []Service{{Name: "Svédmasszázs", Description: "Teljes test, 60 perces kezelés, illóolajjal.", Price: "12 000 Ft"},
			{Name: "Bérlet", Description: "10 alkalom masszázs fél év alatt, 2 óra kezelés ajándék.", Price: "100 000 Ft"}},
		FAQ: []QA{{Question: "Hány kezelés kell a hátfájásra?", Answer: "Általában 5–6 kezelés."}}}
	for _, tc := range []struct{ message, want, not string }{
		{"How many hours does a treatment take?", "60 perces", "9–18"},
		{"Hány órás a kezelés?", "60 perces", "2 óra kezelés"},
		{"How many hours of treatment come with the pass?", "", "9–18"},
		{"Hány óra kezelés jár a bérlethez?", "2 óra kezelés", "9–18"},
		{"Hány órakor nyitnak?", "9–18", "kezelés"},
	} {
		lang, _ := DetectLanguage(tc.message)
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got.Text, tc.want) || strings.Contains(got.Text, tc.not) || tc.want != "" && got.Handover {
			t.Errorf("%q: handover %v, %q; want %q without %q", tc.message, got.Handover, got.Text, tc.want, tc.not)
		}
	}
	if DetectIntent("How many hours does a treatment take?").Hours || !DetectIntent("Hány órakor nyitnak?").Hours {
		t.Error("a counted hour is taken for the opening hours, or the time of day is not")
	}
}

// TestDescriptionDoesNotStandInForANamedEntry: when the description ranks first for a
// question whose head an entry with a name of its own names, the question is handed over
// rather than answered with the description; a question about the company itself is still
// answered from it.
func TestDescriptionDoesNotStandInForANamedEntry(t *testing.T) {
	p := Profile{CompanyName: "Próba Vitorlásiskola",
		Description: "Vitorlásiskola Balatonfüreden. Kezdő és haladó képzés, tapasztalt oktatók, saját hajók, kis és nagy vitorlással.",
		Services: []Service{{Name: "Nagy vitorlás tanfolyam", Description: "Tíz alkalom a tavon, vizsgára felkészít.", Price: "180 000 Ft"},
			{Name: "Kezdő tanfolyam", Description: "Öt alkalom, elmélettel.", Price: "90 000 Ft"}},
		FAQ: []QA{{Question: "Kell saját felszerelés?", Answer: "Nem, mentőmellényt adunk."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Do you teach on big sailing boats?", "", true},
		{"Mivel foglalkoztok?", "Balatonfüreden", false},
	} {
		lang, _ := DetectLanguage(tc.message)
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: lang, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) || tc.handover && strings.Contains(got.Text, "Balatonfüreden") {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestEntryMatchedByItsTextDoesNotAnswerForANamedOne: in a question of one part, an entry that
// matches only by what it says does not answer when the question names another entry that
// could answer it: the named entry answers alone when it was chosen too, else the question is
// handed over rather than answered with the first one's fact. A question only the text of an
// entry matches is still answered by it.
func TestEntryMatchedByItsTextDoesNotAnswerForANamedOne(t *testing.T) {
	profile := func(renovation string) Profile {
		return Profile{CompanyName: "Próba Kft.",
			Services: []Service{{Name: "Fürdőszoba felújítás", Description: renovation, Price: "900 000 Ft"},
				{Name: "Csaptelep csere", Description: "Csaptelep felszerelése.", Price: "15 000 Ft"}},
			FAQ: []QA{{Question: "Kijavítjátok a falat vésés után?", Answer: "Igen, begipszeljük és lefestjük."}}}
	}
	// The renovation's text names all the question's words, or all but the repair.
	all, most := "Régi csövek cseréje, új csempe és burkolat, a fal vésése és javítása.", "Régi csövek cseréje, új csempe és burkolat, a fal vésésével."
	for _, tc := range []struct {
		renovation, message, want string
		handover                  bool
	}{
		{all, "Do you repair the wall after replacing old pipes?", "", true},
		{all, "Do you fix the wall after changing old pipes?", "", true},
		{most, "Do you repair the wall after replacing old pipes?", "begipszeljük", false},
		{all, "Kijavítjátok a falat vésés után?", "begipszeljük", false},
		{all, "Burkolatot is cseréltek?", "900 000 Ft", false},
	} {
		lang, _ := DetectLanguage(tc.message)
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: lang, Profile: profile(tc.renovation), Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) || tc.want != "900 000 Ft" && strings.Contains(got.Text, "csövek") {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestFutureAuxiliaryIsNoTopic: "fog" with an infinitive in its clause makes the future tense
// ("Mennyibe fog kerülni a tömés?", what will the filling cost) and names no tooth, so a dental
// profile's tooth entries neither outweigh the thing asked about nor leave the question
// half explained; "fog" without an infinitive stays a word of the question.
func TestFutureAuxiliaryIsNoTopic(t *testing.T) {
	for _, tc := range []struct {
		message string
		want    []bool
	}{
		{"Mennyibe fog kerülni a tömés?", []bool{false, true, false, false, false, false}},
		{"Fájni fogják?", []bool{false, true, false}},
		{"Mennyibe kerül egy fog?", nil}, // no infinitive: a tooth
		{"Fogat kell húzni?", nil},       // "fogat" is a tooth, whatever follows
		{"Kell fog, fájni?", nil},        // the infinitive is in another clause
		{"Fog a bikini?", nil},           // "bikini" merely ends in "-ni"
	} {
		ws := words(tc.message)
		folded := make([]string, len(ws))
		for i, w := range ws {
			folded[i] = fold(w)
		}
		if got := futureAuxiliaries(folded); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.message, got, tc.want)
		}
	}
	p := Profile{CompanyName: "Mosoly Fogászat", Description: "Fogorvosi rendelő Szegeden.",
		Services: []Service{{Name: "Tömés", Description: "Esztétikus fehér tömés, egy alkalom.", Price: "18 000 Ft"},
			{Name: "Fogfehérítés", Description: "Rendelői fehérítés egy óra alatt.", Price: "60 000 Ft"},
			{Name: "Foghúzás", Description: "Egyszerű foghúzás helyi érzéstelenítéssel.", Price: "12 000 Ft"}},
		FAQ: []QA{{Question: "Fáj a kezelés?", Answer: "Helyi érzéstelenítést adunk."}}}
	for _, tc := range []struct{ message, want string }{
		{"Mennyibe fog kerülni a tömés?", "18 000 Ft"},
		{"Fogják érzésteleníteni?", "Helyi érzéstelenítést"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}

// TestSynonymsOfOneRoot: a word the thesaurus gives as a synonym of the profile's, and that
// the dictionary's rules derive from a root the profile's word begins with ("éjjel", at night,
// is "éj" with a suffix; "éjszakai", nightly, begins with it), names what the profile's word
// names; synonyms of no common root stay the thesaurus's weak kin ("altatás", general
// anaesthesia, is no "érzéstelenítés", numbing), and so do those whose common beginning is
// only a looser lemma's.
func TestSynonymsOfOneRoot(t *testing.T) {
	lemma := func(w string) *term { tt := makeTerm(w, false, true); return &tt }
	if m := match(lemma("éjjel"), lemma("éjszakai")); m != sameIdea {
		t.Errorf("éjjel ~ éjszakai: %v, want %v", m, sameIdea)
	}
	if m := match(lemma("altatással"), lemma("érzéstelenítéssel")); m != synonym {
		t.Errorf("altatással ~ érzéstelenítéssel: %v, want %v", m, synonym)
	}
	// "jog" is only a looser lemma of "jogsi", which the rules do not derive from it.
	if m := match(lemma("jogsi"), lemma("jogosítványt")); m != synonym {
		t.Errorf("jogsi ~ jogosítványt: %v, want %v", m, synonym)
	}
	p := Profile{CompanyName: "Mancs Rendelő", Description: "Kisállat-rendelő Szegeden.",
		Services: []Service{{Name: "Veszettség elleni oltás", Description: "Évente kötelező oltás.", Price: "8 500 Ft"}},
		FAQ: []QA{{Question: "Van éjszakai ügyelet?", Answer: "Éjszakai ügyeletet nem tartunk; a Városi Állatklinikát ajánljuk."},
			{Question: "Fáj a kezelés?", Answer: "Minden beavatkozást helyi érzéstelenítéssel végzünk."}}}
	for _, message := range []string{"Éjjel hova vigyem?", "Éjjel is van ügyelet?"} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, "Városi Állatklinikát") {
			t.Errorf("%q: handover %v, %q; want the night FAQ's answer", message, got.Handover, got.Text)
		}
	}
}

// TestFreeOfIsWithout: "díjmentesen" (free of charge) is "díjtalan" with the other suffix of
// lack, which the thesaurus gives as a synonym of "ingyen" (free): "le lehet mondani ingyen?"
// finds the FAQ that says "díjmentesen lemondható" rather than the priced lesson it names.
func TestFreeOfIsWithout(t *testing.T) {
	lemma := func(w string) *term { tt := makeTerm(w, false, true); return &tt }
	if m := match(lemma("ingyen"), lemma("díjmentesen")); m != synonym {
		t.Errorf("ingyen ~ díjmentesen: %v, want %v", m, synonym)
	}
	if m := match(lemma("díjtalan"), lemma("díjmentes")); m != related {
		t.Errorf("díjtalan ~ díjmentes: %v, want %v", m, related)
	}
	p := Profile{CompanyName: "Sávváltó Autósiskola", Description: "Autósiskola Pécsen, B és A kategóriás képzéssel.",
		Services: []Service{
			{Name: "B kategóriás tanfolyam", Description: "Elméleti képzés és 29 óra vezetés.", Price: "289 000 Ft"},
			{Name: "Pótóra", Description: "50 perces vezetési óra a kötelező órákon felül.", Price: "11 500 Ft / óra"}},
		FAQ: []QA{{Question: "Honnan indulnak a vezetési órák?", Answer: "Az órák az iroda elől indulnak."},
			{Question: "Mi van, ha nem sikerül a forgalmi vizsga?", Answer: "Ismétlővizsga előtt legalább 2 pótórát javaslunk; a vizsgadíjat újra be kell fizetni."},
			{Question: "Le lehet mondani a vezetési órát?", Answer: "24 órával előtte díjmentesen lemondható, a később lemondott órát ki kell fizetni."}}}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "A pótórát is le lehet mondani ingyen?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "24 órával előtte") {
		t.Errorf("handover %v, %q; want the cancellation FAQ's answer", got.Handover, got.Text)
	}
}

// TestQualifierOfTheTradeWordNeedsItsOwnEntry: an English word that qualified the company's
// own trade word ("deep" of "clean" at a cleaning company, whose name the matcher leaves out)
// is all that is left of the question's topic. An entry that only mentions a compound of it in
// its description ("mélytisztítása") is not the thing asked about, and the question goes to a
// colleague; an entry that names the qualifier, or whose text says it as a word of its own,
// still answers.
func TestQualifierOfTheTradeWordNeedsItsOwnEntry(t *testing.T) {
	p := Profile{CompanyName: "Fényes Takarító Bt.",
		Services: []Service{
			{Name: "Szőnyegmosás", Description: "Szőnyegek gépi mélytisztítása a helyszínen, kanapék is.", Price: "2 100 Ft / m²"},
			{Name: "Ablaktisztítás", Description: "Ablakok kívül-belül, keretekkel.", Price: "1 300 Ft / ablak"},
		}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"How much is a deep clean?", "", true},
		{"How much is window cleaning?", "1 300 Ft", false},
		{"How much is sofa cleaning?", "2 100 Ft", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) || tc.handover && strings.Contains(got.Text, "Ft") {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestLackIsNotTheStem: a word made with a suffix of lack ("cukormentes", sugar-free) is no
// form of the stem it lacks ("cukor", sugar; "cukros", sugary): a question about the one
// finds the entry about it, never the other's, and with no entry about it hands over.
func TestLackIsNotTheStem(t *testing.T) {
	lemma := func(w string) *term { tt := makeTerm(w, false, true); return &tt }
	for _, p := range [][2]string{{"cukormentes", "cukor"}, {"cukor", "cukormentes"}, {"cukormentes", "cukros"},
		{"hibamentes", "hiba"}, {"hibátlan", "hibát"}} {
		if m := match(lemma(p[0]), lemma(p[1])); m != 0 {
			t.Errorf("%s ~ %s: %v, want 0", p[0], p[1], m)
		}
	}
	// A word of lack and its other forms, and a word derived from one ("fertőtlenít",
	// disinfect, of "fertőtlen") whichever way the rules read it, still match.
	for _, p := range [][2]string{{"cukormentes", "cukortalan"}, {"fertőtlenítetek", "fertőtlenítéssel"}, {"fertőtlenítéssel", "fertőtlenítetek"}} {
		if m := match(lemma(p[0]), lemma(p[1])); m < related {
			t.Errorf("%s ~ %s: %v, want at least %v", p[0], p[1], m, related)
		}
	}
	sugary := QA{Question: "Milyen cukros süteményeitek vannak?", Answer: "A csokoládétorta és a gesztenyés kocka cukorral, házi tejszínhabbal készül."}
	free := QA{Question: "Van cukormentes tortátok?", Answer: "A diétás tortánk cukormentes, eritrittel édesítjük, rendelésre készül."}
	open := QA{Question: "Hol vagytok?", Answer: "A cukrászda a Fő utca 3. alatt van."}
	for _, tc := range []struct {
		faq     []QA
		message string
		want    string // "" : hand over
	}{
		{[]QA{sugary, free, open}, "Van cukormentes tortátok?", "eritrittel"},
		{[]QA{free, sugary, open}, "Milyen cukros tortátok van?", "cukorral"},
		{[]QA{sugary, open}, "Van cukormentes tortátok?", ""},
		{[]QA{free, open}, "Van cukros tortátok?", ""},
	} {
		p := Profile{CompanyName: "Habcsók Cukrászda", Description: "Cukrászda Szegeden, torták rendelésre.", FAQ: tc.faq}
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "" && (!got.Handover || strings.Contains(got.Text, "eritrittel") || strings.Contains(got.Text, "cukorral")) {
			t.Errorf("%q with %d entries: handover %v, %q; want a hand-over", tc.message, len(tc.faq), got.Handover, got.Text)
		}
		if tc.want != "" && (got.Handover || !strings.Contains(got.Text, tc.want)) {
			t.Errorf("%q: handover %v, %q; want the answer with %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}
