package postgres_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	companies "github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

func addUser(t *testing.T, s *postgres.Store, companyID uuid.UUID, email string) user.User {
	t.Helper()
	u, _, err := user.Create(context.Background(), s, companyID, email, user.Member, "")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func assigneeOf(t *testing.T, s *postgres.Store, companyID, leadID uuid.UUID) uuid.UUID {
	t.Helper()
	l, err := s.GetLead(context.Background(), companyID, leadID)
	if err != nil {
		t.Fatal(err)
	}
	return l.AssigneeID
}

// A lead is given to a user of its company and only to one: another company's user, a removed
// user and an unknown id change nothing (the status sent with them neither); each change is in
// the history once, with a lead.updated event, and removing the user unassigns the lead.
func TestAssignLead(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	endpoint(t, s, a)
	anna, bela := addUser(t, s, a, "anna@a.example"), addUser(t, s, a, "bela@a.example")
	stranger := addUser(t, s, b, "idegen@b.example")
	gone := addUser(t, s, a, "volt@a.example")
	if _, err := s.RemoveUser(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	created, err := s.CreateLead(ctx, a, newLead("Péter"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.ID

	for name, who := range map[string]uuid.UUID{"another company's user": stranger.ID, "a removed user": gone.ID, "no user": uuid.New()} {
		t.Run(name, func(t *testing.T) {
			err := s.UpdateLead(ctx, a, id, lead.Update{Status: lead.StatusWon, Assign: true, Assignee: who}, lead.OriginAPI)
			if e := errs.As(err); err == nil || e.Code != errs.CodeInvalidAssignee || e.Kind != errs.Invalid {
				t.Fatalf("UpdateLead = %v, want invalid_assignee", err)
			}
			l, _ := s.GetLead(ctx, a, id)
			if l.AssigneeID != uuid.Nil || l.Status != lead.StatusNew {
				t.Fatalf("the refused update changed the lead: %v %s", l.AssigneeID, l.Status)
			}
		})
	}
	if err := s.UpdateLead(ctx, b, id, lead.Update{Assign: true, Assignee: stranger.ID}, lead.OriginAPI); !errs.Is(err, errs.NotFound) {
		t.Fatalf("another company's lead: %v", err)
	}
	if err := s.UpdateLead(ctx, a, id, lead.Update{}, lead.OriginAPI); err == nil {
		t.Fatal("an update of nothing was accepted")
	}

	steps := []lead.Update{
		{Assign: true, Assignee: anna.ID},
		{Assign: true, Assignee: anna.ID}, // no change: no history, no event
		{Status: lead.StatusContacted, Assign: true, Assignee: bela.ID},
		{Assign: true},
	}
	for _, u := range steps {
		if err := s.UpdateLead(ctx, a, id, u, lead.OriginDashboard); err != nil {
			t.Fatal(err)
		}
	}
	hist, err := s.LeadHistory(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	var got [][3]string
	for _, h := range hist {
		got = append(got, [3]string{string(h.Field), h.Old, h.New})
	}
	want := [][3]string{
		{"assignee", "", anna.ID.String()},
		{"status", "new", "contacted"},
		{"assignee", anna.ID.String(), bela.ID.String()},
		{"assignee", bela.ID.String(), ""},
	}
	// The status and the assignee of one update are two rows of one statement, in either order.
	if len(got) == 4 && got[1][0] == "assignee" {
		got[1], got[2] = got[2], got[1]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	updated := 0
	for _, e := range events(t, s, a) {
		if e.Type == string(event.LeadUpdated) {
			updated++
		}
	}
	if updated != 3 {
		t.Errorf("%d lead.updated events, want 3 (one per update that changed something)", updated)
	}

	if err := s.UpdateLead(ctx, a, id, lead.Update{Assign: true, Assignee: bela.ID}, lead.OriginDashboard); err != nil {
		t.Fatal(err)
	}
	// Bela is a member of B too: leaving A keeps his account, and still unassigns A's lead.
	if again := addUser(t, s, b, "bela@a.example"); again.ID != bela.ID {
		t.Fatalf("bela's second membership made another user: %v, %v", again.ID, bela.ID)
	}
	if _, err := s.RemoveCompanyUser(ctx, a, bela.ID); err != nil {
		t.Fatal(err)
	}
	if got := assigneeOf(t, s, a, id); got != uuid.Nil {
		t.Errorf("the removed member still has the lead: %v", got)
	}
	if err := s.UpdateLead(ctx, a, id, lead.Update{Assign: true, Assignee: bela.ID}, lead.OriginDashboard); errs.As(err).Code != errs.CodeInvalidAssignee {
		t.Errorf("a lead given to a member who left: %v, want invalid_assignee", err)
	}
}

// With round robin on, new leads go to the company's users in turn, in one group or alone, and
// each one's new-lead e-mail goes to the user it was given to as well as to the notify
// addresses (once when the user is among them); with it off, new leads come unassigned.
func TestRoundRobin(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	users := []user.User{addUser(t, s, a, "anna@a.example"), addUser(t, s, a, "bela@a.example"), addUser(t, s, a, "cecil@a.example")}
	addUser(t, s, b, "idegen@b.example")
	if err := s.SetNotifyEmails(ctx, a, []string{"sales@a.example", "bela@a.example"}); err != nil {
		t.Fatal(err)
	}
	confirmEmails(t, s, a, "sales@a.example", "bela@a.example")
	off, err := s.CreateLead(ctx, a, newLead("Off"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := assigneeOf(t, s, a, off.ID); got != uuid.Nil {
		t.Fatalf("round robin off, the lead went to %v", got)
	}
	on := true
	if c, err := s.UpdateCompany(ctx, a, companies.Changes{RoundRobin: &on}); err != nil || !c.RoundRobin {
		t.Fatalf("round robin on: %+v, %v", c, err)
	}
	var creates []postgres.GroupCreate
	for range 4 {
		creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: a, Lead: newLead("Csoport")})
	}
	creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: b, Lead: newLead("B")})
	if _, errors := postgres.StoreGroup(s, creates); errors[0] != nil {
		t.Fatal(errors[0])
	}
	alone, err := s.CreateLead(ctx, a, newLead("Egyedül"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := map[uuid.UUID]int{}
	var order []uuid.UUID
	for _, c := range creates[:4] {
		who := assigneeOf(t, s, a, c.Lead.ID)
		count[who]++
		order = append(order, who)
	}
	count[assigneeOf(t, s, a, alone.ID)]++
	if got := assigneeOf(t, s, b, creates[4].Lead.ID); got != uuid.Nil {
		t.Errorf("company B (round robin off) got its lead assigned to %v", got)
	}
	for _, u := range users {
		if count[u.ID] < 1 || count[u.ID] > 2 {
			t.Errorf("%s got %d of 5 leads: %v", u.Email, count[u.ID], count)
		}
	}
	for i := 1; i < len(order); i++ {
		if order[i] == order[i-1] {
			t.Errorf("two leads in a row went to the same user: %v", order)
		}
	}

	events(t, s, a)
	rows, err := s.DB().Query(`SELECT d.email FROM event_deliveries d JOIN lead_events e ON e.id = d.event_id
		WHERE d.company_id = $1 AND d.email IS NOT NULL AND e.lead_id = $2 ORDER BY d.email`, a, alone.ID)
	if err != nil {
		t.Fatal(err)
	}
	var to []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			t.Fatal(err)
		}
		to = append(to, e)
	}
	rows.Close()
	want := []string{"sales@a.example"}
	switch who := assigneeOf(t, s, a, alone.ID); who {
	case users[0].ID:
		want = []string{"anna@a.example", "bela@a.example", "sales@a.example"}
	case users[1].ID:
		want = []string{"bela@a.example", "sales@a.example"}
	case users[2].ID:
		want = []string{"bela@a.example", "cecil@a.example", "sales@a.example"}
	}
	if diff := cmp.Diff(want, to); diff != "" {
		t.Errorf("the e-mails of a lead given to a user (-want +got):\n%s", diff)
	}
}
