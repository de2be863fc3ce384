package chat

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/lead"
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

func TestAddToNote(t *testing.T) {
	note := ""
	for _, g := range []string{"Mennyibe kerül egy 5 kW-os rendszer?", "", "Havi 25 000 Ft a villanyszámlánk.", "mennyibe kerül egy 5 kW-os rendszer?"} {
		note = addToNote(note, g)
	}
	if want := "Mennyibe kerül egy 5 kW-os rendszer?\nHavi 25 000 Ft a villanyszámlánk."; note != want {
		t.Errorf("note = %q, want %q", note, want)
	}
	long := strings.Repeat("x", 300)
	note = "Az első kérdés"
	for i := range 10 {
		note = addToNote(note, fmt.Sprintf("%d %s", i, long))
	}
	if n := utf8.RuneCountInString(note); n > maxNote || !strings.HasPrefix(note, "Az első kérdés\n") || !strings.HasSuffix(note, "9 "+long) {
		t.Errorf("note of %d characters keeps neither the first nor the last question: %.80q…", n, note)
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
