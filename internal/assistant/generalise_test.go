package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// TestMatcherGeneralises: a visitor's compound of a service's two-word name, a compound whose
// folded lemma is also a generic word, an English word that only the Hungarian word's own
// dictionary entry translates, a capitalised English name the lexicon knows only by its
// parts, which the profile never uses, an inflected form in the lexicon, a price per month,
// an English compound written as two words, a word both dictionaries pair among later
// senses, a thesaurus synonym, "today" for "that very day", a walk-in, and a question whose last clause
// names a service
// after a clause of the visitor's trouble that the profile has no words for.
func TestMatcherGeneralises(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Műhely",
		Services: []Service{
			{Name: "Kis szerviz", Description: "Olajcsere és átvizsgálás.", Price: "24 900 Ft"},
			{Name: "Nagy szerviz", Description: "Szűrők és gyertyák cseréje.", Price: "54 900 Ft"},
			{Name: "Gumiszerelés", Description: "Szezonális kerékcsere, centírozás.", Price: "12 000 Ft / 4 kerék"},
			{Name: "Hirdetéskezelés", Description: "Google hirdetések beállítása.", Price: "80 000 Ft / hó"},
			{Name: "Kivizsgálás", Description: "Hibakód kiolvasása.", Price: "9 900 Ft"},
			{Name: "Fékjavítás", Description: "Fékbetét és féktárcsa csere.", Price: "18 000 Ft-tól"},
		},
		FAQ: []QA{{Question: "Van gumitárolás?", Answer: "Igen, szezonális gumitárolást vállalunk."},
			{Question: "Hogyan működik a lemondás?", Answer: "Az időpont előtt 24 órával díjmentes."},
			{Question: "Milyen tanfolyamot indítotok?", Answer: "Kezdő és haladó szerelőképzést tavasszal."},
			{Question: "Mikor vállaltok javítást?", Answer: "Elakadt autót még aznap elvontatunk."},
			{Question: "Kell előre bejelentkezni?", Answer: "Bejelentkezés nélkül is fogadunk, ha van szabad emelő."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message  string
		lang     Language
		want     string
		handover bool
	}{
		{"Mennyi a nagyszerviz?", Hungarian, "54 900 Ft", false},
		{"Mennyi a kerékcsere?", Hungarian, "12 000 Ft / 4 kerék", false},
		{"Do you store tyres?", English, "gumitárolást", false},
		{"Do you run Facebook ads?", English, "", true},
		// The lexicon gives "nagyobb" (larger), a form of the name's "nagy", for "major".
		{"What does a major service cost?", English, "54 900 Ft", false},
		// How often one pays qualifies the price asked for; it names no other topic.
		{"Mennyi a hirdetéskezelés havonta?", Hungarian, "80 000 Ft / hó", false},
		// A compound English writes as two words is one word of the lexicon.
		{"How much is a check-up?", English, "9 900 Ft", false},
		{"Nyikorog az első kerék, fékbetétet cseréltek?", Hungarian, "Fékbetét és féktárcsa csere", false},
		// Each dictionary pairs "cancellation" and "lemondás", though among later senses.
		{"How does cancellation work?", English, "24 órával", false},
		// The thesaurus gives "kurzus" as a synonym of "tanfolyam".
		{"Milyen kurzust indítotok?", Hungarian, "szerelőképzést", false},
		// "Today" asks how soon, as "aznap" (that very day) answers.
		{"Today, can you tow the car?", English, "még aznap", false},
		// A walk-in, hyphenated or not, is one word, of booking: one without an appointment.
		{"Do you take walk-ins?", English, "Bejelentkezés nélkül", false},
		{"Can I just walk in?", English, "Bejelentkezés nélkül", false},
		{"Do you take walk ins?", English, "Bejelentkezés nélkül", false},
		// A same-day appointment asks how soon, as "aznap" answers.
		{"Can I get a same day appointment?", English, "még aznap", false},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != tc.handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want handover %v and %q", tc.message, got.Handover, got.Text, tc.handover, tc.want)
		}
	}
}

