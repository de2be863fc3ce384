package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// ids lists the ids of leads in their order.
func ids(leads []lead.Stored) []uuid.UUID {
	out := make([]uuid.UUID, len(leads))
	for i, l := range leads {
		out[i] = l.ID
	}
	return out
}

// Leads stored by one group share their creation time: pages of two still give every lead
// once, newest first, ties in id order, and the last page says so.
func TestListLeadsPagesThroughTies(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	var creates []postgres.GroupCreate
	for i := range 7 {
		creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: a, Lead: newLead(string(rune('P' + i)))})
	}
	creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: b, Lead: newLead("Other")})
	if _, errors := postgres.StoreGroup(s, creates); errors[0] != nil {
		t.Fatal(errors[0])
	}
	later, err := s.CreateLead(ctx, a, newLead("Later"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, err := lead.Collect(lead.All(ctx, s, a, lead.Filter{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 8 || all[0].ID != later.ID {
		t.Fatalf("all = %d leads starting %v; want 8 starting with the later one", len(all), all[0].ID)
	}
	for i := 2; i < len(all); i++ {
		if all[i].CreatedAt != all[1].CreatedAt || all[i].ID.String() >= all[i-1].ID.String() {
			t.Fatalf("the group's leads are not in descending id order at %d: %v", i, ids(all))
		}
	}
	var paged []lead.Stored
	f := lead.Filter{Limit: 2}
	for pages := 1; ; pages++ {
		page, err := s.ListLeads(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, page.Leads...)
		if page.Next == nil {
			if pages != 4 || len(page.Leads) != 2 {
				t.Errorf("%d pages, the last of %d; want 4 full pages", pages, len(page.Leads))
			}
			break
		}
		f.After = page.Next
	}
	if diff := cmp.Diff(ids(all), ids(paged)); diff != "" {
		t.Errorf("pages differ from the whole list (-all +pages):\n%s", diff)
	}
}

func TestListLeadsFilters(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	add := func(first, email, note string, src lead.Source) uuid.UUID {
		t.Helper()
		l := newLead(first)
		l.Email, l.Note, l.Source = email, note, src
		if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
			t.Fatal(err)
		}
		return l.ID
	}
	anna := add("Anna", "anna@example.hu", "100% napelem", lead.SourceForm)
	between := time.Now()
	bela := add("Béla", "bela@example.hu", "hőszivattyú", lead.SourceChat)
	cili := add("Cili", "cili@example.hu", "klíma_2", lead.SourceChat)
	if err := s.SetLeadStatus(ctx, a, cili, lead.StatusWon, lead.OriginAPI); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		f    lead.Filter
		want []uuid.UUID
	}{
		{"no filter", lead.Filter{}, []uuid.UUID{cili, bela, anna}},
		{"status", lead.Filter{Status: lead.StatusWon}, []uuid.UUID{cili}},
		{"source", lead.Filter{Source: lead.SourceChat}, []uuid.UUID{cili, bela}},
		{"since", lead.Filter{Since: between}, []uuid.UUID{cili, bela}},
		{"until", lead.Filter{Until: between}, []uuid.UUID{anna}},
		{"text in the email, any case", lead.Filter{Text: "BELA@"}, []uuid.UUID{bela}},
		{"text in the note", lead.Filter{Text: "szivat"}, []uuid.UUID{bela}},
		{"percent taken literally", lead.Filter{Text: "0% nap"}, []uuid.UUID{anna}},
		{"underscore taken literally", lead.Filter{Text: "a_2"}, []uuid.UUID{cili}},
		{"wildcard characters alone match none", lead.Filter{Text: "_%_"}, []uuid.UUID{}},
		{"combined", lead.Filter{Source: lead.SourceChat, Status: lead.StatusNew}, []uuid.UUID{bela}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page, err := s.ListLeads(ctx, a, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(page.Leads)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, tt := range []struct {
		name string
		f    lead.Filter
		code errs.Code
	}{
		{"page too large", lead.Filter{Limit: 201}, errs.CodeInvalidField},
		{"negative page", lead.Filter{Limit: -1}, errs.CodeInvalidField},
		{"unknown status", lead.Filter{Status: "archived"}, errs.CodeInvalidStatus},
		{"unknown source", lead.Filter{Source: "fax"}, errs.CodeInvalidSource},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.ListLeads(ctx, a, tt.f); errs.As(err).Code != tt.code {
				t.Errorf("err = %v, want %s", err, tt.code)
			}
		})
	}
}

// chatOf gives a lead a chat session with a visitor message and a reply, as the chat stores them.
func chatOf(t *testing.T, s *postgres.Store, companyID, leadID uuid.UUID, session string) {
	t.Helper()
	db := s.DB()
	if _, err := db.Exec(`INSERT INTO chat_sessions (company_id, session_id, lead_id) VALUES ($1, $2, $3)`,
		companyID, session, leadID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO chat_messages (company_id, session_id, visitor, text)
		VALUES ($1, $2, true, 'Mennyibe kerül?'), ($1, $2, false, 'Kérem, adja meg az e-mail címét.')`,
		companyID, session); err != nil {
		t.Fatal(err)
	}
}

func TestGetLeadAndMessages(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	l := newLead("Anna")
	if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	plain := newLead("Béla")
	if _, err := s.CreateLead(ctx, a, plain, nil, nil); err != nil {
		t.Fatal(err)
	}
	chatOf(t, s, a, l.ID, "leadread-test-session-0001")

	got, err := s.GetLead(ctx, a, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := lead.Stored{Lead: l, Status: lead.StatusNew, SessionID: "leadread-test-session-0001"}
	if diff := cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".CreatedAt" || p.Last().String() == ".UpdatedAt"
	}, cmp.Ignore())); diff != "" {
		t.Errorf("GetLead (-want +got):\n%s", diff)
	}
	if got.CreatedAt.IsZero() || got.UpdatedAt.Before(got.CreatedAt) {
		t.Errorf("times: created %v, updated %v", got.CreatedAt, got.UpdatedAt)
	}

	msgs, err := s.LeadMessages(ctx, a, l.ID)
	if err != nil || len(msgs) != 2 || !msgs[0].Visitor || msgs[1].Visitor || msgs[1].Text != "Kérem, adja meg az e-mail címét." {
		t.Errorf("messages = %+v, %v; want the visitor's, then the reply", msgs, err)
	}
	if msgs, err := s.LeadMessages(ctx, a, plain.ID); err != nil || len(msgs) != 0 {
		t.Errorf("messages of a lead without chat = %+v, %v; want none", msgs, err)
	}
	for name, call := range map[string]func(uuid.UUID, uuid.UUID) error{
		"get":      func(c, id uuid.UUID) error { _, err := s.GetLead(ctx, c, id); return err },
		"messages": func(c, id uuid.UUID) error { _, err := s.LeadMessages(ctx, c, id); return err },
	} {
		if err := call(b, l.ID); errs.As(err).Code != errs.CodeLeadNotFound || !errs.Is(err, errs.NotFound) {
			t.Errorf("%s of another company's lead: %v, want lead_not_found", name, err)
		}
		if err := call(a, uuid.New()); errs.As(err).Code != errs.CodeLeadNotFound {
			t.Errorf("%s of no lead: %v, want lead_not_found", name, err)
		}
	}
}

// Erasing a lead removes it with its chat, history and idempotency record, and nothing of
// another lead; the month's count stays.
func TestDeleteLeadErases(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	l := newLead("Anna")
	if _, err := s.CreateLead(ctx, a, l, nil, &lead.Idempotency{Key: "k1"}); err != nil {
		t.Fatal(err)
	}
	kept := newLead("Béla")
	if _, err := s.CreateLead(ctx, a, kept, nil, &lead.Idempotency{Key: "k2"}); err != nil {
		t.Fatal(err)
	}
	chatOf(t, s, a, l.ID, "leadread-test-session-0001")
	chatOf(t, s, a, kept.ID, "leadread-test-session-0002")
	for _, id := range []uuid.UUID{l.ID, kept.ID} {
		if err := s.SetLeadStatus(ctx, a, id, lead.StatusContacted, lead.OriginAPI); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteLead(ctx, b, l.ID); errs.As(err).Code != errs.CodeLeadNotFound {
		t.Errorf("another company's erase: %v, want lead_not_found", err)
	}
	if err := s.DeleteLead(ctx, a, l.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteLead(ctx, a, l.ID); errs.As(err).Code != errs.CodeLeadNotFound {
		t.Errorf("second erase: %v, want lead_not_found", err)
	}
	count := func(query string, args ...any) int {
		t.Helper()
		var n int
		if err := s.DB().QueryRow(query, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tt := range []struct {
		table, where string
		arg          any
	}{
		{"leads", "id = $1", l.ID},
		{"lead_history", "lead_id = $1", l.ID},
		{"idempotency_keys", "lead_id = $1", l.ID},
		{"chat_sessions", "session_id = $1", "leadread-test-session-0001"},
		{"chat_messages", "session_id = $1", "leadread-test-session-0001"},
	} {
		if n := count(`SELECT count(*) FROM `+tt.table+` WHERE `+tt.where, tt.arg); n != 0 {
			t.Errorf("%s still holds %d rows of the erased lead", tt.table, n)
		}
	}
	if _, err := s.GetLead(ctx, a, kept.ID); err != nil {
		t.Errorf("the other lead: %v", err)
	}
	if msgs, _ := s.LeadMessages(ctx, a, kept.ID); len(msgs) != 2 {
		t.Errorf("the other lead's chat has %d messages, want 2", len(msgs))
	}
	if h, _ := s.LeadHistory(ctx, a, kept.ID); len(h) != 1 {
		t.Errorf("the other lead's history has %d rows, want 1", len(h))
	}
	if n := count(`SELECT coalesce(sum(count), 0) FROM lead_counters WHERE company_id = $1`, a); n != 2 {
		t.Errorf("the month's count is %d after the erase, want 2", n)
	}
}
