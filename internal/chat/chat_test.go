package chat

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
)

func TestMerge(t *testing.T) {
	known := Contact{FirstName: "Péter", LastName: "Kovács", Email: "p@example.hu"}
	tests := []struct {
		name            string
		cur, form, text Contact
		correction      bool
		next, captured  Contact
	}{
		{"text fills a gap", Contact{}, Contact{}, Contact{Email: "a@example.hu"}, false,
			Contact{Email: "a@example.hu"}, Contact{Email: "a@example.hu"}},
		{"text never overwrites", known, Contact{}, Contact{Email: "other@example.hu", FirstName: "Béla"}, false,
			known, Contact{}},
		{"a correction in text overwrites", known, Contact{}, Contact{Email: "other@example.hu"}, true,
			Contact{FirstName: "Péter", LastName: "Kovács", Email: "other@example.hu"}, Contact{Email: "other@example.hu"}},
		{"a corrected name in text overwrites", known, Contact{}, Contact{FirstName: "Petra", LastName: "Kovács"}, true,
			Contact{FirstName: "Petra", LastName: "Kovács", Email: "p@example.hu"}, Contact{FirstName: "Petra", LastName: "Kovács"}},
		{"a corrected phone in text overwrites", Contact{Phone: "06 30 123 4567", PhoneE164: "+36301234567"}, Contact{},
			Contact{Phone: "06 30 123 4568", PhoneE164: "+36301234568"}, true,
			Contact{Phone: "06 30 123 4568", PhoneE164: "+36301234568"}, Contact{Phone: "06 30 123 4568", PhoneE164: "+36301234568"}},
		{"the form overwrites", known, Contact{Email: "new@example.hu"}, Contact{}, false,
			Contact{FirstName: "Péter", LastName: "Kovács", Email: "new@example.hu"}, Contact{Email: "new@example.hu"}},
		{"the form wins over the text of the same message", Contact{}, Contact{Email: "form@example.hu"}, Contact{Email: "text@example.hu"}, true,
			Contact{Email: "form@example.hu"}, Contact{Email: "form@example.hu"}},
		{"the form's name, split", known, Contact{FirstName: "Anna", LastName: "Nagy"}, Contact{}, false,
			Contact{FirstName: "Anna", LastName: "Nagy", Email: "p@example.hu"}, Contact{FirstName: "Anna", LastName: "Nagy"}},
		{"the same name again is no change", known, Contact{FirstName: "Péter", LastName: "Kovács"}, Contact{}, false,
			known, Contact{}},
		{"a phone with its E.164 form", Contact{}, Contact{}, Contact{Phone: "06 30 123 4567", PhoneE164: "+36301234567"}, false,
			Contact{Phone: "06 30 123 4567", PhoneE164: "+36301234567"}, Contact{Phone: "06 30 123 4567", PhoneE164: "+36301234567"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, captured := merge(tt.cur, tt.form, tt.text, tt.correction)
			if diff := cmp.Diff(tt.next, next); diff != "" {
				t.Errorf("next (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.captured, captured); diff != "" {
				t.Errorf("captured (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompleteAndMissing(t *testing.T) {
	c := Contact{FirstName: "Anna", Email: "a@example.hu"}
	if !c.Complete(false) || c.Complete(true) {
		t.Errorf("name+email: Complete(false)=%v Complete(true)=%v", c.Complete(false), c.Complete(true))
	}
	if got := c.Missing(true); len(got) != 1 || got[0] != "phone" {
		t.Errorf("Missing(true) = %v, want [phone]", got)
	}
	if got := (Contact{}).Missing(false); len(got) != 2 {
		t.Errorf("Missing of nothing = %v, want name and email", got)
	}
}

func TestLeadWrite(t *testing.T) {
	id := uuid.New()
	with := func(c Contact) Session {
		return Session{Contact: c, ReferralData: map[string]string{"utm_source": "x"}}
	}
	t.Run("no lead without an email or phone", func(t *testing.T) {
		if l, ch := leadWrite(Session{}, with(Contact{FirstName: "Anna"}), Contact{}, Contact{}); l != nil || ch != nil {
			t.Errorf("lead %+v, changes %+v", l, ch)
		}
	})
	t.Run("a chat lead once an email is known", func(t *testing.T) {
		l, _ := leadWrite(Session{}, with(Contact{Email: "a@example.hu"}), Contact{}, Contact{})
		if l == nil || l.Source != "chat" || l.Email != "a@example.hu" || l.ReferralData["utm_source"] != "x" {
			t.Errorf("lead = %+v", l)
		}
	})
	t.Run("no change, nothing to write", func(t *testing.T) {
		cur := Session{LeadID: &id, Contact: Contact{Email: "a@example.hu"}}
		if l, ch := leadWrite(cur, cur, Contact{}, Contact{}); l != nil || len(ch) != 0 {
			t.Errorf("lead %+v, changes %+v", l, ch)
		}
	})
	t.Run("each change with its origin", func(t *testing.T) {
		cur := Session{LeadID: &id, Contact: Contact{FirstName: "Anna", LastName: "Kiss", Email: "a@example.hu"}}
		next := with(Contact{FirstName: "Nagy Anna", Email: "b@example.hu", Phone: "06301234567", PhoneE164: "+36301234567"})
		l, ch := leadWrite(cur, next, Contact{FirstName: "Nagy Anna"}, Contact{Phone: "06301234567"})
		want := []lead.Change{
			{Field: lead.FieldFirstName, Value: "Nagy Anna", Origin: lead.OriginForm},
			{Field: lead.FieldLastName, Value: "", Origin: lead.OriginForm},
			{Field: lead.FieldEmail, Value: "b@example.hu", Origin: lead.OriginText},
			{Field: lead.FieldPhone, Value: "06301234567", Origin: lead.OriginModel},
		}
		if l != nil {
			t.Errorf("an update created a lead: %+v", l)
		}
		if diff := cmp.Diff(want, ch); diff != "" {
			t.Errorf("changes (-want +got):\n%s", diff)
		}
	})
}

func TestVerifiedProposals(t *testing.T) {
	visitor := []string{"Szia, Kiss Béla vagyok", "a számom 06 30 123 4567"}
	got := verified(assistant.Contact{Name: "Kiss Béla", Email: "bela@example.hu", Phone: "+36 30 123 4567"}, visitor)
	want := Contact{FirstName: "Kiss Béla", Phone: "+36 30 123 4567", PhoneE164: "+36301234567"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verified (-want +got):\n%s\n(the email was never written by the visitor)", diff)
	}
	if got := verified(assistant.Contact{Phone: "+36 30 999 9999"}, visitor); got != (Contact{}) {
		t.Errorf("a phone the visitor never wrote was accepted: %+v", got)
	}
}

// A chat lead's note is a summary with labels in the conversation's language: what the
// visitor wants and asked, the questions still open; never their messages with the contact
// details cut out.
func TestSummaryNote(t *testing.T) {
	anna := Contact{FirstName: "Anna", LastName: "Kiss", Email: "anna@example.hu", Phone: "06 30 123 4567", PhoneE164: "+36301234567"}
	type turn struct {
		message    string
		handedOver bool
	}
	tests := []struct {
		name, service, lang string
		turns               []turn
		want                string
		unanswered          []string
	}{
		{"contact details and a call back", "", "hu", []turn{
			{"Kiss Anna vagyok, a számom 06 30 123 4567, az emailem anna@example.hu. Kérem hívjanak vissza délután.", false}},
			"Kér: visszahívás", nil},
		{"a service, a price and an open question", "Napelem", "hu", []turn{
			{"Jó napot! Mennyibe kerül egy 5 kW-os napelem?", false},
			{"Van garancia a tetőre is?", true},
			{"Kiss Anna vagyok, anna@example.hu", false},
			{"Szeretnék árajánlatot kérni.", true}},
			"Érdeklődik: Napelem\nKér: árajánlat\nKérdezte: ár\nNyitott kérdések: „Van garancia a tetőre is?”",
			[]string{"Van garancia a tetőre is?"}},
		{"an answered question is quoted, a greeting is not", "", "hu", []turn{
			{"Szia!", false}, {"Van parkoló az üzlet előtt?", false}, {"Köszönöm.", false}},
			"Kérdezte: „Van parkoló az üzlet előtt?”", nil},
		{"the clause with the name goes, the question stays", "", "hu", []turn{
			{"Kiss Anna vagyok, dolgoznak hétvégén is?", true}, {"Kiss Anna vagyok, dolgoznak hétvégén is?", true}},
			"Nyitott kérdések: „Dolgoznak hétvégén is?”", []string{"Dolgoznak hétvégén is?"}},
		{"English labels for an English conversation", "Solar panels", "en", []turn{
			{"How much are solar panels? Please call me back.", false},
			{"My name is Anna Kiss, do you work on Sundays?", true}},
			"Interested in: Solar panels\nWants: a call back\nAsked about: price\nOpen questions: “Do you work on Sundays?”",
			[]string{"Do you work on Sundays?"}},
		{"only the latest open questions are kept", "", "hu", []turn{
			{"Első kérdés?", true}, {"Második kérdés?", true}, {"Harmadik kérdés?", true},
			{"Negyedik kérdés?", true}, {"Ötödik kérdés?", true}, {"Hatodik kérdés?", true}},
			"Nyitott kérdések: „Második kérdés?” „Harmadik kérdés?” „Negyedik kérdés?” „Ötödik kérdés?” „Hatodik kérdés?”",
			[]string{"Második kérdés?", "Harmadik kérdés?", "Negyedik kérdés?", "Ötödik kérdés?", "Hatodik kérdés?"}},
		{"nothing but contact details", "", "hu", []turn{{"anna@example.hu, 06 30 123 4567", true}}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Summary
			for _, tr := range tt.turns {
				s = s.add(tr.message, assistant.DetectIntent(tr.message), tr.handedOver, anna)
			}
			note := s.Note(tt.service, tt.lang)
			if note != tt.want {
				t.Errorf("note:\n%s\nwant:\n%s", note, tt.want)
			}
			if diff := cmp.Diff(tt.unanswered, s.Unanswered); diff != "" {
				t.Errorf("unanswered (-want +got):\n%s", diff)
			}
			for _, detail := range []string{"Anna", "anna@", "123 4567", "számom", "emailem"} {
				if strings.Contains(note, detail) {
					t.Errorf("the note quotes a contact detail (%q): %q", detail, note)
				}
			}
		})
	}
}

// A question too long for a lead is cut at a word, within the limit.
func TestQuestionClipped(t *testing.T) {
	long := strings.Repeat("hosszú szó ", 40) + "?"
	q := question(long, Contact{})
	if n := utf8.RuneCountInString(q); n > limits.UnansweredQuestionLen || !strings.HasSuffix(q, "szó…") {
		t.Errorf("question of %d characters: %q", n, q)
	}
}

func TestLanguage(t *testing.T) {
	tests := []struct{ setting, conversation, message, want string }{
		{"hu", "", "How much is it?", "hu"},
		{"en", "", "Mennyibe kerül?", "en"},
		{"auto", "", "How much is it?", "en"},
		{"auto", "", "Mennyibe kerül?", "hu"},
		{"auto", "en", "06 30 123 4567", "en"},
		{"auto", "", "anna@example.com", "hu"},
	}
	for _, tt := range tests {
		if got := language(tt.setting, tt.conversation, tt.message); got != tt.want {
			t.Errorf("language(%q, %q, %q) = %q, want %q", tt.setting, tt.conversation, tt.message, got, tt.want)
		}
	}
}
