package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestFoldedFunctionWordNamedByTheProfile: a word typed without accents whose accented
// spelling is a function word ("netan" of "netán", perhaps) is a function word, as visitors
// who type without accents mean it, unless the profile's services name something so ("Netan
// masszázs", a made-up style): then the profile's texts and the question keep it as a word of
// content. Written with the function word's accents it is the function word in any profile.
func TestFoldedFunctionWordNamedByTheProfile(t *testing.T) {
	named := Profile{CompanyName: "Nyugalom Szalon",
		Description: "Masszázs és pihenés Győrben.",
		Services: []Service{
			{Name: "Masszázs", Description: "Klasszikus frissítő kezelés, 60 perc.", Price: "8 000 Ft"},
			{Name: "Netan masszázs", Description: "Lassú, meleg olajos kezelés, 60 perc.", Price: "9 000 Ft"},
		},
		FAQ: []QA{{Question: "Van parkoló?", Answer: "Az udvarban ingyenes parkoló van."}}}
	plain := named
	plain.Services = named.Services[:1]
	for _, c := range []struct {
		name     string
		p        Profile
		question string
		kept     bool
	}{
		{"named, typed without accents", named, "Mennyibe kerül a netan masszázs?", true},
		{"named, English", named, "How much is a netan massage?", true},
		{"named, written with the accents", named, "Netán van parkoló?", false},
		{"not named, typed without accents", plain, "netan van parkolo?", false},
	} {
		x := NewIndex(c.p)
		q := newQuery(c.question, Contact{}, x.facts)
		got := slices.ContainsFunc(q.terms, func(qt queryTerm) bool { return qt.fold == "netan" })
		if got != c.kept {
			t.Errorf("%s: %q keeps \"netan\" %v, want %v", c.name, c.question, got, c.kept)
		}
	}
	for _, message := range []string{"Mennyibe kerül a netan masszázs?", "How much is a netan massage?"} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Profile: named, Message: message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover || !strings.Contains(got.Text, "9 000 Ft") || strings.Contains(got.Text, "8 000 Ft") {
			t.Errorf("%q: handover %v, %q; want the named service's price alone", message, got.Handover, got.Text)
		}
	}
}

// TestEnglishNameWordRanksTheTrade: an English word that reaches a word of the company's name
// ("painting" of a "Festés" firm) is not dropped as the company when the profile's entries use
// that word ("Lakásfestés"): it stays as the name's word, which tells the entries of the
// company's trade from the others ("Lakásfelújítás"), but names no topic of its own, so a
// question whose other words no entry has is still handed over.
func TestEnglishNameWordRanksTheTrade(t *testing.T) {
	p := Profile{CompanyName: "Színes Festés Kft.",
		Description: "Lakások és irodák szépítése Szolnokon.",
		Services: []Service{
			{Name: "Lakásfelújítás", Description: "Burkolás, gipszkartonozás és villanyszerelés egy kézből.", Price: "40 000 Ft / m²"},
			{Name: "Lakásfestés", Description: "Glettelés és két réteg festék, bútormozgatással.", Price: "1 500 Ft / m²"},
		}}
	for _, c := range []struct {
		message  string
		want     string
		handover bool
	}{
		{"How much is apartment painting?", "1 500 Ft", false},
		{"Do you do boat painting?", "", true},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p, Message: c.message})
		if err != nil {
			t.Fatal(err)
		}
		if got.Handover != c.handover || !strings.Contains(got.Text, c.want) || strings.Contains(got.Text, "40 000 Ft") {
			t.Errorf("%q: handover %v, %q; want handover %v and %q alone", c.message, got.Handover, got.Text, c.handover, c.want)
		}
	}
}
