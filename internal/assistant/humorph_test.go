package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// massage is a made-up massage studio whose entries name complaints by their action nouns.
var massage = Profile{CompanyName: "Nyugalom Masszázs Bt.",
	Description: "Masszázsszalon Szolnokon, hétköznap 9 és 19 óra között.",
	Services: []Service{
		{Name: "Frissítő masszázs", Description: "Fáradt izmokra, sportolóknak, 60 perc.", Price: "9 000 Ft"},
		{Name: "Gyógymasszázs", Description: "Gyógymasszőr végzi, nyak- és vállfájással küzdőknek, 50 perc.", Price: "11 000 Ft"},
		{Name: "Arcmasszázs", Description: "Bőrfeszesítő kezelés, 30 perc.", Price: "6 000 Ft"},
	}}

// TestVerbFindsItsActionNoun: a visitor's verb ("fáj", aches) is the idea of a profile's
// word whose last part is its action noun ("vállfájással", with shoulder pain: "fájás"), which
// the dictionary's rules derive from the verb; a verb of three letters is otherwise too short
// to be taken for a part.
func TestVerbFindsItsActionNoun(t *testing.T) {
	for _, c := range []struct{ question, want, not string }{
		{"Fáj a vállam, melyik masszázs segíthet?", "Gyógymasszázs", "Arcmasszázs"},
		{"Fáj a nyakam, mit ajánlotok?", "Gyógymasszázs", "Frissítő"},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: massage, Message: c.question})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, c.want) || strings.Contains(got.Text, c.not) {
			t.Errorf("%q: handover %v, %q; want %q", c.question, got.Handover, got.Text, c.want)
		}
	}
}

// boats is a made-up boat rental.
var boats = Profile{CompanyName: "Hullám Hajókölcsönző Kft.",
	Description: "Vitorlás- és motorcsónak-bérlés Balatonfüreden, áprilistól októberig.",
	FAQ: []QA{
		{Question: "Meddig ingyenes a lemondás?", Answer: "Az indulás előtt 48 óráig díjmentes, utána a bérleti díj felét számoljuk fel."},
		{Question: "Hogyan lehet foglalni?", Answer: "Online vagy telefonon, a díj 30%-ának előlegével."},
		{Question: "Mit kell hozni?", Answer: "Személyi igazolványt és kényelmes cipőt."},
	}}

// TestPrefixBeforeImpersonalAndPersonalInfinitive: a verbal prefix that "kell" (must) parts
// from an infinitive with a personal ending ("le kell mondanom", I must cancel) is read with
// it, as with a bare infinitive ("le tudom mondani"): "lemondanom" is the cancelling, not
// "mondanom" (for me to say); a conditional after the prefix ("el szeretném vinni") stays
// apart from it, and the prefix goes to the infinitive after it.
func TestPrefixBeforeImpersonalAndPersonalInfinitive(t *testing.T) {
	for message, want := range map[string][]string{
		"Le kell mondanom a foglalást, meddig ingyenes?": {"lemondanom", "foglalast", "meddig", "ingyenes"},
		"El kell vinnünk a csónakot?":                    {"elvinnunk", "csonakot"},
		"El szeretném vinni a csónakot.":                 {"szeretnem", "elvinni", "csonakot"},
	} {
		var got []string
		for _, qt := range newQuery(message, Contact{}, nil).terms {
			got = append(got, qt.fold)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: topic words %q, want %q", message, got, want)
		}
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: boats, Message: "Közbejött valami, le kell mondanom. Meddig lehet?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "48 óráig") {
		t.Errorf("handover %v, %q; want the cancelling answer", got.Handover, got.Text)
	}
}

// garden is a made-up gardening firm.
var garden = Profile{CompanyName: "Zöldág Kertgondozás Bt.",
	Description: "Kertgondozás Vácon és környékén.",
	Services: []Service{
		{Name: "Fűnyírás", Description: "Gyepszegéllyel együtt.", Price: "60 Ft / m²"},
		{Name: "Sövénynyírás", Description: "Két méter magasságig.", Price: "900 Ft / fm"},
	},
	FAQ: []QA{
		{Question: "Mi lesz a zöldhulladékkal?", Answer: "Fuvaronként 5 000 Ft-ért elszállítjuk."},
		{Question: "Hozzatok gépet?", Answer: "Minden gépet mi hozunk, áramot sem kérünk."},
		{Question: "Honnan lehet a szerszámokat átvenni?", Answer: "A váci telephelyünkről, előzetes egyeztetéssel elhozhatók."},
	}}

// TestPrefixedVerbOfTheProfile: a visitor's verb with a verbal prefix, generic without it
// ("hoz", bring), names a topic when the profile says it with the same prefix ("elhozni",
// fetch; "elhozhatók"); one the profile says only as a synonym ("elvinni", carry away;
// "elszállítjuk") or with another prefix ("behozni") stays generic. A profile's prefixed
// action noun that the dictionary knows whole ("elszállítás") is matched through its verb as
// its other forms are: "elvinni" is its synonym, "vinni" without the prefix is not. Where the
// profile says the prefixed verb, its bare verb in another entry ("mi hozunk", we bring) is
// another verb, and the entry with the prefix answers.
func TestPrefixedVerbOfTheProfile(t *testing.T) {
	x := NewIndex(garden)
	for _, c := range []struct {
		message string
		weight  float64
	}{
		{"El lehet hozni a szerszámokat?", 1},
		{"El tudjátok vinni utána?", 0.3},
		{"Be tudjátok hozni?", 0.3},
	} {
		q := newQuery(c.message, Contact{}, x.facts)
		i := slices.IndexFunc(q.terms, func(qt queryTerm) bool { return qt.pre > 0 })
		if i < 0 || q.terms[i].weight != c.weight {
			t.Errorf("%q: terms %v, want a prefixed verb of weight %v", c.message, q.terms, c.weight)
		}
	}
	k := makeTerm("elszállítás", false, true)
	for q, want := range map[string]float64{"elvinni": synonym, "vinni": 0} {
		qt := newTerm(q, false)
		if got := match(&qt, &k); got != want {
			t.Errorf("match(%q, elszállítás) = %v, want %v", q, got, want)
		}
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: garden, Message: "El lehet hozni őket?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "elhozhatók") || strings.Contains(got.Text, "mi hozunk") {
		t.Errorf("handover %v, %q; want where the tools are fetched", got.Handover, got.Text)
	}
}

// TestPrefixAfterItsVerb: a verbal prefix that ends its clause after its verb, as a question
// word or a negation puts it ("Hogyan mondhatom le?", how can I cancel; "Mikor jöttök ki?"), is
// read with the verb, not dropped; a verb with a prefix of its own keeps it ("lemondhatom
// még?": "még", still, folds to the prefix "meg").
func TestPrefixAfterItsVerb(t *testing.T) {
	for message, want := range map[string][]string{
		"Hogyan mondhatom le?":        {"lemondhatom"},
		"Mikor jöttök ki?":            {"kijottok"},
		"Nem viszitek el a csónakot?": {"viszitek", "csonakot"},
		"Lemondhatom még?":            {"lemondhatom"},
	} {
		var got []string
		for _, qt := range newQuery(message, Contact{}, nil).terms {
			got = append(got, qt.fold)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: topic words %q, want %q", message, got, want)
		}
	}
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: boats, Message: "Hogyan mondhatom le?"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Handover || !strings.Contains(got.Text, "48 óráig") {
		t.Errorf("handover %v, %q; want the cancelling answer", got.Handover, got.Text)
	}
}