// TestTwoQuestions: a message of two questions joined by "és" gets both facts, the second
// part asking about the first one's topic ("meddig tart": how long the coating takes); one
// question gets one.
func TestTwoQuestions(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Műhely",
		Services: []Service{{Name: "Kerámia bevonat", Description: "Kézi polírozás és bevonat.", Price: "120 000 Ft"},
			{Name: "Kárpittisztítás", Description: "Ülések mélytisztítása.", Price: "25 000 Ft"}},
		FAQ: []QA{{Question: "Mennyi ideig tart a kerámia bevonat?", Answer: "Egy teljes napot vesz igénybe."}},
	}
	for _, tc := range []struct {
		message   string
		want, not []string
	}{
		{"Mennyi a kerámia bevonat és meddig tart?", []string{"120 000 Ft", "teljes napot"}, nil},
		{"Meddig tart a kerámia bevonat?", []string{"teljes napot"}, []string{"25 000 Ft"}},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(got.Text, w) {
				t.Errorf("%q: %q, want %q in it", tc.message, got.Text, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(got.Text, w) {
				t.Errorf("%q: %q, want no %q in it", tc.message, got.Text, w)
			}
		}
	}
	if got := questionParts("Mennyi a festés és meddig tart? Hol vagytok"); !slices.Equal(got, []string{"Mennyi a festés", "meddig tart", "Hol vagytok"}) {
		t.Errorf("questionParts = %q", got)
	}
}

