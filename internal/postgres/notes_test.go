package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/postgres"
)

// A note is 1 to 5,000 characters without control characters other than line breaks and tabs,
// by a user of the lead's company; it keeps its author's address after the user is removed, and
// goes with the lead.
func TestLeadNotes(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	anna, stranger := addUser(t, s, a, "anna@a.example"), addUser(t, s, b, "idegen@b.example")
	created, err := s.CreateLead(ctx, a, newLead("Péter"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.ID
	for _, tt := range []struct {
		name, text string
		code       errs.Code
	}{
		{"empty", "  \n ", errs.CodeMissingField},
		{"over 5,000 characters", strings.Repeat("é", limits.NoteLen+1), errs.CodeInvalidField},
		{"a control character", "hívjuk\x07 vissza", errs.CodeInvalidCharacters},
		{"a NUL", "a\x00b", errs.CodeInvalidCharacters},
		{"an escape", "\x1b[31mpiros", errs.CodeInvalidCharacters},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddLeadNote(ctx, a, id, anna.ID, tt.text)
			if e := errs.As(err); err == nil || e.Code != tt.code {
				t.Fatalf("AddLeadNote = %v, want %s", err, tt.code)
			}
		})
	}
	if _, err := s.AddLeadNote(ctx, a, id, stranger.ID, "idegen jegyzete"); !errs.Is(err, errs.NotFound) {
		t.Errorf("another company's user writing: %v", err)
	}
	if _, err := s.AddLeadNote(ctx, b, id, stranger.ID, "idegen jegyzete"); !errs.Is(err, errs.NotFound) {
		t.Errorf("on another company's lead: %v", err)
	}
	longest := strings.Repeat("é", limits.NoteLen)
	for _, text := range []string{"Első sor\n\tmásodik sor", longest} {
		if _, err := s.AddLeadNote(ctx, a, id, anna.ID, text); err != nil {
			t.Fatalf("a good note: %v", err)
		}
	}
	if _, err := s.RemoveUser(ctx, anna.ID); err != nil {
		t.Fatal(err)
	}
	notes, err := s.LeadNotes(ctx, a, id)
	if err != nil || len(notes) != 2 || notes[0].Text != "Első sor\n\tmásodik sor" || notes[1].Text != longest ||
		notes[0].Author != "anna@a.example" || notes[0].AuthorID != uuid.Nil {
		t.Fatalf("notes = %+v, %v", notes, err)
	}
	if other, _ := s.LeadNotes(ctx, b, id); len(other) != 0 {
		t.Errorf("another company reads the notes: %+v", other)
	}
	if _, err := s.EraseLeads(ctx, a, []uuid.UUID{id}); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := s.DB().QueryRow(`SELECT count(*) FROM lead_notes WHERE lead_id = $1`, id).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d notes left after the erasure (%v)", left, err)
	}
}

// One person's leads are those of the company with the same address, whatever its case, or
// the same E.164 number; another company's, and the lead itself, are not among them.
func TestRelatedLeads(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	mk := func(companyID uuid.UUID, email, phone string) uuid.UUID {
		l := newLead("Péter")
		l.Email, l.Phone, l.PhoneE164 = email, phone, phone
		c, err := s.CreateLead(ctx, companyID, l, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	me := mk(a, "peter@example.hu", "+36301111111")
	sameMail := mk(a, "Peter@Example.HU", "")
	samePhone := mk(a, "masik@example.hu", "+36301111111")
	both := mk(a, "peter@example.hu", "+36301111111")
	mk(a, "valaki@example.hu", "+36302222222")
	mk(a, "", "")
	mk(b, "peter@example.hu", "+36301111111")
	got, err := s.RelatedLeads(ctx, a, me, 50)
	if err != nil {
		t.Fatal(err)
	}
	want := []uuid.UUID{both, samePhone, sameMail}
	if len(got) != len(want) {
		t.Fatalf("related = %v, want %v", ids(got), want)
	}
	for i := range want {
		if got[i].ID != want[i] {
			t.Fatalf("related = %v, want %v", ids(got), want)
		}
	}
	if got, _ := s.RelatedLeads(ctx, a, me, 2); len(got) != 2 {
		t.Errorf("a limit of 2 gave %d", len(got))
	}
	if got, _ := s.RelatedLeads(ctx, b, me, 50); len(got) != 0 {
		t.Errorf("another company's view of the lead: %v", ids(got))
	}
}
