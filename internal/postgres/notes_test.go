package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
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
	f, _, err := s.LeadFile(ctx, a, me, 50)
	if err != nil {
		t.Fatal(err)
	}
	if f.Lead.ID != me {
		t.Fatalf("the file's lead is %s, want %s", f.Lead.ID, me)
	}
	want := []uuid.UUID{both, samePhone, sameMail}
	if diff := cmp.Diff(want, ids(f.Related)); diff != "" {
		t.Fatalf("related (-want +got):\n%s", diff)
	}
	// Each carries what its row on the page shows, and nothing else (not its over-limit flag
	// nor its update time).
	if _, err := s.DB().ExecContext(ctx, `UPDATE leads SET over_limit = true, updated_at = now() + interval '1 day' WHERE company_id = $1 AND id = $2`, a, both); err != nil {
		t.Fatal(err)
	}
	if f, _, err = s.LeadFile(ctx, a, me, 20); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Related {
		full, err := s.GetLead(ctx, a, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		shown := lead.Stored{Lead: lead.Lead{ID: full.ID, FirstName: full.FirstName, LastName: full.LastName, Email: full.Email,
			Phone: full.Phone, Source: full.Source}, Status: full.Status, CreatedAt: full.CreatedAt}
		if diff := cmp.Diff(shown, r); diff != "" {
			t.Errorf("related lead %s (-want +got):\n%s", r.ID, diff)
		}
	}
	if f, _, _ := s.LeadFile(ctx, a, me, 2); len(f.Related) != 2 {
		t.Errorf("a limit of 2 gave %d", len(f.Related))
	}
	if _, _, err := s.LeadFile(ctx, b, me, 50); !errs.Is(err, errs.NotFound) {
		t.Errorf("another company's view of the lead: %v", err)
	}
	alone := mk(a, "", "")
	if f, _, err := s.LeadFile(ctx, a, alone, 50); err != nil || len(f.Related) != 0 || f.Lead.ID != alone {
		t.Errorf("a lead without address or number: %+v, %v", f, err)
	}
}

// The lead page's one statement reads what the separate reads do: the lead, its transcript
// (an agent's message with its name), its history, its notes (one by a removed user; what the
// page shows of them, without ids) and the company's users (their ids and addresses).
func TestLeadFileReadsWhatTheSeparateReadsDo(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	anna, bela := addUser(t, s, a, "anna@a.example"), addUser(t, s, a, "bela@a.example")
	addUser(t, s, b, "idegen@b.example")
	created, err := s.CreateLead(ctx, a, newLead("Péter"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.ID
	for _, q := range []string{
		`INSERT INTO chat_sessions (company_id, session_id, lead_id, visitor_messages) VALUES ($1, 'file-test-session', $2, 1)`,
		`INSERT INTO chat_messages (company_id, session_id, visitor, text) VALUES ($1, 'file-test-session', true, 'Mennyi? <b>"x"</b>')`,
		`INSERT INTO chat_messages (company_id, session_id, visitor, text) VALUES ($1, 'file-test-session', false, 'Kb. 3 millió, {nettó} \\ "bruttó"')`,
		`INSERT INTO chat_messages (company_id, session_id, visitor, text, agent_name) VALUES ($1, 'file-test-session', false, 'Visszahívom.', 'Anna')`,
	} {
		if _, err := s.DB().ExecContext(ctx, q, append([]any{a}, []any{id}[:strings.Count(q, "$2")]...)...); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetLeadStatus(ctx, a, id, lead.StatusContacted, lead.OriginDashboard); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateLead(ctx, a, id, lead.Update{Assign: true, Assignee: anna.ID}, lead.OriginAPI); err != nil {
		t.Fatal(err)
	}
	for _, n := range []struct {
		by   uuid.UUID
		text string
	}{{anna.ID, "Első\n\tjegyzet"}, {bela.ID, "Béla jegyzete"}, {anna.ID, `NULL`}, {anna.ID, `a\b, {c} "NULL" ''` + "\u00e9"}} {
		if _, err := s.AddLeadNote(ctx, a, id, n.by, n.text); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RemoveCompanyUser(ctx, a, bela.ID); err != nil {
		t.Fatal(err)
	}
	// The same person's other leads: one by the number alone, without an address or a last
	// name, one by the address in other letters' case, without a number; and another person.
	var wantRelated []lead.Stored
	for _, o := range []lead.Lead{
		{FirstName: "Péter", Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Source: lead.SourceManual},
		{FirstName: `P"é{t}er,`, LastName: `Kiss \ NULL`, Email: "A@Example.HU", Source: lead.SourceForm},
		{FirstName: "Más", Email: "mas@example.hu", Source: lead.SourceAPI},
	} {
		o.ID = lead.NewID()
		if _, err := s.CreateLead(ctx, a, o, nil, nil); err != nil {
			t.Fatal(err)
		}
		stored, err := s.GetLead(ctx, a, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if o.FirstName != "Más" {
			wantRelated = append([]lead.Stored{{Status: stored.Status, CreatedAt: stored.CreatedAt, Lead: lead.Lead{
				ID: o.ID, FirstName: o.FirstName, LastName: o.LastName, Email: o.Email, Phone: o.Phone, Source: o.Source}}},
				wantRelated...) // newest first
		}
	}
	f, users, err := s.LeadFile(ctx, a, id, 50)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.GetLead(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := s.LeadMessages(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := s.LeadHistory(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	notes, err := s.LeadNotes(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	wantUsers, err := s.Users(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 || len(hist) != 2 || len(notes) != 4 || len(wantUsers) != 1 {
		t.Fatalf("the separate reads: %d messages, %d changes, %d notes, %d users", len(msgs), len(hist), len(notes), len(wantUsers))
	}
	// The file's notes carry what the page shows: no ids, no authors' ids.
	if notes[0].AuthorID == uuid.Nil || notes[1].AuthorID != uuid.Nil {
		t.Fatalf("the separate read's authors: %+v", notes)
	}
	for i := range notes {
		notes[i].ID, notes[i].AuthorID = 0, uuid.Nil
	}
	// Its users, too: their ids and addresses, whom the lead may be given to.
	for i, u := range wantUsers {
		wantUsers[i] = user.User{ID: u.ID, Email: u.Email}
	}
	sameInstant := cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) })
	for _, c := range []struct {
		what      string
		want, got any
	}{{"lead", l, f.Lead}, {"transcript", msgs, f.Messages}, {"history", hist, f.History}, {"notes", notes, f.Notes},
		{"users", wantUsers, users}} {
		if diff := cmp.Diff(c.want, c.got, sameInstant); diff != "" {
			t.Errorf("%s (-separate +file):\n%s", c.what, diff)
		}
	}
	if diff := cmp.Diff(wantRelated, f.Related, sameInstant); diff != "" {
		t.Errorf("related (-created +file):\n%s", diff)
	}
}
