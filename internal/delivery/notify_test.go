package delivery_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	leadmail "github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
	"github.com/leadchat/leadchat/internal/user"
)

// waitMessages waits until the SMTP server holds n messages and returns them.
func waitMessages(t *testing.T, srv *mailtest.Server, n int) []mailtest.Message {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs := srv.Messages()
		if len(msgs) >= n {
			return msgs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d messages, want %d", len(msgs), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mailEnv is an env whose workers send e-mail through a local SMTP server.
func mailEnv(t *testing.T, e *env) *mailtest.Server {
	srv := mailtest.Start(t)
	server, err := leadmail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	e.start(event.Schedule{time.Hour}, leadmail.NewSender(server, "noreply@leads.example.com", "https://leads.example.com"))
	return srv
}

// An address added to the new-lead e-mail gets only its confirmation link until it follows
// it; then it gets the leads. An owner's own login address gets them at once. The state shows
// in the list.
func TestNewLeadEmailNeedsConfirmation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.store.CreateUser(ctx, e.company, "owner@example.com", user.Owner, "", nil); err != nil {
		t.Fatal(err)
	}
	srv := mailEnv(t, e)
	if err := e.store.SetNotifyEmails(ctx, e.company, []string{"stranger@example.com", "Owner@example.com"}); err != nil {
		t.Fatal(err)
	}
	addrs, err := e.store.NotifyAddresses(ctx, e.company)
	if err != nil {
		t.Fatal(err)
	}
	want := []event.NotifyAddress{{Email: "Owner@example.com", Confirmed: true}, {Email: "stranger@example.com"}}
	if len(addrs) != 2 || addrs[0] != want[0] || addrs[1] != want[1] {
		t.Errorf("addresses %+v, want %+v", addrs, want)
	}
	first := e.lead()
	msgs := waitMessages(t, srv, 2)
	var confirm, lead mailtest.Message
	for _, m := range msgs {
		switch m.To[0] {
		case "stranger@example.com":
			confirm = m
		case "Owner@example.com":
			lead = m
		}
	}
	if !strings.Contains(confirm.Parts["text/plain"], "/app/notify/confirm/") || strings.Contains(confirm.Parts["text/plain"], first.String()) {
		t.Errorf("the stranger's message is not only the confirmation:\n%s", confirm.Parts["text/plain"])
	}
	if !strings.Contains(lead.Parts["text/plain"], first.String()) {
		t.Errorf("the owner's message is not the lead:\n%s", lead.Parts["text/plain"])
	}

	confirmByMail(t, e, srv, "stranger@example.com")
	second := e.lead()
	msgs = waitMessages(t, srv, 4)
	got := map[string]bool{}
	for _, m := range msgs[2:] {
		if strings.Contains(m.Parts["text/plain"], second.String()) {
			got[m.To[0]] = true
		}
	}
	if !got["stranger@example.com"] || !got["Owner@example.com"] {
		t.Errorf("the second lead went to %v, want both addresses", got)
	}
	if _, _, err := e.store.ConfirmNotifyEmail(ctx, event.ConfirmHash("made-up")); err == nil {
		t.Error("a made-up link confirmed an address")
	}
}

// Past the daily cap a company's lead e-mails stop; the day after, each address gets one
// digest saying how many leads it was not mailed about, with the dashboard link.
func TestLeadEmailDailyCapAndDigest(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var mu sync.Mutex
	day := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	e.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return day }
	e.mailsPerDay, e.digestEvery = 2, 200*time.Millisecond
	if _, err := e.store.CreateUser(ctx, e.company, "owner@example.com", user.Owner, "", nil); err != nil {
		t.Fatal(err)
	}
	srv := mailEnv(t, e)
	if err := e.store.SetNotifyEmails(ctx, e.company, []string{"owner@example.com"}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		e.lead()
	}
	ds := e.emailDeliveries(5)
	failed := 0
	for _, d := range ds {
		if d.State == event.Failed && strings.Contains(d.LastError, "new-lead e-mails of the day") {
			failed++
		}
	}
	if n := len(srv.Messages()); n != 2 || failed != 3 {
		t.Fatalf("%d lead e-mails sent, %d held past the cap; want 2 and 3", n, failed)
	}

	mu.Lock()
	day = day.Add(24 * time.Hour)
	mu.Unlock()
	msgs := waitMessages(t, srv, 3)
	digest := msgs[2].Parts["text/plain"]
	for _, w := range []string{"3 új érdeklődőről nem ment külön levél", "https://leads.example.com/app/leads", "2026. 03. 01."} {
		if !strings.Contains(digest, w) {
			t.Errorf("the digest lacks %q:\n%s", w, digest)
		}
	}
	id := e.lead() // a new day: the cap starts again
	msgs = waitMessages(t, srv, 4)
	if !strings.Contains(msgs[3].Parts["text/plain"], id.String()) {
		t.Errorf("the new day's lead e-mail:\n%s", msgs[3].Parts["text/plain"])
	}
}

