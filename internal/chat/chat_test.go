package chat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/assistant"
)

func TestMerge(t *testing.T) {
	known := Contact{FirstName: "Péter", LastName: "Kovács", Email: "p@example.hu"}
	tests := []struct {
		name            string
		cur, form, text Contact
		next, captured  Contact
	}{
		{"text fills a gap", Contact{}, Contact{}, Contact{Email: "a@example.hu"},
			Contact{Email: "a@example.hu"}, Contact{Email: "a@example.hu"}},
		{"text never overwrites", known, Contact{}, Contact{Email: "other@example.hu", FirstName: "Béla"},
			known, Contact{}},
		{"the form overwrites", known, Contact{Email: "new@example.hu"}, Contact{},
			Contact{FirstName: "Péter", LastName: "Kovács", Email: "new@example.hu"}, Contact{Email: "new@example.hu"}},
		{"the form wins over the text of the same message", Contact{}, Contact{Email: "form@example.hu"}, Contact{Email: "text@example.hu"},
			Contact{Email: "form@example.hu"}, Contact{Email: "form@example.hu"}},
		{"the form's one name field holds the whole name", known, Contact{FirstName: "Nagy Anna"}, Contact{},
			Contact{FirstName: "Nagy Anna", Email: "p@example.hu"}, Contact{FirstName: "Nagy Anna"}},
		{"the same name again is no change", known, Contact{FirstName: "Péter Kovács"}, Contact{},
			known, Contact{}},
		{"a phone with its E.164 form", Contact{}, Contact{}, Contact{Phone: "06 30 123 4567", PhoneE164: "+36301234567"},
			Contact{Phone: "06 30 123 4567", PhoneE164: "+36301234567"}, Contact{Phone: "06 30 123 4567", PhoneE164: "+36301234567"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, captured := merge(tt.cur, tt.form, tt.text)
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

func TestSessionLead(t *testing.T) {
	id := uuid.New()
	if l := sessionLead(Session{Contact: Contact{FirstName: "Anna"}}, Contact{FirstName: "Anna"}); l != nil {
		t.Error("a lead without an email or phone")
	}
	if l := sessionLead(Session{Contact: Contact{Email: "a@example.hu"}}, Contact{Email: "a@example.hu"}); l == nil || l.Source != "chat" {
		t.Errorf("no chat lead once an email is known: %+v", l)
	}
	if l := sessionLead(Session{LeadID: &id, Contact: Contact{Email: "a@example.hu"}}, Contact{}); l != nil {
		t.Error("an update without any change")
	}
	if l := sessionLead(Session{LeadID: &id, Contact: Contact{Email: "a@example.hu", FirstName: "A"}}, Contact{FirstName: "A"}); l == nil || l.ID != id {
		t.Errorf("the update is not of the session's lead: %+v", l)
	}
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
