package assistant

import (
	"context"
	"strings"
	"testing"
)

// TestEnglishReplyReadsEnglish: an English reply's own words are English; the company's
// Hungarian quick buttons and contact prompt stay out of it; a profile entry's English version
// is used where given, and the Hungarian text is quoted and marked where not.
func TestEnglishReplyReadsEnglish(t *testing.T) {
	p := Profile{
		CompanyName:    "Tincs Fodrászszalon",
		OpeningHours:   "Kedd–péntek 9–20, szombat 8–14; vasárnap és hétfőn zárva.",
		OpeningHoursEN: "Tuesday to Friday 9 am – 8 pm, Saturday 8 am – 2 pm; closed on Sunday and Monday.",
		Services: []Service{
			{Name: "Férfi hajvágás", NameEN: "Men's haircut", Description: "Géppel vagy ollóval, kb. 30 perc.", Price: "5 500 Ft"},
			{Name: "Balayage", Description: "Kézzel festett, természetes hatású világosítás.", Price: "32 000 Ft-tól"},
		},
		FAQ: []QA{
			{Question: "Van parkolás a szalon közelében?", Answer: "A Bartók Béla úton fizetős parkolás van.",
				QuestionEN: "Is there parking near the salon?", AnswerEN: "There is paid street parking on Bartók Béla út."},
			{Question: "Lehet kártyával fizetni?", Answer: "Igen, bankkártyával és SZÉP-kártyával is fizethet."},
		},
	}
	for _, tc := range []struct {
		message   string
		want, not []string
	}{
		{"Hello!", []string{"Hello! I am the virtual assistant of Tincs Fodrászszalon."}, []string{"Árak", "Nyitvatartás"}},
		{"Is there parking nearby?", []string{"There is paid street parking"}, []string{"fizetős", "Kérjük"}},
		{"Can I pay by card?", []string{"„Igen, bankkártyával és SZÉP-kártyával is fizethet.” (in Hungarian)"}, []string{"Kérjük"}},
		{"When are you open on Saturday?", []string{"Our opening hours: Tuesday to Friday"}, []string{"szombat 8–14"}},
		{"How much is a men's haircut?", []string{"Price of Men's haircut: 5 500 Ft"}, []string{"Férfi hajvágás"}},
		{"Do you do balayage?", []string{"Balayage: „Kézzel festett, természetes hatású világosítás.” (in Hungarian)"}, nil},
		{"Do you do nails?", []string{"I'm afraid I can't answer that", "your name and your email address"}, []string{"Kérjük"}},
	} {
		turn := Turn{Language: English, Profile: p, Message: tc.message, QuickButtons: []string{"Árak", "Nyitvatartás"},
			ContactPrompt: "Kérjük, adja meg elérhetőségét, és visszahívjuk!", RequestContact: true, Missing: []string{"name", "email"}}
		a, err := Builtin{}.Answer(context.Background(), turn)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(a.Text, w) {
				t.Errorf("%q: reply lacks %q: %s", tc.message, w, a.Text)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(a.Text, n) {
				t.Errorf("%q: reply holds %q: %s", tc.message, n, a.Text)
			}
		}
	}
}
