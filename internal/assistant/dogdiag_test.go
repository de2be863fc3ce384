package assistant

import "testing"

// TestCaseEndingBeginsNoCompound: a profile word with a case ending ("táskát", bag, accusative)
// is no beginning of a longer visitor word whose rest is no suffix ("táskatartó", bag holder):
// Hungarian puts no case ending inside a compound, so the visitor names another thing, whose
// first part only is the profile's word (headBeyond: the compound's head goes on where the
// profile's word has its ending). Questions of the bag itself still match.
func TestCaseEndingBeginsNoCompound(t *testing.T) {
	bag := makeTerm("táskát", false, true)
	for _, w := range []string{"táskatartó", "táskatartót"} {
		q := newTerm(w, false)
		if m := match(&q, &bag); m >= sameIdea {
			t.Errorf("%s ~ táskát = %.2f, want a part's match (< %.2f)", w, m, sameIdea)
		}
	}
	for _, w := range []string{"táskát", "táskátok", "táskáját", "taskat"} {
		q := newTerm(w, false)
		if m := match(&q, &bag); m < related {
			t.Errorf("%s ~ táskát = %.2f, want the same word", w, m)
		}
	}
	p := Profile{CompanyName: "Varga Bőrműves", Address: "7621 Pécs, Király u. 8.",
		Services: []Service{
			{Name: "Cipzárcsere", Description: "Kabát, táska vagy csizma cipzárjának cseréje.", Price: "3 500 Ft"}},
		FAQ: []QA{
			{Question: "Táskát is javítotok?", Answer: "Igen, bőr- és vászontáskát is, a fület és a varrást is."},
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy kártyával."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Lehet nálatok táskatartót venni?", lang: Hungarian, handover: true},
		{message: "Van nálatok táskatartó?", lang: Hungarian, handover: true},
		{message: "A táskátokat is megjavítjátok?", lang: Hungarian, want: "vászontáskát"},
	})
}

// TestWhereToDoWhatTheDescriptionSays: a where-question of doing something ("Parkolni hol
// lehet?") that the description itself says where to do is answered by the description, not
// replaced by the address; a where-question of the company itself still gets the address.
// A made-up bookbinder and a made-up hairdresser.
func TestWhereToDoWhatTheDescriptionSays(t *testing.T) {
	p := Profile{CompanyName: "Lapozó Könyvkötészet", Address: "9021 Győr, Kossuth u. 3.",
		Description: "Könyvkötés és albumkészítés 2009 óta. A műhely udvarán ingyenes parkolás van.",
		Services: []Service{
			{Name: "Szakdolgozat kötése", Description: "Keményfedeles kötés aranyozott felirattal.", Price: "6 000 Ft"}},
		FAQ: []QA{
			{Question: "Hogyan tudok rendelni?", Answer: "Telefonon vagy személyesen a műhelyben."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Parkolni hol lehet?", lang: Hungarian, want: "udvarán"},
		{message: "Hol van a műhely?", lang: Hungarian, want: "Kossuth u. 3"},
	})
	hairdresser := Profile{CompanyName: "Próba Hajszalon",
		Description: "Fodrászszalon Pécs belvárosában, 2010 óta. Az üzlet mögötti udvarban ingyenes parkolás van.",
		Address:     "7621 Pécs, Próba utca 1.",
		Services:    []Service{{Name: "Női hajvágás", Description: "Mosással és szárítással.", Price: "6 500 Ft"}}}
	checkAnswers(t, hairdresser, []answerCase{
		{message: "Parkolni hol lehet?", lang: Hungarian, want: "ingyenes parkolás"},
		{message: "Hol van a szalon?", lang: Hungarian, want: "Próba utca"},
	})
}

// TestFAQAskedAlikeOverAGenericLead: "Hogy tudok időpontot kérni?" names one topic word, which
// two FAQs say alike in their own questions; one asks it as the visitor does ("Hogyan…?"), the
// other leads only by a generic word ("kér", ask) that its answer's "Kérjük" (please) matches.
// The FAQ asked alike answers; asked as the other FAQ asks, that one still does.
func TestFAQAskedAlikeOverAGenericLead(t *testing.T) {
	p := Profile{CompanyName: "Hangoló Bt.", Address: "6722 Szeged, Tisza L. krt. 40.",
		Services: []Service{
			{Name: "Zongorahangolás", Description: "Pianínó és zongora hangolása helyszínen.", Price: "18 000 Ft"}},
		FAQ: []QA{
			{Question: "Hogyan foglalhatok időpontot?", Answer: "Telefonon hétköznap, a visszaigazolást e-mailben küldjük."},
			{Question: "Át tudom tenni az időpontot?", Answer: "Kérjük, legalább 48 órával előtte szóljon."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Hogy tudok időpontot kérni?", lang: Hungarian, want: "visszaigazolást"},
		{message: "Át tudom tenni az időpontot?", lang: Hungarian, want: "48 órával"},
	})
}

// TestServiceIncludedByName: a service whose description lists another service by its name
// ("…, manikűr") is a package that includes it; a one-part question that names the included
// service whole, matched by the package only in what it says, asks about the included service
// and its price, not the package's. Two things joined by "and" may still be the package's.
func TestServiceIncludedByName(t *testing.T) {
	p := Profile{CompanyName: "Fényes Szépségszalon", Address: "4025 Debrecen, Piac u. 20.",
		Services: []Service{
			{Name: "Menyasszonyi csomag", Description: "Hajmosás, vágás, pedikűr, sminkelés és manikűr.", Price: "24 000 Ft"},
			{Name: "Manikűr", Description: "Pár perc, bejelentkezés nélkül.", Price: "2 800 Ft"},
			{Name: "Festés", Description: "Tartós hajfestés.", Price: "9 000 Ft"}}}
	checkAnswers(t, p, []answerCase{
		{message: "manicure cut only?", lang: English, want: "2 800 Ft", not: "24 000 Ft"},
		{message: "manicure and cut?", lang: English, want: "24 000 Ft"},
	})
}
