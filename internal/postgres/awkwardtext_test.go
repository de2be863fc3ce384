package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// awkward are texts that PostgreSQL's array output quotes, escapes or could mistake: empty,
// NULL as a word, quotes, backslashes, braces, commas, white space of every kind, accents.
var awkward = []string{"", "NULL", "null", "Null", `"`, `\`, `\\"`, `a"b\c`, "{", "}", "{a,b}", ",", "a,b",
	" ", "két szó", "\t", "sor\nsor", "\r\n", "\v\f", "Kovács Péter", "x", "ÁRVÍZTŰRŐ tükörfúrógép", `""`, "NULLA",
	"(1)", "[0:1]={a}", "'idéző'", "\u2028", "emoji 😀"}

// A lead whose texts are awkward in an array reads back as stored, through the list, one
// lead's read and the lead page, its related lead and its notes included.
func TestAwkwardTextsReadBack(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	owner := addUser(t, s, a, "tulaj@example.hu")
	var stored []lead.Lead
	for i, text := range awkward {
		l := lead.Lead{ID: uuid.New(), FirstName: text, LastName: awkward[(i+1)%len(awkward)], Email: "NULL@example.hu",
			Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: awkward[(i+2)%len(awkward)], Note: awkward[(i+3)%len(awkward)],
			Source: lead.SourceForm}
		if text == "" {
			l.FirstName, l.Email, l.Phone, l.PhoneE164 = "", "", "", "" // NULL columns
		}
		if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
			t.Fatal(err)
		}
		stored = append(stored, l)
	}
	ignoreTimes := cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".CreatedAt" || p.Last().String() == ".UpdatedAt"
	}, cmp.Ignore())
	page, err := s.ListLeads(ctx, a, lead.Filter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uuid.UUID]lead.Stored{}
	for _, l := range page.Leads {
		byID[l.ID] = l
	}
	for _, l := range stored {
		want := lead.Stored{Lead: l, Status: lead.StatusNew}
		if diff := cmp.Diff(want, byID[l.ID], ignoreTimes); diff != "" {
			t.Errorf("listed (-want +got):\n%s", diff)
		}
		got, err := s.GetLead(ctx, a, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, ignoreTimes); diff != "" {
			t.Errorf("GetLead (-want +got):\n%s", diff)
		}
	}
	me := stored[1]
	var kept []string
	for _, text := range awkward {
		// Blank notes and control characters are refused; every other note is kept.
		if _, err := s.AddLeadNote(ctx, a, me.ID, owner.ID, text); err == nil {
			kept = append(kept, text)
		} else if strings.TrimSpace(text) != "" && !strings.ContainsAny(text, "\t\n\r\v\f\u2028") {
			t.Fatalf("note %q: %v", text, err)
		}
	}
	if len(kept) < 20 {
		t.Fatalf("only %d notes kept", len(kept))
	}
	f, _, err := s.LeadFile(ctx, a, me.ID, 50)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(lead.Stored{Lead: me, Status: lead.StatusNew}, f.Lead, ignoreTimes); diff != "" {
		t.Errorf("the page's lead (-want +got):\n%s", diff)
	}
	if len(f.Related) != len(stored)-2 { // the same address and number, but for the lead without
		t.Errorf("%d related leads, want %d", len(f.Related), len(stored)-2)
	}
	var notes []string
	for _, n := range f.Notes {
		notes = append(notes, n.Text)
		// The lead file carries a note's author as the page shows it, without ids.
		if n.Author != "tulaj@example.hu" {
			t.Errorf("note by %q, want the owner", n.Author)
		}
	}
	if diff := cmp.Diff(kept, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
