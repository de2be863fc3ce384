package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestCompoundStartNamesNoOtherEntry: a question whose word only begins another entry's
// compound name ("borítót" of "Borítójavítás", a repair) does not name that entry, so the FAQ
// whose answer says what is asked is not handed over for it. The head of a Hungarian compound
// is its last part: the word and the compound begin alike enough to match as one, but the
// compound names another thing.
func TestCompoundStartNamesNoOtherEntry(t *testing.T) {
	p := Profile{CompanyName: "Lapozó Könyvkötészet", Address: "9021 Győr, Kossuth u. 3.",
		Description: "Könyvkötés, szakdolgozatok kötése és régi könyvek felújítása.",
		Services: []Service{
			{Name: "Borítójavítás", Description: "Szakadt vagy kopott borító cseréje, új gerinccel.", Price: "3 500 Ft"},
			{Name: "Szakdolgozat kötése", Description: "Keményfedeles kötés aranyozott felirattal.", Price: "6 000 Ft"}},
		FAQ: []QA{
			{Question: "Kell időpontot foglalni?", Answer: "Borítójavításra nem kell, az általában megvárható; a többi munkára érdemes időpontot kérni."},
			{Question: "Mennyi idő alatt készül el a kötés?", Answer: "Általában két munkanap."}}}
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Borítót meg lehet várni?", "megvárható", false, ""},
		{Hungarian, "Mennyibe kerül a borítójavítás?", "3 500 Ft", false, ""},
	})
}

// TestBeginsCompound: the visitor's word only begins the profile's longer compound, or is it.
func TestBeginsCompound(t *testing.T) {
	for _, tc := range []struct {
		q, k string
		want bool
	}{
		{"borítót", "Borítójavítás", true},
		{"borítót", "borító", false},
		{"javítás", "Borítójavítás", false},
	} {
		q, k := newQuery(tc.q, Contact{}, nil).terms[0], newQuery(tc.k, Contact{}, nil).terms[0]
		if got := beginsCompound(&q.term, &k.term); got != tc.want {
			t.Errorf("beginsCompound(%q, %q) = %v, want %v", tc.q, tc.k, got, tc.want)
		}
	}
}

// TestPriceAndLengthAskedOfAnEntryWithoutLength: "Mennyibe kerül … és mennyi ideig tart?" asks
// two things; the priced entry answers the price though it states no length, and the length
// is another entry's to say. Requiring the priced pick to state a length too left nothing to
// answer the price with.
func TestPriceAndLengthAskedOfAnEntryWithoutLength(t *testing.T) {
	p := Profile{CompanyName: "Lapozó Könyvkötészet", Address: "9021 Győr, Kossuth u. 3.",
		Description: "Könyvkötés, szakdolgozatok kötése és régi könyvek felújítása.",
		Services: []Service{
			{Name: "Gerincjavítás", Description: "Elszakadt könyvgerinc pótlása vászonnal.", Price: "2 000 Ft"},
			{Name: "Szakdolgozat kötése", Description: "Keményfedeles kötés aranyozott felirattal.", Price: "6 000 Ft"}},
		FAQ: []QA{
			{Question: "Mennyi ideig tart a javítás?", Answer: "Egy gerincjavítás kb. 20 perc, megvárhatja."},
			{Question: "Hol lehet parkolni?", Answer: "Az udvarban."}}}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Mennyibe kerül egy gerincjavítás és mennyi ideig tart?"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Text, "2 000 Ft") || !strings.Contains(got.Text, "20 perc") {
		t.Errorf("handover %v, %q; want the price 2 000 Ft and the 20 perc", got.Handover, got.Text)
	}
}

// TestUntilWhenIsAnsweredByAnEndDate: "meddig" asks until when as well as how long, and an
// entry that states the day something lasts until ("szeptember 30-ig") answers it though it
// states no length; a question of the length alone ("mennyi ideig") is not answered by a date.
func TestUntilWhenIsAnsweredByAnEndDate(t *testing.T) {
	p := Profile{CompanyName: "Lapozó Könyvkötészet", Address: "9021 Győr, Kossuth u. 3.",
		Description: "Könyvkötés, szakdolgozatok kötése és régi könyvek felújítása.",
		Services: []Service{
			{Name: "Nyári archiválás", Description: "Iratait klimatizált raktárban őrizzük május 1-től szeptember 30-ig.", Price: "9 000 Ft / szezon"},
			{Name: "Szakdolgozat kötése", Description: "Keményfedeles kötés aranyozott felirattal.", Price: "6 000 Ft"}},
		FAQ: []QA{{Question: "Mennyi ideig tart a kötés?", Answer: "Általában két munkanap."}}}
	checkAnswers(t, p, []answerCase{
		{Hungarian, "A nyári archiválás meddig tart?", "szeptember 30-ig", false, ""},
		{Hungarian, "Mennyi ideig tart a nyári archiválás?", "", true, ""},
	})
}
