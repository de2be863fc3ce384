package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestPlaceAskedOfArea: a question whether the company works at a place the profile never
// names ("Tapolcán is dolgoztok?", "Ajkára is kijöttök?", "Do you work in Tapolca?"), by a name
// in a case of where and words of working or coming only, or around the place it names as its
// own ("villages outside Veszprém"), or after a clause that says where the visitor is from
// ("Tapolcai cég vagyunk, …"), is answered by the one entry that
// says where the company works, and the visitor judges; never by the address. It is handed
// over when no entry or two entries say an area, and when the word is no name: a time
// ("Hétvégén"), or a compound of everyday words written first in the message ("Tetőtérben").
func TestPlaceAskedOfArea(t *testing.T) {
	p := Profile{CompanyName: "Hangvilla Zongoraszerviz Bt.",
		Description: "Zongorák hangolása és javítása, 2010 óta.",
		Address:     "8200 Veszprém, Fő utca 3.",
		Services:    []Service{{Name: "Hangolás", Description: "Pianínó és versenyzongora hangolása.", Price: "18 000 Ft"}},
		FAQ: []QA{{Question: "Meddig mentek el?", Answer: "Veszprémben és 25 km-es körzetében, azon túl kilométerdíjjal."},
			{Question: "Mennyi ideig tart egy hangolás?", Answer: "Körülbelül másfél óra."}}}
	two := p
	two.FAQ = append(append([]QA(nil), p.FAQ...), QA{Question: "Vidékre is eljöttök?", Answer: "Nagyobb munkára az egész megyében."})
	none := p
	none.FAQ = p.FAQ[1:]
	checkAnswers(t, p, []answerCase{
		{Hungarian, "Tapolcán is dolgoztok?", "25 km-es körzetében", false, "Fő utca"},
		{Hungarian, "Vállaltok munkát Zircen?", "25 km-es körzetében", false, "Fő utca"},
		{Hungarian, "Ajkára is kijöttök?", "25 km-es körzetében", false, "Fő utca"},
		{Hungarian, "Do you work in Tapolca?", "25 km-es körzetében", false, "Fő utca"},
		{Hungarian, "Do you come to villages outside Veszprém?", "25 km-es körzetében", false, "Fő utca"},
		{Hungarian, "Tapolcai cég vagyunk, velünk is dolgoztok?", "25 km-es körzetében", false, "Fő utca"},
		{Hungarian, "Tapolcai ügyfelekkel is dolgoztok?", "", true, "Fő utca"},
		{Hungarian, "Tetőtérben is dolgoztok?", "", true, "Fő utca"},
	})
	checkAnswers(t, two, []answerCase{{Hungarian, "Tapolcán is dolgoztok?", "", true, "Fő utca"}})
	checkAnswers(t, none, []answerCase{{Hungarian, "Tapolcán is dolgoztok?", "", true, "Fő utca"}})
	got, err := Builtin{}.Answer(context.Background(), Turn{Language: Hungarian, Profile: p, Message: "Hétvégén is dolgoztok?"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Text, "körzetében") {
		t.Errorf("%q: %q; a time is no place", "Hétvégén is dolgoztok?", got.Text)
	}
}
