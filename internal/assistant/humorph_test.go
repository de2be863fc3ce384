package assistant

import (
	"context"
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
