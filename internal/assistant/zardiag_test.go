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
		{English, "Do you sell padlocks?", "", true, ""},
		{English, "How much is vinyl flooring?", "2 500 Ft", false, ""},
		{English, "Do you sell varnish?", "lakkot", false, ""},
	})
}

// TestBareContactWord: a question of nothing but a word of reaching the company ("Tel?",
// "Telefonszám?") asks for the phone number, though an FAQ names the phone too: the rule that
// prefers an entry of the company's own to a fixed fact matched about as well ("Irodát is
// takarítotok?") is for questions that name something else. A question that names more than
// the phone is still the FAQ's.
func TestBareContactWord(t *testing.T) {
	translators := Profile{CompanyName: "Lingua Fordítóiroda",
		Description: "Hiteles és szakfordítás Nyíregyházán.",
		Phone:       "+36 42 555 019",
		Email:       "iroda@lingua.example",
		Services:    []Service{{Name: "Szakfordítás", Description: "Műszaki és jogi szövegek fordítása.", Price: "3,2 Ft / karakter"}},
		FAQ:         []QA{{Question: "Telefonon is lehet rendelni?", Answer: "Igen, munkanapokon 9 és 17 között vesszük fel a rendelést."}}}
	checkAnswers(t, translators, []answerCase{
		{Hungarian, "Tel?", "+36 42 555 019", false, ""},
		{Hungarian, "Telefonszám?", "+36 42 555 019", false, ""},
		{Hungarian, "Telefonon is lehet rendelni?", "munkanapokon", false, ""},
	})
}

// TestRestatedFAQBeforeService: a question that says every key word of an FAQ's question, with
// the same question word, asks that FAQ, though a service whose name and description hold more
// of the visitor's words ranks higher ("Mit kell vinnem…" of "Mi kell a … pótlásához?"); the
// price of that service is still the service's to give.
func TestRestatedFAQBeforeService(t *testing.T) {
	office := Profile{CompanyName: "Gyors Ügyintéző Iroda",
		Description: "Okmányügyek intézése Kaposváron.",
		Services: []Service{{Name: "Jogosítvány csere és pótlás", Description: "Lejárt vagy elveszett jogosítvány pótlása ügyintézéssel, a legtöbb kategóriára.", Price: "9 000 Ft-tól"},
			{Name: "Útlevél ügyintézés", Description: "Új útlevél igénylése gyorsított eljárásban.", Price: "12 000 Ft"}},
		FAQ: []QA{{Question: "Mi kell a jogosítvány pótlásához?", Answer: "A személyi igazolvány és egy orvosi alkalmassági igazolás."},
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy bankkártyával."}}}
	checkAnswers(t, office, []answerCase{
		{Hungarian, "Mit kell vinnem, ha pótolni kell az elveszett jogosítványt?", "orvosi alkalmassági", false, ""},
		{Hungarian, "Mennyibe kerül az elveszett jogosítvány pótlása?", "9 000 Ft", false, ""},
	})
}

// TestEnglishWordBeginsCompound: an English word whose Hungarian is only the first part of an
// entry's compound name ("window": "ablak" of "Ablakpucolás", window cleaning) does not name
// that entry, as a Hungarian word that only begins it does not: the head of a Hungarian
// compound is its last part. So it does not veto the entry that says what is asked.
func TestEnglishWordBeginsCompound(t *testing.T) {
	cleaners := Profile{CompanyName: "Ragyogó Kft.",
		Description: "Lakások takarítása Zalaegerszegen.",
		Services: []Service{{Name: "Költözés utáni takarítás", Description: "Üres lakás alapos takarítása; az ablakokat is megtisztítjuk, a függönyöket kimossuk.", Price: "45 000 Ft-tól"},
			{Name: "Ablakpucolás", Description: "Keretekkel és párkányokkal együtt, vegyszer nélkül.", Price: "1 500 Ft / darab"}},
		FAQ: []QA{{Question: "Hétvégén is jöttök?", Answer: "Szombaton délelőtt igen."}}}
	checkAnswers(t, cleaners, []answerCase{
		{English, "Do you wash the curtains with the windows?", "függönyöket", false, ""},
		{Hungarian, "Mennyibe kerül az ablakpucolás?", "1 500 Ft", false, ""},
	})
	for _, tc := range []struct {
		en, hu string
		want   bool
	}{
		{"windows", "ablakpucolás", true},
		{"window", "ablak", false},
		{"cleaning", "ablakpucolás", false},
	} {
		q, k := newTerm(tc.en, true), makeTerm(tc.hu, false, true)
		if got := beginsCompound(&q, &k); got != tc.want {
			t.Errorf("beginsCompound(%q, %q) = %v, want %v", tc.en, tc.hu, got, tc.want)
		}
	}
}
