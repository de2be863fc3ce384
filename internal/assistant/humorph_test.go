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