// TestDescriptionIsNoSecondAnswer: the description, which mentions all the company does, is
// no second fact beside the one a question asks for: "Hétvégén is van implantáció?" does not
// get the opening hours and the description's mention of implants.
func TestDescriptionIsNoSecondAnswer(t *testing.T) {
	p := Profile{
		CompanyName:  "Próba Rendelő",
		Description:  "Magánrendelő a belvárosban, tömésektől az implantációig.",
		OpeningHours: "Hétfőtől péntekig 8–16, szombaton 9–12.",
		FAQ:          []QA{{Question: "Fáj a kezelés?", Answer: "Helyi érzéstelenítéssel dolgozunk."}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Hétvégén is van implantáció?"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Text, "belvárosban") {
		t.Errorf("%q: the description beside another fact", got.Text)
	}
}

// TestTrapWordOfAnotherFact: a question that names the weekend, which the opening hours
// answer, and a treatment that the profile names once and shares only parts of words with
// elsewhere ("implantátum" of "implantáció") is not answered by the opening hours: the
// treatment's word is rare in the profile, not common, and the hours leave it unexplained.
func TestTrapWordOfAnotherFact(t *testing.T) {
	p := Profile{
		CompanyName:  "Próba Rendelő",
		Description:  "Magánrendelő a belvárosban, a töméstől az implantációig.",
		OpeningHours: "Hétfőtől péntekig 8–16, szombaton 9–12.",
		Services:     []Service{{Name: "Fogimplantátum", Description: "Titán implantátum koronával.", Price: "290 000 Ft"}},
		FAQ: []QA{{Question: "Mennyi ideig tart egy implantátum gyógyulása?", Answer: "Általában 3–6 hónap."},
			{Question: "Adnak garanciát?", Answer: "Az implantátumokra 5 év garanciát adunk."},
			{Question: "Van hétvégi ügyelet?", Answer: "Hétvégén a megyei ügyelet fogadja a betegeket."}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Hétvégén is van implantáció?"})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Handover {
		t.Errorf("%q: want a hand-over", got.Text)
	}
	got, err = Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Szombaton nyitva vagytok?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "szombaton 9–12") {
		t.Errorf("%q: want the opening hours", got.Text)
	}
}

// TestRuleStemsFirst: a word's lemma is first the one the dictionary's rules give, so that
// "kinézni" (to look) is "néz" with a verbal prefix, not "kín" (pain) with loose suffixes.
func TestRuleStemsFirst(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Stúdió",
		FAQ: []QA{{Question: "Hogyan fog kinézni az oldal telefonon?", Answer: "Minden oldalunk mobilbarát."},
			{Question: "Átveszitek a régi szövegeket?", Answer: "Igen, a meglévő szövegeket átvesszük."}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Jól néz ki telefonon?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "mobilbarát") {
		t.Errorf("handover %v, %q; want the answer on phones", got.Handover, got.Text)
	}
}

// TestReasonClause: a clause introduced by "mert" (because) tells why the visitor asks, and
// its words, which the profile need not have, do not keep the question from its answer.
func TestReasonClause(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Bringa",
		Services:    []Service{{Name: "Kerékpár átvizsgálás", Description: "Fékek, váltó, lánc beállítása.", Price: "9 000 Ft"}},
		FAQ: []QA{{Question: "Hogyan lehet időpontot kérni?", Answer: "Telefonon; sürgős hibánál aznap is megnézzük."},
			{Question: "Van garancia?", Answer: "Minden javításra 6 hónap garanciát adunk."}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Ma be tudom vinni, mert nyikorog valami?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "aznap is megnézzük") {
		t.Errorf("handover %v, %q; want the same-day answer", got.Handover, got.Text)
	}
}

// TestTranslatedByEitherDictionary: an English word matches a Hungarian one as well as the
// better of the two dictionaries pairs them: "wedding" lists "esküvő" seventh, but "esküvő"
// gives "wed" among its first senses.
func TestTranslatedByEitherDictionary(t *testing.T) {
	q := newTerm("wedding", true)
	for _, k := range termsOf("esküvő") {
		if got := match(&q, &k); got != translated {
			t.Errorf("match(wedding, %s) = %v, want %v", k.fold, got, translated)
		}
	}
}

// TestTranslationKeepsNegation: the lexicon's "érvénytelenít" (invalidate) for "cancel" is no
// form of the profile's "érvényes" (valid), though both begin alike.
func TestTranslationKeepsNegation(t *testing.T) {
	q := newTerm("cancel", true)
	for _, k := range termsOf("érvényes") {
		if got := match(&q, &k); got != 0 {
			t.Errorf("match(cancel, %s) = %v, want 0", k.fold, got)
		}
	}
}

// TestInternationalWords: an international word that English and Hungarian spell apart, and
// that the lexicon translates otherwise, is one word: "diagnostics" is "diagnosztika". One
// the lexicon pairs ("therapy", "terápia") still matches as it did.
func TestInternationalWords(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Rendelő",
		Services: []Service{
			{Name: "Számítógépes diagnosztika", Description: "Hibakód kiolvasása.", Price: "9 900 Ft"},
			{Name: "Gyógytorna", Description: "Egyéni terápia, 45 perc.", Price: "12 000 Ft"},
			{Name: "Klímatöltés", Description: "Leszívás és feltöltés.", Price: "19 900 Ft"},
		},
	}
	x := NewIndex(p)
	for _, tc := range []struct{ message, want string }{
		{"Do you do diagnostics?", "diagnosztika"},
		{"How much is the therapy?", "12 000 Ft"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}

// TestTopiclessTranslationMatchesNothing: the lexicon gives "meg", a verbal prefix, for
// "visit" (of "meglátogat"), and "meg" names no topic: "visits" is no "megtalál" (find),
// which the dictionary reads as "meg" too.
func TestTopiclessTranslationMatchesNothing(t *testing.T) {
	q := newTerm("visits", true)
	for _, k := range termsOf("megtalál") {
		if got := match(&q, &k); got != 0 {
			t.Errorf("match(visits, %s) = %v, want 0", k.fold, got)
		}
	}
}

// TestEnglishCompoundByParts: an English word the lexicon knows only by its parts
// ("webshop": "web", "shop") names each part only, so a profile word one part's words
// match ("szövet", tissue, is "web"; "szöveg", text, begins alike) is a weak match, and
// indefinite pronouns and "looking for" name no topic: the question is about the profile's
// own "Webshop".
func TestEnglishCompoundByParts(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Ügynökség",
		Services:    []Service{{Name: "Webshop", Description: "WooCommerce webáruház bankkártyás fizetéssel.", Price: "1 490 000 Ft"}},
		FAQ:         []QA{{Question: "Írtok szöveget is az oldalra?", Answer: "Igen, szövegírást oldalanként 15 000 Ft-ért vállalunk."}},
	}
	q := newTerm("webshop", true)
	for _, k := range termsOf("szöveget") {
		if got := match(&q, &k); got > compound {
			t.Errorf("match(webshop, %s) = %v, want at most %v", k.fold, got, compound)
		}
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Index: NewIndex(p),
		Message: "I'm looking for someone to build a webshop"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "WooCommerce") {
		t.Errorf("handover %v, %q; want the webshop", got.Handover, got.Text)
	}
}

// TestTimeOfDayAsksHours: how early in the morning or how late in the evening one may come
// is a question about the opening hours, in either language.
func TestTimeOfDayAsksHours(t *testing.T) {
	p := Profile{
		CompanyName:  "Próba Szalon",
		OpeningHours: "Hétfőtől péntekig 8–17 óráig.",
		FAQ:          []QA{{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával is."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct {
		message string
		lang    Language
	}{
		{"How early can I come in the morning?", English},
		{"Este meddig lehet jönni?", Hungarian},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: tc.lang, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, "8–17") {
			t.Errorf("%q: handover %v, %q; want the opening hours", tc.message, got.Handover, got.Text)
		}
	}
}

// TestHowLongHaveYouBeen: "How long have you been open?" asks since when the company works,
// not how long a job takes or when it opens.
func TestHowLongHaveYouBeen(t *testing.T) {
	p := Profile{
		CompanyName:  "Próba Rendelő",
		Description:  "Családi rendelő Debrecenben 2009 óta.",
		OpeningHours: "Hétfőtől péntekig 8–17 óráig.",
		Services:     []Service{{Name: "Tömés", Description: "Fogszínű tömés, kb. 45 perc.", Price: "22 000 Ft"}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Index: NewIndex(p),
		Message: "How long have you been open?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "2009 óta") {
		t.Errorf("handover %v, %q; want since when", got.Handover, got.Text)
	}
}

// TestSameDayNamesNoDay: "same day", which the lexicon knows only by its words, names no day
// of the week: a profile that says nothing of same-day visits does not answer it with the
// opening hours because "nap" (day) ends "vasárnap" (Sunday).
func TestSameDayNamesNoDay(t *testing.T) {
	p := Profile{
		CompanyName:  "Próba Szalon",
		OpeningHours: "Kedd–péntek 9–20, szombat 8–14; vasárnap zárva.",
		FAQ: []QA{{Question: "Hogyan lehet időpontot foglalni?", Answer: "Telefonon vagy e-mailben foglalhat."},
			{Question: "Mennyivel előbb kell lemondani az időpontot?", Answer: "Legalább 24 órával előtte."}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Index: NewIndex(p),
		Message: "Can I get a same day appointment?"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Text, "vasárnap") {
		t.Errorf("handover %v, %q; want no opening hours", got.Handover, got.Text)
	}
}

// TestEnglishPronounsAndPrepositions: "somewhere" and "without" name no topic, as the
// Hungarian "valahol" and "nélkül", which the dictionary marks as pronoun and postposition,
// do not.
func TestEnglishPronounsAndPrepositions(t *testing.T) {
	p := Profile{
		CompanyName:  "Próba Szalon",
		OpeningHours: "Kedd–péntek 9–20, szombat 8–14; vasárnap és hétfőn zárva.",
		Services:     []Service{{Name: "Férfi hajvágás", Description: "Géppel vagy ollóval.", Price: "5 500 Ft"}},
		FAQ: []QA{{Question: "Hogyan lehet időpontot foglalni?", Answer: "Telefonon foglalhat; bejelentkezés nélkül is fogadunk, ha van szabad szék."},
			{Question: "Van parkolás a szalon közelében?", Answer: "A Bartók Béla úton fizetős parkolás van."},
			{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával is."}},
	}
	x := NewIndex(p)
	for _, tc := range []struct{ message, want string }{
		{"Is there somewhere to park?", "fizetős parkolás"},
		{"Can I come without an appointment?", "bejelentkezés nélkül"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Index: x, Message: tc.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q: handover %v, %q; want %q", tc.message, got.Handover, got.Text, tc.want)
		}
	}
}

// TestEnglishWordOfNoTopic: an English word whose first Hungarian words are function words
// ("after": "után", "more": "még", "during": "közben") names no topic: it is no word of the
// question that a profile not using it would leave unanswered. "deep", whose first word
// "mély" is folded as "mely" (which), still names one. A preposition ("during", "after") stays
// a light word, as a generic one, which a profile's "közben" may match (closedWords).
func TestEnglishWordOfNoTopic(t *testing.T) {
	q := newQuery("Do you charge more during the weekend or after a deep renovation?", Contact{}, nil)
	var got []string
	for _, qt := range q.terms {
		if qt.weight >= 1 {
			got = append(got, qt.fold)
		}
	}
	if want := []string{"weekend", "deep", "renovation"}; !slices.Equal(got, want) {
		t.Errorf("topic words %q, want %q", got, want)
	}
}

// TestTranslatedCompoundHead: a Hungarian compound names a kind of its last word, so the
// lexicon's "villanykapcsoló" for "light switch" matches the profile's "kapcsoló", though
// less than the word itself.
func TestTranslatedCompoundHead(t *testing.T) {
	q := newTerm("lightswitch", true)
	for _, k := range termsOf("kapcsoló") {
		if got := match(&q, &k); got != sameIdea {
			t.Errorf("match(lightswitch, %s) = %v, want %v", k.fold, got, sameIdea)
		}
	}
}

// TestEnglishTypo: an English word the lexicon lacks that is one typo from one it has is
// that word ("cleen", "clean"); a capitalised one is a name ("Bosch" is no "botch").
func TestEnglishTypo(t *testing.T) {
	typo, word := newTerm("cleen", true), newTerm("clean", true)
	if !slices.Equal(typo.trans, word.trans) || typo.split {
		t.Errorf("cleen: %q (split %v), want clean's %q", typo.trans, typo.split, word.trans)
	}
	q := newQuery("Do you sell Bosch wipers?", Contact{}, nil)
	for _, qt := range q.terms {
		if qt.fold == "bosch" && (len(qt.trans) > 0 || !qt.proper) {
			t.Errorf("Bosch: %q, proper %v; want a name", qt.trans, qt.proper)
		}
	}
}

// TestAgentNounTakesItsVerb: the lexicon's few words for "charger" are a warhorse's; as one
// who charges it also takes the first words of "charge", so it matches the profile's "töltő".
func TestAgentNounTakesItsVerb(t *testing.T) {
	q := newTerm("charger", true)
	for _, k := range termsOf("töltő") {
		if got := match(&q, &k); got < weakMatch {
			t.Errorf("match(charger, %s) = %v (translations %q), want a match", k.fold, got, q.trans)
		}
	}
}

// TestShortLemmaNoKin: two words that share only a short secondary lemma are not one word's
// forms: "kéthetes" (two weeks long) begins with "két" (two), which "két részletben" is not
// about.
func TestShortLemmaNoKin(t *testing.T) {
	q, k := newTerm("kéthetes", false), makeTerm("két", false, true)
	if m := match(&q, &k); m >= related {
		t.Errorf("kéthetes ~ két = %v, want less than %v", m, related)
	}
}

// TestCompoundsOfOneHead: two compounds of one first word are kin, weakly ("gumicsere", tyre
// change, and "gumiszerelés", tyre fitting): a visitor's own compound for a service finds it,
// as part of the evidence and no more.
func TestCompoundsOfOneHead(t *testing.T) {
	q, k := newTerm("gumicserénél", false), makeTerm("gumiszerelés", false, true)
	if m := match(&q, &k); m != weakMatch {
		t.Errorf("gumicserénél ~ gumiszerelés = %v, want %v", m, weakMatch)
	}
}

// TestNearTieNamesTheWord: of two entries ranked alike, the one whose name holds the
// question's word itself answers, not the one that holds it as a part of a compound:
// "vizsgálat" is the "Általános vizsgálat" more than the "Laborvizsgálat".
func TestNearTieNamesTheWord(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Rendelő",
		Services: []Service{{Name: "Általános vizsgálat", Description: "Fizikális vizsgálat és tanácsadás, kb. 20 perc.", Price: "6 000 Ft"},
			{Name: "Laborvizsgálat", Description: "Vérkép és biokémia, eredmény aznap, 1 órán belül.", Price: "14 000 Ft"}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Meddig tart egy vizsgálat?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "20 perc") {
		t.Errorf("handover %v, %q; want the general examination", got.Handover, got.Text)
	}
}

// TestNearTieNamedOnly: the near tie is decided by names only between entries that have them;
// an address's words are no name a visitor asks by, so a description that says what was asked
// is not passed over for it.
func TestNearTieNamedOnly(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Műhely",
		Description: "Független autójavító műhely Pécsen 2003 óta, minden márkára. Szerviz, műszaki vizsgára felkészítés, gumiszerelés.",
		Address:     "7630 Pécs, Édesanyák útja 14.",
		FAQ:         []QA{{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával, készpénzzel és átutalással is."}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: "Do you work on all makes?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "minden márkára") || strings.Contains(got.Text, "Édesanyák") {
		t.Errorf("handover %v, %q; want the description, not the address", got.Handover, got.Text)
	}
}

// TestPrefixedVerbGloss: a prefixed verb the Hungarian–English dictionary lacks is glossed as
// its action noun: "lemondani" as "lemondás", cancellation, not as "mond", say.
func TestPrefixedVerbGloss(t *testing.T) {
	if k := makeTerm("lemondani", false, true); !slices.Contains(k.gloss, morph.EnglishStem("cancel")) {
		t.Errorf("lemondani: glosses %v, want cancel among them", k.gloss)
	}
}

// TestPolicyIsAFrameWord: "policy" in "What is your cancellation policy?" names no topic of
// its own; the question is about cancelling, which the profile answers.
func TestPolicyIsAFrameWord(t *testing.T) {
	p := Profile{
		CompanyName: "Próba Szalon",
		FAQ: []QA{{Question: "Mennyivel előbb kell lemondani az időpontot?", Answer: "Kérjük, legalább 24 órával előtte mondja le."},
			{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával is."}},
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: "What is your cancellation policy?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "24 órával") {
		t.Errorf("handover %v, %q; want the cancelling answer", got.Handover, got.Text)
	}
}

// TestInflectedFunctionWord: a Hungarian word that the dictionary's rules make a form of a
// function word names no topic, as the function word itself does not: "valamit" is "valami"
// (something). A looser lemma is no such sign: "SEO-t" stays.
func TestInflectedFunctionWord(t *testing.T) {
	for message, want := range map[string][]string{
		"Mi van, ha eltörtök valamit?": {"eltortok"},
		"Csináltok SEO-t?":             {"csinaltok", "seo"},
	} {
		var got []string
		for _, qt := range newQuery(message, Contact{}, nil).terms {
			got = append(got, qt.fold)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: topic words %q, want %q", message, got, want)
		}
	}
}

// TestSeparatedPrefix: a verbal prefix that an auxiliary parts from its infinitive is read
// with it: "Le tudom mondani?" asks about "lemondani" (cancel), and matches the FAQ "Lemondhatom
// a foglalást?" as the same verb, not as "mondani" (say).
func TestSeparatedPrefix(t *testing.T) {
	var got []string
	for _, qt := range newQuery("Le tudom mondani az időpontot?", Contact{}, nil).terms {
		got = append(got, qt.fold)
	}
	if want := []string{"tudom", "lemondani", "idopontot"}; !slices.Equal(got, want) {
		t.Errorf("topic words %q, want %q", got, want)
	}
	p := Profile{CompanyName: "Próba Kft.",
		FAQ: []QA{{Question: "Lemondhatom a foglalást?", Answer: "Ingyenesen lemondhatja 24 órával előtte."},
			{Question: "Mit mondanak rólatok az ügyfelek?", Answer: "Négyszáz értékelés, átlagosan 4,9 csillag."}}}
	got2, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Le tudom mondani az időpontot?"})
	if err != nil {
		t.Fatal(err)
	}
	if got2.Handover || !strings.Contains(got2.Text, "24 órával") {
		t.Errorf("handover %v, %q; want the cancelling answer", got2.Handover, got2.Text)
	}
}

// TestCompoundEndsCompound: a visitor's compound that ends the profile's names it as a word
// of the profile's own parts would: "állatútlevél" (pet passport), also inflected, is the
// "kisállatútlevél".
func TestCompoundEndsCompound(t *testing.T) {
	k := makeTerm("kisállatútlevél", false, true)
	for _, w := range []string{"állatútlevél", "állatútlevelet"} {
		if q := newTerm(w, false); match(&q, &k) < sameIdea {
			t.Errorf("%s ~ kisállatútlevél = %v, want at least %v", w, match(&q, &k), sameIdea)
		}
	}
}

// TestEverydayTopicNoEntryNames: a question that names an everyday topic (instalments, a
// concept) that no entry mentions is handed over, though its other words name entries: paying
// in instalments is neither how one pays nor what to do before surgery. The ways to pay
// that the profile names are answered.
func TestEverydayTopicNoEntryNames(t *testing.T) {
	p := Profile{CompanyName: "Próba Rendelő",
		FAQ: []QA{{Question: "Hogyan lehet fizetni?", Answer: "Készpénzzel és bankkártyával lehet fizetni."},
			{Question: "Mikor ne egyen az állat műtét előtt?", Answer: "Műtét előtt 12 órával már ne kapjon enni."}}}
	for _, tc := range []struct {
		message, want string
		lang          Language
		handover      bool
	}{
		{"Lehet részletre fizetni a műtétet?", "", Hungarian, true},
		{"Can I pay in instalments for surgery?", "", English, true},
		{"Lehet kártyával fizetni?", "bankkártyával", Hungarian, false},
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

// TestHowQuicklyHungarian: "Milyen gyorsan?" (how quickly) asks how soon, as "how quickly"
// does: it finds the answer that says in how many hours the company arrives.
func TestHowQuicklyHungarian(t *testing.T) {
	p := Profile{CompanyName: "Próba Szerelő",
		FAQ: []QA{{Question: "Mennyi idő alatt értek ki?", Answer: "Általában 2 órán belül kiérkezünk."},
			{Question: "Van garancia?", Answer: "A munkánkra 2 év garanciát vállalunk."}}}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Milyen gyorsan tudtok jönni?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "2 órán belül") {
		t.Errorf("handover %v, %q; want the arrival time", got.Handover, got.Text)
	}
}

// TestNamedEntryOverGeneralKey: a word among the general ones that ask for the address
// ("iroda", office) asks about the company's own entry that names it when the question asks
// no "where": "Irodát is takarítotok?" is about office cleaning; "Hol van az irodátok?" still
// gets the address.
func TestNamedEntryOverGeneralKey(t *testing.T) {
	p := Profile{CompanyName: "Ragyogó Takarító Kft.", Address: "7621 Pécs, Király utca 15.",
		Services: []Service{{Name: "Irodatakarítás", Description: "Heti vagy napi rendszerességgel, munkaidő után is.", Price: "Egyedi ajánlat."},
			{Name: "Ablaktisztítás", Description: "Ablakok kívül-belül, keretekkel.", Price: "1 200 Ft / ablakszárny"}}}
	for message, want := range map[string]string{
		"Irodát is takarítotok?": "Heti vagy napi",
		"Hol van az irodátok?":   "Király utca 15",
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, want) {
			t.Errorf("%q: handover %v, %q; want %q", message, got.Handover, got.Text, want)
		}
	}
}

// TestDescriptionNeedsTheFullBar: the description mentions all the company does, so it answers
// a question only when it holds the question's topic words as a whole: two words of three
// ("practise", "car") in a driving school's description do not say whether one may practise
// with one's own car. A question it answers in full still gets it.
func TestDescriptionNeedsTheFullBar(t *testing.T) {
	p := Profile{CompanyName: "Sávváltó Autósiskola",
		Description: "Autósiskola Pécsen, B és A kategóriás képzéssel. Tantermi és e-learning elmélet, gyakorlott oktatók, kettős pedálos autók, manuális és automata váltóval.",
		Services: []Service{{Name: "B kategóriás tanfolyam", Description: "Elméleti képzés és 29 óra vezetés; a tanfolyam ára két részletben is fizethető.", Price: "289 000 Ft"},
			{Name: "Pótóra", Description: "50 perces vezetési óra a kötelező órákon felül.", Price: "11 500 Ft / óra"},
			{Name: "Automata váltós képzés", Description: "B kategória automata váltós autóval; a jogosítvány csak automata autóra érvényes.", Price: "309 000 Ft"},
			{Name: "Vezetéstechnikai felfrissítés", Description: "Jogosítvánnyal rendelkezőknek, akik régen vezettek; 5 óra városi vezetés.", Price: "55 000 Ft"}},
		FAQ: []QA{{Question: "Kell orvosi alkalmassági?", Answer: "Igen, a háziorvos által kiállított egészségügyi alkalmassági igazolás kell a beiratkozáshoz."},
			{Question: "Honnan indulnak a vezetési órák?", Answer: "Az órák az iroda elől indulnak, de megbeszélés szerint otthonról vagy az iskolától is elviszünk."},
			{Question: "Le lehet mondani a vezetési órát?", Answer: "24 órával előtte díjmentesen lemondható, a később lemondott órát ki kell fizetni."}}}
	for _, tc := range []struct {
		message, want string
		handover      bool
	}{
		{"Can I practise with my own car?", "", true},
		{"Gyakorlott oktatóitok vannak?", "gyakorlott oktatók", false},
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

// TestUnknownCompoundIsItsParts: a compound the dictionary lacks is read as its parts, not as
// its first word with the rest stripped as a suffix: "napelemet" (solar panel) is no form of
// "nap" (day), which "1 nap alatt" says.
func TestUnknownCompoundIsItsParts(t *testing.T) {
	q, k := newTerm("napelemet", false), makeTerm("nap", false, true)
	if m := match(&q, &k); m >= related {
		t.Errorf("napelemet ~ nap = %v (lemmas %q, parts %q), want less than %v", m, q.lemmas, q.parts, related)
	}
	if !slices.Contains(q.parts, "elem") {
		t.Errorf("napelemet: parts %q, want elem among them", q.parts)
	}
}

// TestPrefixedVerbTwoSuffixes: "lemondhatom" (I may cancel), a prefixed verb with two
// suffixes, is glossed as its action noun, so that "cancellation" finds the FAQ that asks it.
func TestPrefixedVerbTwoSuffixes(t *testing.T) {
	q, k := newTerm("cancellation", true), makeTerm("lemondhatom", false, true)
	if m := match(&q, &k); m < sameIdea {
		t.Errorf("cancellation ~ lemondhatom = %v (glosses %q), want at least %v", m, k.gloss, sameIdea)
	}
}

// TestConceptOverLateSense: a pair the dictionary gives among late senses, which alone is a
// weak match, is as strong as the concept both words belong to: "booking" is "foglalás"
// fourteenth, and both are of booking.
func TestConceptOverLateSense(t *testing.T) {
	q, k := newTerm("booking", true), makeTerm("foglalást", false, true)
	if m := match(&q, &k); m < sameIdea {
		t.Errorf("booking ~ foglalást = %v, want at least %v", m, sameIdea)
	}
}

// TestJoinedPairTakesItsHeadsConcepts: an English compound written as two words is of its
// last word's concept, the head of an English compound: "opening hours" asks for hours, but
// a "call-out" (a visit) is no phone call.
func TestJoinedPairTakesItsHeadsConcepts(t *testing.T) {
	for message, c := range map[string]struct {
		word    string
		concept uint64
		want    bool
	}{
		"What are your opening hours?": {"openinghours", conceptsOf("hours"), true},
		"How much is a call-out?":      {"callout", conceptsOf("telefon"), false},
	} {
		found := false
		for _, qt := range newQuery(message, Contact{}, nil).terms {
			if qt.fold == c.word {
				found = true
				if (qt.concepts&c.concept != 0) != c.want {
					t.Errorf("%q: %s has concepts %b; want the concept %b: %v", message, qt.fold, qt.concepts, c.concept, c.want)
				}
			}
		}
		if !found {
			t.Errorf("%q: no topic word %q", message, c.word)
		}
	}
}
