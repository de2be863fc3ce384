package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestPhraseNamesTheEntry: an English question's two neighbouring words that an entry's text
// says as one phrase ("electric bikes", "elektromos kerékpárra"), one of them in the entry's
// name, name that entry, though the description holds the same words apart and a verb of the
// question ("teach") besides: the entry answers. When the entry holds the words apart too,
// the evidence stays split and a colleague answers.
func TestPhraseNamesTheEntry(t *testing.T) {
	p := func(text string) Profile {
		return Profile{CompanyName: "Próba Kft.",
			Description: "Kerékpáriskola Győrben. Türelmes oktatók, városi kerékpárok, hagyományos és elektromos hajtással.",
			Services: []Service{
				{Name: "Elektromos képzés", Description: text, Price: "29 000 Ft"},
				{Name: "Gyerek képzés", Description: "Hat éves kortól, saját kerékpárral.", Price: "19 000 Ft"},
			}}
	}
	for _, c := range []struct {
		text     string
		handover bool
	}{
		{"Négy alkalom; a tanúsítvány csak elektromos kerékpárra érvényes.", false},
		{"Négy alkalom elektromos hajtással; a tanúsítvány minden kerékpárra érvényes.", true},
	} {
		got, err := Builtin{}.Answer(context.Background(), Turn{Language: English, Profile: p(c.text), Message: "Do you teach on electric bikes?"})
		if err != nil {
			t.Fatal(err)
		}
		if c.handover {
			if !got.Handover {
				t.Errorf("%q: %q; want a hand-over", c.text, got.Text)
			}
			continue
		}
		if got.Handover || !strings.Contains(got.Text, "csak elektromos kerékpárra") {
			t.Errorf("%q: handover %v, %q; want the electric course", c.text, got.Handover, got.Text)
		}
	}
}

// TestPhraseOfOneCompound: two neighbouring English words are one phrase of a fact when each
// matches as its idea one compound of it ("pet passport", "kisállatútlevél"), or a word and the
// word after it; not when one of them only begins as a word of the fact ("automatic" as
// "autóbusz"), nor when the fact holds them in different clauses.
func TestPhraseOfOneCompound(t *testing.T) {
	for _, c := range []struct {
		name, text, question string
		want                 bool
	}{
		{"Kisállatútlevél", "Kiadás egy nap alatt.", "Can I get a pet passport?", true},
		{"Útlevél", "Kiadás egy nap alatt, kisállatnak is.", "Can I get a pet passport?", false},
		{"Automata autó bérlése", "Napi díj.", "Do you rent automatic cars?", true},
		{"Autóbusz bérlése", "Automata váltóval is.", "Do you rent automatic cars?", false},
		{"Autó bérlése", "Automata. Csak hétköznap.", "Do you rent automatic cars?", false},
	} {
		x := NewIndex(Profile{CompanyName: "Próba Kft.", Services: []Service{{Name: c.name, Description: c.text}}})
		q := newQuery(c.question, Contact{}, x.facts).without(x.company, x.facts)
		ss := score(x, q)
		if got := ss[0].phrase != 0; got != c.want {
			t.Errorf("%q / %q: phrase %v, want %v", c.question, c.name+": "+c.text, got, c.want)
		}
	}
}
