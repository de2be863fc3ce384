package assistant

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBuiltinBadInput answers what a careless profile or visitor may send: each reply is
// non-empty, short, and either an answer or a hand-over; nothing panics.
func TestBuiltinBadInput(t *testing.T) {
	big := Profile{CompanyName: "Nagy Kft.", OpeningHours: "Hétfőtől péntekig 8–16 óráig.", Address: "1011 Budapest, Fő utca 1."}
	for i := range 250 {
		big.Services = append(big.Services, Service{Name: fmt.Sprintf("Szolgáltatás %d", i),
			Description: fmt.Sprintf("A %d. szolgáltatásunk leírása, cserével és beállítással.", i), Price: fmt.Sprintf("%d 000 Ft", i+1)})
		big.FAQ = append(big.FAQ, QA{Question: fmt.Sprintf("Kérdés a(z) %d. témáról?", i), Answer: fmt.Sprintf("Válasz a(z) %d. témára.", i)})
	}
	long := strings.Repeat("Mikor vagytok nyitva szombaton? ", 70)[:2000]
	for _, tc := range []struct {
		name    string
		profile Profile
		message string
		// handover: the reply must hand over; otherwise it must not.
		handover bool
		want     string
	}{
		{"empty profile", Profile{}, "Mennyibe kerül a csere?", true, ""},
		{"empty profile, a price", Profile{}, "How much is it?", true, ""},
		{"empty profile, greeting", Profile{}, "Szia!", false, "Jó napot"},
		{"500 entries, a covered question", big, "Mennyibe kerül a 17. szolgáltatás?", false, ""},
		{"500 entries, hours", big, "Mikor vagytok nyitva?", false, "8–16"},
		{"500 entries, not covered", big, "Vállaltok tetőjavítást?", true, ""},
		{"2,000-character question", big, long, false, "8–16"},
		{"emoji only", big, "😀😀🙏", false, ""},
		{"emoji only, empty profile", Profile{}, "👍", false, ""},
		{"punctuation only", big, "?!?", false, ""},
		{"invalid UTF-8", big, "Mennyi\xff\xfe?", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, lang := range []Language{Hungarian, English} {
				turn := Turn{Language: lang, Profile: tc.profile, Message: tc.message, Missing: []string{"name", "email"}}
				a, err := Builtin{}.Answer(context.Background(), turn)
				if err != nil {
					t.Fatal(err)
				}
				if strings.TrimSpace(a.Text) == "" || utf8.RuneCountInString(a.Text) > maxReply {
					t.Errorf("%s: reply of %d characters: %q", lang, utf8.RuneCountInString(a.Text), a.Text)
				}
				if a.Handover != tc.handover {
					t.Errorf("%s: handover %v, want %v: %s", lang, a.Handover, tc.handover, a.Text)
				}
				if lang == Hungarian && tc.want != "" && !strings.Contains(a.Text, tc.want) {
					t.Errorf("reply %q lacks %q", a.Text, tc.want)
				}
			}
		})
	}
}
