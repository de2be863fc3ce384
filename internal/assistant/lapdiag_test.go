package assistant

import "testing"

// TestSuspendedNamePartNamesAKind: a company name that coordinates two compounds with a
// suspended hyphen ("Cipő- és Táskajavító": a shoe repairer and a bag repairer) is written out
// before its words are set aside, as a message's is. Its first part, which entries name as a
// word of their own ("Esküvői cipő"), then names a kind of what the company offers and stays a
// topic of the question, as that of a whole compound name does; the name's compound itself
// still names the company.
func TestSuspendedNamePartNamesAKind(t *testing.T) {
	p := Profile{CompanyName: "Diófa Cipő- és Táskajavító", Address: "8200 Veszprém, Óváros tér 4.",
		Description: "Kézzel készült cipők, cipő- és táskajavítás Veszprémben.",
		Services: []Service{
			{Name: "Esküvői cipő", Description: "Selyem vagy bőr menyasszonyi és vőlegénycipő, méretre.", Price: "38 000 Ft / pár"},
			{Name: "Egyedi bőrcipő", Description: "Méretre készített utcai cipő.", Price: "52 000 Ft / pár"},
			{Name: "Cipzárcsere", Description: "Táska vagy kabát cipzárjának cseréje.", Price: "4 500 Ft"}},
		FAQ: []QA{
			{Question: "Van próba esküvő előtt?", Answer: "Igen, egy próbát 3 000 Ft-ért tartunk, ennek árát az esküvői pár árából levonjuk."},
			{Question: "Árultok használt cipőt?", Answer: "Nem, csak új cipőt készítünk."},
			{Question: "Hogyan tudok rendelni?", Answer: "Személyesen a műhelyben, méretvétellel."}}}
	checkAnswers(t, p, []answerCase{
		{message: "esküvői cipő ára?", lang: Hungarian, want: "38 000 Ft"},
		{message: "Lehet nálatok használt cipőt venni?", lang: Hungarian, want: "csak új cipőt"},
		{message: "Hol van a cipőjavító?", lang: Hungarian, want: "Óváros tér 4"},
	})
}

// TestCompoundIsNoFormOfItsFirstPart: a visitor's compound whose first part is an entry's word
// ("kerékpártáskát", a bike bag, of a shop selling "kerékpárt") names its head's thing, not a
// form of the entry's word, though the two share their first letters as a word and its suffix
// do; nor is it a typo of another compound of that first part ("kerékpármárkát", bike brands,
// two letters apart). A question about it is handed over; the entries' own words still match.
func TestCompoundIsNoFormOfItsFirstPart(t *testing.T) {
	p := Profile{CompanyName: "Gyors Kerék Kft.", Address: "7400 Kaposvár, Fő u. 12.",
		Services: []Service{
			{Name: "Defektjavítás", Description: "Belső gumi cseréje vagy foltozása.", Price: "2 500 Ft"}},
		FAQ: []QA{
			{Question: "Milyen kerékpárokat javítotok?", Answer: "Minden kerékpármárkát javítunk, elektromosat is."},
			{Question: "Árultok használt kerékpárt?", Answer: "Igen, felújított kerékpárokat árulunk 40 000 Ft-tól."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Kerékpártáskát lehet nálatok venni?", lang: Hungarian, handover: true},
		{message: "Laptoptáskát lehet nálatok venni?", lang: Hungarian, handover: true},
		{message: "Árultok használt kerékpárt?", lang: Hungarian, want: "40 000 Ft"},
	})
}

// TestCompoundHeadAsAKeysHead: a visitor's compound whose first part an FAQ says as a word of
// its own and whose head ends a compound of the FAQ's question ("Tojásallergiás…" of an FAQ
// asked of "ételallergia" whose answer names eggs) asks of that FAQ, as one whose key is the
// head alone does (saysParts). Where two entries' names end in the head (siblings), the head
// names neither, and a compound whose first part no entry says is handed over.
func TestCompoundHeadAsAKeysHead(t *testing.T) {
	p := Profile{CompanyName: "Napsugár Pizzéria", Address: "4400 Nyíregyháza, Luther u. 2.",
		Services: []Service{
			{Name: "Margherita pizza", Description: "Paradicsom, mozzarella, bazsalikom.", Price: "2 900 Ft"},
			{Name: "Ablaktisztítás", Description: "Kirakatok és redőnyök tisztítása.", Price: "6 000 Ft"},
			{Name: "Autótisztítás", Description: "Ha a kárpit foltos, az autó belsejének tisztítása.", Price: "9 000 Ft"}},
		FAQ: []QA{
			{Question: "Mennyire biztonságos a pizza ételallergia esetén?", Answer: "A tésztában nincs tojás, de a konyhában tojás és dió is van, így nyomokban előfordulhat."},
			{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel vagy kártyával."}}}
	checkAnswers(t, p, []answerCase{
		{message: "Tojásallergiás vagyok, mennyire biztonságos nálatok a lángos?", lang: Hungarian, want: "nyomokban"},
		{message: "Vállaltok kárpittisztítást?", lang: Hungarian, handover: true},
		{message: "Szőnyegtisztítás mennyi?", lang: Hungarian, handover: true},
	})
}
