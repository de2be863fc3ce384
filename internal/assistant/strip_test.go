package assistant

import (
	"strings"
	"testing"
)

// shoeRepair is a made-up profile whose name's compound begins with what the company works on
// ("cipő" of "Cipőjavító"), which some entries name and others do not.
var shoeRepair = Profile{CompanyName: "Suszter Cipőjavító", Description: "Cipők és táskák javítása Pécsen.",
	Services: []Service{
		{Name: "Sarokcsere", Description: "Női és férfi cipőre.", Price: "3 500 Ft"},
		{Name: "Talpalás", Description: "Bőr vagy gumi talp.", Price: "9 000 Ft"},
	},
	FAQ: []QA{
		{Question: "Mennyi idő alatt készül el a táska?", Answer: "Egy-két hét alatt."},
		{Question: "Mennyi idő alatt készül el a cipő?", Answer: "Általában három munkanap alatt."},
		{Question: "Hogyan fizethetek?", Answer: "Készpénzzel vagy bankkártyával."},
	}}

// TestNameModifierTellsEntriesApart: the first part of the company name's compound ("cipő" of
// "Suszter Cipőjavító") is what the company works on, not the company; where some of the
// entries name it alone and others do not, the visitor's word stays a topic (namesKind) and
// tells the shoe's FAQ from the bag's (it was left out as the company's name, and the first of
// the two equal FAQs answered). The name's word itself is still the company.
func TestNameModifierTellsEntriesApart(t *testing.T) {
	checkAnswers(t, shoeRepair, []answerCase{
		{Hungarian, "Egy cipő mennyi idő alatt készül el?", "három munkanap", false, ""},
		{Hungarian, "A cipőm mennyi idő alatt lesz kész?", "három munkanap", false, ""},
		{Hungarian, "Egy táska mennyi idő alatt készül el?", "Egy-két hét", false, ""},
	})
	x := NewIndex(shoeRepair)
	for _, c := range []struct {
		question string
		weight   float64 // of the word beginning "cipo"; 0: left out
	}{
		{"Egy cipő mennyi idő alatt készül el?", 1},
		{"Hol van a cipőjavító?", 0},
	} {
		if got := weightOf(newQuery(c.question, Contact{}, x.facts).without(x.company, x.facts), "cipo"); got != c.weight {
			t.Errorf("%q: the name's word weighs %v, want %v", c.question, got, c.weight)
		}
	}
	// No entry names the shoe: the word is the company's, as before.
	bags := shoeRepair
	bags.FAQ = []QA{shoeRepair.FAQ[0], shoeRepair.FAQ[2]}
	x = NewIndex(bags)
	if got := weightOf(newQuery("Egy cipő mennyi idő alatt készül el?", Contact{}, x.facts).without(x.company, x.facts), "cipo"); got != 0 {
		t.Errorf("no entry names it: the name's word weighs %v, want it left out", got)
	}
}

// TestNameSynonymNamingAnEntryStays: a word the thesaurus gives as a synonym of the company's
// name word ("képviselet" of "Iroda") and that is the whole name of one of the entries asks
// about that entry (it was left out as the company's name: the price list came instead). A
// synonym that only stands in a longer entry name is still left out.
func TestNameSynonymNamingAnEntryStays(t *testing.T) {
	office := Profile{CompanyName: "Kovács Iroda", Description: "Ügyintézés és fordítás Szegeden.",
		Services: []Service{
			{Name: "Képviselet", Description: "Ügyintézés a hivatalokban meghatalmazással.", Price: "15 000 Ft"},
			{Name: "Hiteles fordítás", Description: "Angol és német nyelvről.", Price: "4 000 Ft / oldal"},
		},
		FAQ: []QA{
			{Question: "Mennyi idő alatt kész a fordítás?", Answer: "Két munkanap alatt."},
			{Question: "Hogyan fizethetek?", Answer: "Átutalással."},
		}}
	checkAnswers(t, office, []answerCase{
		{Hungarian, "Mennyibe kerül a képviselet?", "A Képviselet ára: 15 000 Ft.", false, ""},
		{Hungarian, "A képviseletet mennyiért vállaljátok?", "A Képviselet ára: 15 000 Ft.", false, ""},
	})
	x := NewIndex(office)
	if got := weightOf(newQuery("Mennyibe kerül a képviselet?", Contact{}, x.facts).without(x.company, x.facts), "kepvisel"); got != 1 {
		t.Errorf("the entry's whole name weighs %v, want 1", got)
	}
	longer := office
	longer.Services = []Service{{Name: "Képviselet hivatalban", Price: "15 000 Ft"}, office.Services[1]}
	x = NewIndex(longer)
	if got := weightOf(newQuery("Mennyibe kerül a képviselet?", Contact{}, x.facts).without(x.company, x.facts), "kepvisel"); got != 0 {
		t.Errorf("in a longer entry name: the synonym weighs %v, want it left out", got)
	}
}

// TestEnglishNameModifierTellsEntriesApart: an English word whose main senses give the first
// part of the company name's compound ("tub": "kád" of "Kádfelújító") where no entry uses the
// name's word itself stays, as a generic word, and tells the tub's FAQ from the shower tray's
// (it was left out as the company's name, and the first of the two equal FAQs answered).
func TestEnglishNameModifierTellsEntriesApart(t *testing.T) {
	p := Profile{CompanyName: "Fényes Kádfelújító", Description: "Kádak és zuhanytálcák felújítása Győrben.",
		Services: []Service{
			{Name: "Zománcozás", Description: "Fehér vagy színes zománc.", Price: "45 000 Ft"},
			{Name: "Fugázás", Description: "Penészes fugák cseréje.", Price: "12 000 Ft"},
		},
		FAQ: []QA{
			{Question: "Mennyi idő alatt szárad meg a zuhanytálca?", Answer: "Egy nap alatt."},
			{Question: "Mennyi idő alatt szárad meg a kád?", Answer: "Két nap alatt."},
			{Question: "Hogyan fizethetek?", Answer: "Készpénzzel."},
		}}
	checkAnswers(t, p, []answerCase{
		{English, "How long does a tub take to dry?", "Két nap alatt.", false, "Egy nap"},
		{English, "How long does a shower tray take to dry?", "Egy nap alatt.", false, ""},
	})
}

// weightOf is the weight of q's word that begins with prefix, 0 when there is none.
func weightOf(q query, prefix string) float64 {
	for _, qt := range q.terms {
		if strings.HasPrefix(qt.fold, prefix) {
			return qt.weight
		}
	}
	return 0
}
