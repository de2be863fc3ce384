package contact

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"
)

// labelled is one line of testdata/messages.jsonl.
type labelled struct {
	Text      string `json:"text"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Email     string `json:"email"`
	PhoneE164 string `json:"phone_e164"`
	// Lang is the conversation's language, "hu" when absent.
	Lang string `json:"lang,omitempty"`
	// Correction is set when the message corrects a detail given before.
	Correction bool `json:"correction,omitempty"`
}

// score counts one field's outcomes. A wrong value is both a false positive and a miss.
type score struct{ tp, fp, fn int }

func (s *score) add(got, want string) {
	switch {
	case got != "" && got == want:
		s.tp++
	case got != "":
		s.fp++
		if want != "" {
			s.fn++
		}
	case want != "":
		s.fn++
	}
}

func (s score) precision() float64 { return ratio(s.tp, s.tp+s.fp) }
func (s score) recall() float64    { return ratio(s.tp, s.tp+s.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func readMessages(t *testing.T) []labelled {
	t.Helper()
	f, err := os.Open("testdata/messages.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var msgs []labelled
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var m labelled
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("messages.jsonl:%d: %v", line, err)
		}
		msgs = append(msgs, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return msgs
}

// TestExtractDataset measures Extract on the labelled messages. Run with -v to see the
// figures per field; the one-line summary is printed in any case.
func TestExtractDataset(t *testing.T) {
	msgs := readMessages(t)
	if len(msgs) < 500 {
		t.Fatalf("data set has %d messages, want at least 500", len(msgs))
	}
	fields := []string{"email", "phone", "first name", "last name", "correction"}
	scores := make(map[string]*score)
	for _, f := range fields {
		scores[f] = &score{}
	}
	for _, m := range msgs {
		if e, err := NormalizeEmail(m.Email); m.Email != "" && (err != nil || e != m.Email) {
			t.Errorf("label email %q is not normalised in %q", m.Email, m.Text)
		}
		if m.PhoneE164 != "" && toE164(m.PhoneE164) != m.PhoneE164 {
			t.Errorf("label phone %q is not a valid E.164 number in %q", m.PhoneE164, m.Text)
		}
		lang := m.Lang
		if lang == "" {
			lang = "hu"
		}
		got := ExtractIn(m.Text, lang)
		yes := func(b bool) string {
			if b {
				return "yes"
			}
			return ""
		}
		pairs := map[string][2]string{
			"email":      {got.Email, m.Email},
			"phone":      {got.PhoneE164, m.PhoneE164},
			"first name": {got.FirstName, m.FirstName},
			"last name":  {got.LastName, m.LastName},
			"correction": {yes(got.Correction), yes(m.Correction)},
		}
		for _, f := range fields {
			p := pairs[f]
			scores[f].add(p[0], p[1])
			if p[0] != p[1] {
				t.Logf("%s: got %q, want %q in %q", f, p[0], p[1], m.Text)
			}
		}
	}
	var all score
	for _, f := range fields {
		s := scores[f]
		t.Logf("%-10s precision %.3f recall %.3f (tp %d, fp %d, fn %d)", f, s.precision(), s.recall(), s.tp, s.fp, s.fn)
		all.tp, all.fp, all.fn = all.tp+s.tp, all.fp+s.fp, all.fn+s.fn
	}
	var b strings.Builder
	fmt.Fprintf(&b, "contact.Extract on %d messages: overall precision %.3f recall %.3f", len(msgs), all.precision(), all.recall())
	for _, f := range fields {
		fmt.Fprintf(&b, "; %s P %.3f R %.3f", f, scores[f].precision(), scores[f].recall())
	}
	fmt.Println(b.String())
	if all.precision() < 0.99 || all.recall() < 0.99 {
		t.Errorf("overall precision %.3f, recall %.3f; want both at least 0.99", all.precision(), all.recall())
	}
}

// TestExtractExamples pins the shapes the chat endpoint relies on.
func TestExtractExamples(t *testing.T) {
	cases := []struct {
		name string
		text string
		want Found
	}{
		{"hungarian full name", "Kovács Péter vagyok", Found{FirstName: "Péter", LastName: "Kovács"}},
		{"accented names", "Szia, Őrsi Ádám vagyok", Found{FirstName: "Ádám", LastName: "Őrsi"}},
		{"accented family name", "Űrös Éva vagyok", Found{FirstName: "Éva", LastName: "Űrös"}},
		{"given name only", "Ágnes vagyok", Found{FirstName: "Ágnes"}},
		{"dative", "Szőke Ágnesnek hívnak", Found{FirstName: "Ágnes", LastName: "Szőke"}},
		{"label", "Nevem: Nagy Anna", Found{FirstName: "Anna", LastName: "Nagy"}},
		{"english", "My name is John Smith", Found{FirstName: "John", LastName: "Smith"}},
		{"english short", "I'm John", Found{FirstName: "John"}},
		{"this is", "this is Mark from Acme", Found{FirstName: "Mark"}},
		{"three words", "Farkasné Kiss Judit vagyok", Found{FirstName: "Judit", LastName: "Farkasné Kiss"}},
		{"two given names", "Nagy Anna Mária vagyok", Found{FirstName: "Anna Mária", LastName: "Nagy"}},
		{"married name alone", "Jó napot, Szabóné vagyok", Found{LastName: "Szabóné"}},
		{"title", "I'm Dr. Patel", Found{LastName: "Patel"}},
		{"title after this is", "This is Dr. Emma Stone from Acme", Found{FirstName: "Emma", LastName: "Stone"}},
		{"title in signature", "Thanks for the offer.\nBest regards,\nDr. John Smith", Found{FirstName: "John", LastName: "Smith"}},
		{"given name first in hungarian", "Ágnes Szőke vagyok", Found{FirstName: "Ágnes", LastName: "Szőke"}},
		{"bare name", "Őrsi Ádám, +36 30 123 4567", Found{FirstName: "Ádám", LastName: "Őrsi", Phone: "+36 30 123 4567", PhoneE164: "+36301234567"}},
		{"signature", "Van még hely? Köszi, Dorina", Found{FirstName: "Dorina"}},
		{"adjective", "Kíváncsi vagyok", Found{}},
		{"possessive", "I'm Anna's mother", Found{}},
		{"greeting someone", "Szia, Péter!", Found{}},
		{"thanking someone", "Köszönöm, Anna!", Found{}},
		{"street", "Kossuth Lajos utca 5.", Found{}},
		{"place", "Budapesten vagyok", Found{}},
		{"demonym", "I'm Hungarian", Found{}},
		{"lower case", "péter vagyok", Found{}},
		{"email trailing dot", "írj: anna@example.hu.", Found{Email: "anna@example.hu"}},
		{"email in parentheses", "(bob@x.io)!", Found{Email: "bob@x.io"}},
		{"phone as typed", "hívj: 06-30/123-4567!", Found{Phone: "06-30/123-4567", PhoneE164: "+36301234567"}},
		{"phone in parentheses", "(+36 30 123 4567)", Found{Phone: "+36 30 123 4567", PhoneE164: "+36301234567"}},
		{"budapest", "(06 1) 234 5678", Found{Phone: "(06 1) 234 5678", PhoneE164: "+3612345678"}},
		{"date", "2024-05-12", Found{}},
		{"dotted date", "2024.05.12.", Found{}},
		{"price", "150 000 Ft", Found{}},
		{"price in words", "1 500 000 forint", Found{}},
		{"zip code", "1117 Budapest", Found{}},
		{"order number", "Rendelésszám: 301234567", Found{}},
		{"amount range", "200 000 - 300 000 Ft", Found{}},
		{"year and time", "2024-ben, 10:30-kor", Found{}},
		{"mobile without prefix", "mobil: 30 123 4567", Found{Phone: "30 123 4567", PhoneE164: "+36301234567"}},
		{"two numbers", "06 30 123 4567 / 06 1 234 5678", Found{Phone: "06 30 123 4567", PhoneE164: "+36301234567"}},
		{"email with hungarian suffix", "írj a peti@gmail.com-ra", Found{Email: "peti@gmail.com"}},
		{"email domain lower-cased", "JOHN@GMAIL.COM", Found{Email: "JOHN@gmail.com"}},
		{"correction", "bocs, elírtam: anna@example.hu", Found{Email: "anna@example.hu", Correction: true}},
		{"no correction without a detail", "bocs, elírtam a kérdést", Found{}},
		{"tax number", "Adószám: 12345678-2-43", Found{}},
		{"company registration number", "01-09-123456", Found{}},
		{"bank account", "11773016-11111111-00000000", Found{}},
		{"identifier word before a 06 number", "Reference: 06-30-1234567", Found{}},
		{"identifier word before part of a run", "Az ügyszám 36 20 123 4567", Found{}},
		{"british number in a hungarian conversation", "07911 123456", Found{}},
		{"unknown given name after a family name", "Kovács Zsófiána vagyok", Found{FirstName: "Zsófiána", LastName: "Kovács"}},
		{"family name decides the order", "I'm Kovács Zsófiána", Found{FirstName: "Zsófiána", LastName: "Kovács"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Extract(c.text); got != c.want {
				t.Errorf("Extract(%q) = %+v, want %+v", c.text, got, c.want)
			}
		})
	}
}

// TestExtractInLanguage pins the national numbers a conversation's language lets in.
func TestExtractInLanguage(t *testing.T) {
	cases := []struct{ text, lang, want string }{
		{"call me on 07911 123456", "en", "+447911123456"},
		{"(415) 555-2671", "en", "+14155552671"},
		{"085 123 4567", "en", "+353851234567"},
		{"0170 1234567", "de", "+491701234567"},
		{"06 30 123 4567", "en", "+36301234567"},
		{"(415) 555-2671", "hu", ""},
		{"order 07911 123456", "en", ""},
	}
	for _, c := range cases {
		if got := ExtractIn(c.text, c.lang).PhoneE164; got != c.want {
			t.Errorf("ExtractIn(%q, %q).PhoneE164 = %q, want %q", c.text, c.lang, got, c.want)
		}
	}
}

// FuzzExtract checks that Extract never panics, stays fast, and returns only details that
// the normalisers accept.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"Kovács Péter vagyok, 06 30 123 4567, kovacs.peter@gmail.com",
		"I'm John Smith, +1 (415) 555-2671, john@example.com.",
		"2024.05.12. 06 30 123 4567 / 06 1 234 5678, 150 000 Ft",
		"Nevem: Őrsi Ágnes\nTel: (06 1) 234 5678",
		"a@b@c.hu ((((+36 ...---/// 0000000000000000000",
		"\xff\xfe Ádám vagyok \x00",
		"Kovács\u202e Anna vagyok, \u202a+36 30 123 4567\u202c, anna\u200e@example.hu",
		"Nagy\u200fBéla\u0085 vagyok, 06\u206630\u2069 123 4567\x1b[2J",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			text = text[:2000]
		}
		got := Extract(text)
		if got.Email != "" {
			if e, err := NormalizeEmail(got.Email); err != nil || e != got.Email {
				t.Errorf("Extract(%q).Email = %q, NormalizeEmail gives %q, %v", text, got.Email, e, err)
			}
		}
		if got.PhoneE164 != "" && !strings.HasPrefix(got.PhoneE164, "+") {
			t.Errorf("Extract(%q).PhoneE164 = %q, want a leading +", text, got.PhoneE164)
		}
		if (got.Phone == "") != (got.PhoneE164 == "") {
			t.Errorf("Extract(%q) = Phone %q, PhoneE164 %q; want both or neither", text, got.Phone, got.PhoneE164)
		}
		if got.Phone != "" && !strings.Contains(text, got.Phone) {
			t.Errorf("Extract(%q).Phone = %q, not in the text", text, got.Phone)
		}
		// Found details become a chat lead's one-line fields, which hold no control or format
		// character (bidirectional controls included), whatever the free text around them held.
		for _, v := range []string{got.FirstName, got.LastName, got.Email, got.Phone, got.PhoneE164} {
			if i := strings.IndexFunc(v, func(r rune) bool { return !unicode.IsGraphic(r) }); i >= 0 {
				t.Errorf("Extract(%q) found %q, which holds %U", text, v, []rune(v[i:])[0])
			}
		}
	})
}

// typical is a 200-character chat message with every kind of detail.
const typical = "Jó napot! Kovács Péter vagyok a Napfény Kft.-től, 2024.06.15-re keresnénk " +
	"fotóst, a keret kb. 200 000 Ft. Hívjon a 06 30 123 4567 számon, vagy írjon: kovacs.peter@napfeny.hu"

func BenchmarkExtract(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Extract(typical)
	}
}

// BenchmarkExtractLong runs Extract on a 2,000-character message, the longest the chat takes,
// built to make every finder work: many numbers, dates, amounts and capitalised words.
func BenchmarkExtractLong(b *testing.B) {
	text := longMessage()
	b.ReportAllocs()
	for b.Loop() {
		Extract(text)
	}
}

func longMessage() string {
	var sb strings.Builder
	parts := []string{"Kíváncsi vagyok ", "2024.05.12. ", "150 000 Ft ", "+36 30 ", "1234 ", "Nagy Budapest ", "x@y ", "(06 1) ", "I'm Hungarian ", "123456789 "}
	for i := 0; sb.Len() < 2000; i++ {
		sb.WriteString(parts[i%len(parts)])
	}
	return sb.String()[:2000]
}