// emailDeliveries waits until the company has n e-mail deliveries, all settled, and returns
// them.
func (e *env) emailDeliveries(n int) []event.Record {
	e.t.Helper()
	db, err := sqlx.Open("postgres", e.dsn)
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ds []event.Record
		err := db.Select(&ds, `SELECT state, coalesce(last_error, '') AS lasterror FROM event_deliveries
			WHERE company_id = $1 AND email IS NOT NULL`, e.company)
		if err != nil {
			e.t.Fatal(err)
		}
		settled := len(ds) == n
		for _, d := range ds {
			settled = settled && d.State != event.Pending
		}
		if settled {
			return ds
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("e-mail deliveries %+v, want %d settled", ds, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A lead given to a member by hand (the dashboard and PATCH assignee_id both make this update)
// sends that member the lead's new-lead e-mail, once per assignment, even when the member is
// also a notify address; passing it on mails the new assignee, and neither unassigning it, nor
// changing its status, nor giving it to the member it already has, sends anything.
func TestLeadAssignedByHandIsMailedToTheAssignee(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	anna, err := e.store.CreateUser(ctx, e.company, "anna@ceg.example", user.Member, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	bela, err := e.store.CreateUser(ctx, e.company, "bela@ceg.example", user.Member, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := mailEnv(t, e)
	id := e.lead() // no notify address, no endpoint: its creation mails no one
	e.quiet()
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("%d messages before any assignment", n)
	}

	assign := func(who uuid.UUID, status lead.Status) {
		t.Helper()
		u := lead.Update{Status: status, Assign: who != uuid.Nil || status == "", Assignee: who}
		if err := e.store.UpdateLead(ctx, e.company, id, u, lead.OriginDashboard); err != nil {
			t.Fatal(err)
		}
	}
	assign(anna.ID, "")
	msgs := waitMessages(t, srv, 1)
	if got := msgs[0].To; len(got) != 1 || got[0] != "anna@ceg.example" {
		t.Fatalf("the assignment mailed %v, want anna", got)
	}
	if !strings.Contains(msgs[0].Parts["text/plain"], id.String()) {
		t.Errorf("anna's e-mail does not link the lead:\n%s", msgs[0].Parts["text/plain"])
	}

	assign(anna.ID, lead.StatusContacted) // the same assignee and a status: no e-mail
	assign(uuid.Nil, "")                  // unassigned: no e-mail
	// Bela is a confirmed notify address too; the assignment still tells him the lead is his.
	// The address is stored confirmed: set through SetNotifyEmails, its confirmation e-mail
	// could go out before the test confirmed it, a message this test does not count on.
	if _, err := e.store.DB().Exec(`INSERT INTO notify_emails (company_id, email, confirmed_at) VALUES ($1, 'bela@ceg.example', now())`, e.company); err != nil {
		t.Fatal(err)
	}
	assign(bela.ID, "")
	e.quiet()
	msgs = srv.Messages()
	var to []string
	for _, m := range msgs {
		to = append(to, m.To...)
	}
	if want := []string{"anna@ceg.example", "bela@ceg.example"}; strings.Join(to, " ") != strings.Join(want, " ") {
		t.Errorf("messages to %v, want %v", to, want)
	}
}
