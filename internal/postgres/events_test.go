package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// recorded is an event as the outbox holds it: whether it was written by the transaction that
// last wrote its lead (lead.erased: holds no lead), whether its lead is still there, whether a
// dispatch job enqueued by that transaction or before it is waiting (no worker runs here), and,
// once dispatched, how many deliveries and delivery jobs it has.
type recorded struct {
	Type            string
	LeadID          uuid.UUID
	SameTx          bool
	HasLead         bool
	DispatchWaiting bool
	Webhooks        int
	Emails          int
	Jobs            int
}

// events dispatches the company's recorded events, as the dispatch jobs would (twice: the
// second does nothing), and returns them.
func events(t *testing.T, s *postgres.Store, companyID uuid.UUID) []recorded {
	t.Helper()
	before := readEvents(t, s, companyID)
	for range 2 {
		if _, err := s.DispatchEvents(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	after := readEvents(t, s, companyID)
	for i := range after {
		after[i].SameTx, after[i].DispatchWaiting = before[i].SameTx, before[i].DispatchWaiting
	}
	return after
}

func readEvents(t *testing.T, s *postgres.Store, companyID uuid.UUID) []recorded {
	t.Helper()
	rows, err := s.DB().Query(`
SELECT e.type, e.lead_id,
       coalesce(e.xmin = (SELECT l.xmin FROM leads l WHERE l.id = e.lead_id), e.type = 'lead.erased'),
       EXISTS (SELECT FROM leads l WHERE l.id = e.lead_id),
       EXISTS (SELECT FROM river_job j WHERE j.kind = 'dispatch_events' AND j.queue = 'event_dispatch'
               AND j.state = 'available' AND j.created_at <= e.created_at),
       (SELECT count(*) FROM event_deliveries d WHERE d.event_id = e.id AND d.endpoint_id IS NOT NULL),
       (SELECT count(*) FROM event_deliveries d WHERE d.event_id = e.id AND d.email IS NOT NULL),
       (SELECT count(*) FROM river_job j JOIN event_deliveries d ON j.args->>'delivery_id' = d.id::text
        WHERE d.event_id = e.id AND j.kind = 'event_delivery')
FROM `+pgtest.Events+`
WHERE e.company_id = $1 ORDER BY e.created_at, e.type, e.lead_id`, companyID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []recorded
	for rows.Next() {
		var r recorded
		if err := rows.Scan(&r.Type, &r.LeadID, &r.SameTx, &r.HasLead, &r.DispatchWaiting, &r.Webhooks, &r.Emails, &r.Jobs); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func endpoint(t *testing.T, s *postgres.Store, companyID uuid.UUID, types ...event.Type) event.Endpoint {
	t.Helper()
	ep, err := s.CreateEndpoint(context.Background(), companyID, "https://hooks.example.com/"+companyID.String(), types,
		"whsec_MDEyMzQ1Njc4OWFiY2RlZg==")
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// Every change of a lead records its event in its own transaction, on every path: the grouped
// writer, an idempotent create, a chat turn that creates the lead or changes its contact, a
// status change, an erasure. An event goes to the endpoints that take its type and, when it is
// lead.created, to the notify addresses; a company with nowhere to send records nothing.
func TestEventsRecordedWithTheirChange(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b, c := company(t, s, "A"), company(t, s, "B"), company(t, s, "C")
	endpoint(t, s, a)
	endpoint(t, s, b, event.LeadUpdated)
	if err := s.SetNotifyEmails(ctx, a, []string{"sales@a.example", "boss@a.example"}); err != nil {
		t.Fatal(err)
	}
	confirmEmails(t, s, a, "sales@a.example", "boss@a.example")

	// The grouped writer: one statement for the three companies' leads.
	la, lb, lc := newLead("Anna"), newLead("Béla"), newLead("Cili")
	var group []postgres.GroupCreate
	for _, x := range []struct {
		company uuid.UUID
		l       lead.Lead
	}{{a, la}, {b, lb}, {c, lc}} {
		group = append(group, postgres.GroupCreate{Ctx: ctx, CompanyID: x.company, Lead: x.l})
	}
	if _, errs := postgres.StoreGroup(s, group); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	created := recorded{Type: "lead.created", SameTx: true, HasLead: true, DispatchWaiting: true, Webhooks: 1, Emails: 2, Jobs: 3}
	want := []recorded{withLead(created, la.ID)}
	// check compares company A's events with want; SameTx is checked for the events of the
	// step only, as a later step may write their lead again.
	checked := 0
	check := func(step string) {
		t.Helper()
		got := events(t, s, a)
		for i := 0; i < checked && i < len(got); i++ {
			want[i].SameTx, want[i].DispatchWaiting = got[i].SameTx, got[i].DispatchWaiting
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: company A's events (-want +got):\n%s", step, diff)
		}
		checked = len(want)
	}
	check("grouped create")

	// An idempotent create, in its own transaction.
	li := newLead("Ida")
	if _, err := s.CreateLead(ctx, a, li, nil, &lead.Idempotency{Key: "k1"}); err != nil {
		t.Fatal(err)
	}
	want = append(want, withLead(created, li.ID))
	if _, err := s.CreateLead(ctx, a, li, nil, &lead.Idempotency{Key: "k1"}); err != nil {
		t.Fatal(err)
	}
	check("idempotent create and its replay")

	// A chat turn that creates the session's lead, then one that changes its email, then one
	// whose change is no change.
	lch := lead.Lead{ID: uuid.New(), Email: "chat@example.hu", Source: lead.SourceChat}
	session := chat.Session{ID: "session-events-0123456789", Contact: chat.Contact{Email: lch.Email}}
	if _, err := s.SaveTurn(ctx, a, chat.Write{Session: session, Message: "szia", NewLead: &lch}); err != nil {
		t.Fatal(err)
	}
	want = append(want, withLead(created, lch.ID))
	check("chat turn that creates the lead")
	session.Version, session.LeadID = 1, &lch.ID
	session.Contact.Email = "uj@example.hu"
	if _, err := s.SaveTurn(ctx, a, chat.Write{Session: session, Message: "bocs, elírtam: uj@example.hu",
		Changes: []lead.Change{{Field: lead.FieldEmail, Value: "uj@example.hu", Origin: lead.OriginText}}}); err != nil {
		t.Fatal(err)
	}
	updated := recorded{Type: "lead.updated", SameTx: true, HasLead: true, DispatchWaiting: true, Webhooks: 1, Jobs: 1}
	want = append(want, withLead(updated, lch.ID))
	check("chat turn that changes the contact")
	session.Version = 2
	if _, err := s.SaveTurn(ctx, a, chat.Write{Session: session, Message: "még egyszer: uj@example.hu",
		Changes: []lead.Change{{Field: lead.FieldEmail, Value: "uj@example.hu", Origin: lead.OriginText}}}); err != nil {
		t.Fatal(err)
	}
	check("chat turn that changes nothing")

	// Status changes; moving to the status it has is no change.
	for _, st := range []lead.Status{lead.StatusContacted, lead.StatusContacted} {
		if err := s.SetLeadStatus(ctx, a, la.ID, st, lead.OriginCLI); err != nil {
			t.Fatal(err)
		}
	}
	want = append(want, withLead(updated, la.ID))
	check("status change")

	// Erasure: lead.erased without personal data; the earlier events of the lead have no lead
	// left to send.
	if err := postgres.Erase(s, a, []uuid.UUID{li.ID}); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if want[i].LeadID == li.ID {
			want[i].HasLead = false
		}
	}
	want = append(want, recorded{Type: "lead.erased", LeadID: li.ID, SameTx: true, DispatchWaiting: true, Webhooks: 1, Jobs: 1})
	check("erasure")

	// Company B's endpoint takes lead.updated only; company C has nowhere to send.
	if err := s.SetLeadStatus(ctx, b, lb.ID, lead.StatusWon, lead.OriginCLI); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]recorded{withLead(recorded{Type: "lead.updated", SameTx: true, HasLead: true, DispatchWaiting: true, Webhooks: 1, Jobs: 1}, lb.ID)},
		events(t, s, b)); diff != "" {
		t.Errorf("company B (-want +got):\n%s", diff)
	}
	if got := events(t, s, c); len(got) != 0 {
		t.Errorf("company C recorded %v", got)
	}
}

func withLead(r recorded, id uuid.UUID) recorded { r.LeadID = id; return r }

// The delivery side: a delivery reads back with its event's lead as the change left it, its
// attempts are recorded, a 410 disables the endpoint (which then gets no new events), and a
// settled delivery can be sent again. Another company sees none of it.
func TestDeliveryLifecycle(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	ep := endpoint(t, s, a)
	l := newLead("Anna")
	if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	events(t, s, a) // dispatched
	list, err := s.Deliveries(ctx, a, ep.ID, 10)
	if err != nil || len(list) != 1 || list[0].State != event.Pending || list[0].Type != event.LeadCreated || list[0].LeadID != l.ID {
		t.Fatalf("deliveries = %+v, %v", list, err)
	}
	id := list[0].ID
	d, err := s.Delivery(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	if d.Endpoint == nil || d.Endpoint.URL != ep.URL || d.Event.Lead == nil || d.Event.Lead.FirstName != "Anna" ||
		d.Event.Lead.Note != "hívjanak" || d.Event.Lead.Status != "new" || d.Event.Lead.ID != l.ID || d.Event.Lead.SessionID != "" {
		t.Errorf("delivery = %+v, lead %+v", d, d.Event.Lead)
	}

	// Tenant isolation: company B reaches neither the delivery nor the endpoint.
	if _, err := s.Delivery(ctx, b, id); !errs.Is(err, errs.NotFound) {
		t.Errorf("B reads A's delivery: %v", err)
	}
	if got, err := s.Deliveries(ctx, b, ep.ID, 10); err != nil || len(got) != 0 {
		t.Errorf("B lists A's deliveries: %v, %v", got, err)
	}
	for name, err := range map[string]error{
		"redeliver": s.Redeliver(ctx, b, id),
		"remove":    s.RemoveEndpoint(ctx, b, ep.ID),
	} {
		if !errs.Is(err, errs.NotFound) {
			t.Errorf("B's %s of A's: %v", name, err)
		}
	}
	if _, err := s.Endpoint(ctx, b, ep.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("B reads A's endpoint: %v", err)
	}
	if eps, _ := s.Endpoints(ctx, b); len(eps) != 0 {
		t.Errorf("B lists %v", eps)
	}

	// A failed attempt, then a 410.
	sched := event.Schedule{time.Minute}
	r := event.Result{Status: 500, Response: "oops"}
	if _, err := s.RecordAttempt(ctx, a, id, true, r, sched.Decide(1, r), event.Held{}); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(s.Redeliver(ctx, a, id), event.ErrPending) {
		t.Error("a pending delivery was queued again")
	}
	gone := event.Result{Status: 410}
	if _, err := s.RecordAttempt(ctx, a, id, true, gone, sched.Decide(2, gone), event.Held{}); err != nil {
		t.Fatal(err)
	}
	list, _ = s.Deliveries(ctx, a, ep.ID, 10)
	if len(list) != 1 || list[0].State != event.Failed || list[0].Attempts != 2 || *list[0].LastStatus != 410 {
		t.Errorf("after a 410: %+v", list)
	}
	if got, _ := s.Endpoint(ctx, a, ep.ID); got.DisabledAt == nil || got.DisabledReason != "answered 410" {
		t.Errorf("endpoint after a 410: %+v", got)
	}
	if _, err := s.CreateLead(ctx, a, newLead("Béla"), nil, nil); err != nil {
		t.Fatal(err)
	}
	events(t, s, a)
	if list, _ = s.Deliveries(ctx, a, ep.ID, 10); len(list) != 1 {
		t.Errorf("a disabled endpoint got a new delivery: %+v", list)
	}

	// Redelivery: pending again with a fresh schedule and a new job.
	if err := s.Redeliver(ctx, a, id); err != nil {
		t.Fatal(err)
	}
	var jobs int
	if err := s.DB().QueryRow(`SELECT count(*) FROM river_job WHERE args->>'delivery_id' = $1`, id.String()).Scan(&jobs); err != nil || jobs != 2 {
		t.Errorf("jobs for the delivery: %d, %v", jobs, err)
	}
	if d, _ := s.Delivery(ctx, a, id); d.State != event.Pending || d.Attempts != 0 {
		t.Errorf("after redeliver: %+v", d)
	}

	// Rotation keeps the old secret for the grace period.
	rot, err := s.RotateSecret(ctx, a, ep.ID, "whsec_bmV3bmV3bmV3bmV3bmV3bg==", time.Hour)
	if err != nil || rot.PreviousSecret != ep.Secret || len(rot.Secrets(time.Now())) != 2 || len(rot.Secrets(time.Now().Add(2*time.Hour))) != 1 {
		t.Errorf("rotated = %+v, %v", rot, err)
	}
	if err := s.RemoveEndpoint(ctx, a, ep.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delivery(ctx, a, id); !errs.Is(err, errs.NotFound) {
		t.Errorf("a removed endpoint's delivery: %v", err)
	}
}

// An attempt that read a lead before its erasure and got the receiver's answer after it stores
// no answer or error (the receiver may have echoed the person back); a lead.erased event's
// delivery, which carries no one's details, keeps its answer.
func TestAttemptAfterErasureKeepsNoAnswer(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	ep := endpoint(t, s, a)
	l := newLead("Anna")
	if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	events(t, s, a)
	list, err := s.Deliveries(ctx, a, ep.ID, 10)
	if err != nil || len(list) != 1 {
		t.Fatalf("deliveries = %+v, %v", list, err)
	}
	created := list[0].ID
	if _, err := s.Delivery(ctx, a, created); err != nil { // the attempt reads the lead
		t.Fatal(err)
	}
	if n, err := s.EraseLeads(ctx, a, []uuid.UUID{l.ID}); err != nil || n != 1 {
		t.Fatalf("erased %d, %v", n, err)
	}
	events(t, s, a)
	echo := event.Result{Status: 500, Response: `{"first_name":"Anna"}`, Err: "HTTP 500 Anna"}
	sched := event.Schedule{time.Minute}
	if _, err := s.RecordAttempt(ctx, a, created, true, echo, sched.Decide(1, echo), event.Held{}); err != nil {
		t.Fatal(err)
	}
	list, err = s.Deliveries(ctx, a, ep.ID, 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("deliveries after the erasure = %+v, %v; want lead.created's and lead.erased's", list, err)
	}
	for _, d := range list {
		if d.Type == event.LeadErased {
			ok := event.Result{Status: 200, Response: "megkaptuk"}
			if _, err := s.RecordAttempt(ctx, a, d.ID, true, ok, sched.Decide(1, ok), event.Held{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var rows []struct {
		Type     string         `db:"type"`
		Status   sql.NullInt64  `db:"last_status"`
		Response sql.NullString `db:"last_response"`
		Error    sql.NullString `db:"last_error"`
	}
	if err := sqlx.NewDb(s.DB(), "postgres").Select(&rows, `SELECT e.type, d.last_status, d.last_response, d.last_error
		FROM event_deliveries d JOIN lead_events e ON e.id = d.event_id WHERE d.company_id = $1 ORDER BY e.type`, a); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Type != "lead.created" || rows[0].Response.Valid || rows[0].Error.Valid || rows[0].Status.Int64 != 500 {
		t.Errorf("lead.created's delivery after the erasure: %+v; want status 500 and no answer or error", rows)
	}
	if len(rows) == 2 && (rows[1].Type != "lead.erased" || rows[1].Response.String != "megkaptuk") {
		t.Errorf("lead.erased's delivery: %+v; want its answer kept", rows[1])
	}
}

// An attempt's record with nothing of the receiver's to keep (a 2xx with an empty body, most
// deliveries) neither locks the event's lead nor waits for a transaction that holds it (an
// erasure); one with an answer still waits, so that an erasure at the same time clears it.
func TestRecordWithoutAnswerLocksNoLead(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	ep := endpoint(t, s, a)
	l := newLead("Anna")
	if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateLead(ctx, a, newLead("Béla"), nil, nil); err != nil {
		t.Fatal(err)
	}
	events(t, s, a)
	list, err := s.Deliveries(ctx, a, ep.ID, 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("deliveries = %+v, %v", list, err)
	}
	var annas, belas uuid.UUID
	for _, d := range list {
		if d.LeadID == l.ID {
			annas = d.ID
		} else {
			belas = d.ID
		}
	}
	// Both leads held as an erasure holds them, until the end of the test.
	tx, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT FROM leads WHERE company_id = $1 FOR UPDATE`, a); err != nil {
		t.Fatal(err)
	}
	sched := event.Schedule{time.Minute}
	// record runs RecordAttempt and reports whether it finished before its statement was seen
	// waiting for a lock.
	record := func(id uuid.UUID, r event.Result) (waited bool) {
		done := make(chan error, 1)
		go func() {
			_, err := s.RecordAttempt(ctx, a, id, true, r, sched.Decide(1, r), event.Held{})
			done <- err
		}()
		for give := time.Now().Add(time.Minute); time.Now().Before(give); time.Sleep(5 * time.Millisecond) {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				return false
			default:
			}
			var n int
			if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR KEY SHARE%'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				return true
			}
		}
		t.Fatal("the record neither finished nor waited in a minute")
		return false
	}
	if record(annas, event.Result{Status: 204}) {
		t.Error("a 204 with no body waited for the lead's lock")
	}
	if d, err := s.Delivery(ctx, a, annas); err != nil || d.State != event.Delivered || d.Attempts != 1 {
		t.Errorf("the 204's delivery: %+v, %v; want delivered after 1 attempt", d, err)
	}
	if !record(belas, event.Result{Status: 200, Response: "megkaptuk"}) {
		t.Error("a 200 with an answer did not wait for the lead's lock")
	}
}

// The daily purge deletes the events past the retention whose deliveries are all settled, with
// their delivery logs, and keeps the rest.
func TestPurgeEvents(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	ep := endpoint(t, s, a)
	for _, name := range []string{"old and settled", "old and pending", "new"} {
		if _, err := s.CreateLead(ctx, a, newLead(name), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	events(t, s, a)
	if _, err := s.DB().Exec(`
UPDATE lead_events e SET created_at = now() - interval '40 days'
FROM leads l WHERE l.id = e.lead_id AND l.first_name LIKE 'old%'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(`
UPDATE event_deliveries d SET state = 'delivered'
FROM lead_events e JOIN leads l ON l.id = e.lead_id WHERE e.id = d.event_id AND l.first_name <> 'old and pending'`); err != nil {
		t.Fatal(err)
	}
	n, err := s.PurgeEvents(ctx, 30*24*time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("purged %d, %v; want 1", n, err)
	}
	if list, _ := s.Deliveries(ctx, a, ep.ID, 10); len(list) != 2 {
		t.Errorf("deliveries left: %+v", list)
	}
}

// A statement enqueues a dispatch job only when none is waiting, and one dispatch takes every
// event not yet dispatched, whichever statement recorded it.
func TestOneDispatchJobWaits(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	endpoint(t, s, a)
	for range 3 {
		if _, err := s.CreateLead(ctx, a, newLead("Anna"), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	var waiting int
	if err := s.DB().QueryRow(`SELECT count(*) FROM river_job WHERE kind = 'dispatch_events' AND queue = 'event_dispatch' AND state = 'available'`).Scan(&waiting); err != nil {
		t.Fatal(err)
	}
	if waiting != 1 {
		t.Errorf("%d dispatch jobs waiting after three creates, want 1", waiting)
	}
	if n, err := s.DispatchEvents(ctx); err != nil || n != 3 {
		t.Errorf("DispatchEvents made %d deliveries (%v), want 3", n, err)
	}
	if n, err := s.DispatchEvents(ctx); err != nil || n != 0 {
		t.Errorf("a second DispatchEvents made %d deliveries (%v), want 0", n, err)
	}
}

// Migration 12 moves the events not yet dispatched into the outbox and keeps the dispatched
// ones in lead_events; rolled back, both are in lead_events again, flagged as they were.
func TestOutboxMigrationKeepsTheBacklog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sql.Open("postgres", pgtest.NewDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := postgres.MigrateTo(ctx, db, 11); err != nil {
		t.Fatal(err)
	}
	done, waiting, company, lead := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	if _, err := db.Exec(`INSERT INTO lead_events (id, company_id, lead_id, type, dispatched) VALUES
		($1, $3, $4, 'lead.created', true), ($2, $3, $4, 'lead.updated', false)`, done, waiting, company, lead); err != nil {
		t.Fatal(err)
	}
	ids := func(table string) []uuid.UUID {
		t.Helper()
		var out []uuid.UUID
		if err := sqlx.NewDb(db, "postgres").Select(&out, `SELECT id FROM `+table+` ORDER BY type`); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, step := range []struct {
		version      int64
		table, stage string
		want         uuid.UUID
	}{
		{12, "event_outbox", "in the outbox after migration 12", waiting},
		{12, "lead_events", "in lead_events after migration 12", done},
		{11, "lead_events WHERE NOT dispatched", "undispatched after rolling back", waiting},
		{11, "lead_events WHERE dispatched", "dispatched after rolling back", done},
	} {
		if err := postgres.MigrateTo(ctx, db, step.version); err != nil {
			t.Fatal(err)
		}
		if got := ids(step.table); !slices.Equal(got, []uuid.UUID{step.want}) {
			t.Errorf("%s: %v, want %v", step.stage, got, step.want)
		}
	}
}

// Dispatchers running at once (several instances) share the backlog, batch after batch: every
// event of the outbox gets exactly one delivery per target and moves to lead_events once.
func TestDispatchersShareTheBacklog(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	endpoint(t, s, a)
	const events = 2500 // more than two of DispatchEvents' batches
	if _, err := s.DB().Exec(`INSERT INTO event_outbox (id, company_id, lead_id, type)
		SELECT outbox_id(), $1, gen_random_uuid(), 'lead.updated' FROM generate_series(1, $2::int)`, a, events); err != nil {
		t.Fatal(err)
	}
	made := make([]int, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range made {
		wg.Go(func() { made[i], errs[i] = s.DispatchEvents(ctx) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if made[0]+made[1]+made[2] != events {
		t.Errorf("the dispatchers made %v deliveries, %d in all; want %d", made, made[0]+made[1]+made[2], events)
	}
	var left, moved, twice int
	if err := s.DB().QueryRow(`SELECT (SELECT count(*) FROM event_outbox), (SELECT count(*) FROM lead_events),
		(SELECT count(*) FROM (SELECT event_id FROM event_deliveries GROUP BY event_id HAVING count(*) <> 1) d)`).Scan(&left, &moved, &twice); err != nil {
		t.Fatal(err)
	}
	if left != 0 || moved != events || twice != 0 {
		t.Errorf("after dispatch: %d events left in the outbox, %d in lead_events, %d with other than one delivery; want 0, %d, 0",
			left, moved, twice, events)
	}
}

// confirmEmails confirms a company's notify addresses as their links would.
func confirmEmails(t *testing.T, s *postgres.Store, companyID uuid.UUID, emails ...string) {
	t.Helper()
	for _, e := range emails {
		hash := event.ConfirmHash("link of " + e)
		if _, err := s.IssueConfirmToken(context.Background(), companyID, e, hash); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ConfirmNotifyEmail(context.Background(), hash); err != nil {
			t.Fatal(err)
		}
	}
}

// A delivery's job adds no entry to River's index on kinds, whose writes each cost a WAL record
// and a descent of the index (the dispatch's insert, a claim, a completion): nothing asks for
// the delivery jobs by kind. River's own jobs stay in it.
func TestDeliveryJobsSkipTheKindIndex(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	endpoint(t, s, a)
	for range 5 {
		if _, err := s.CreateLead(ctx, a, newLead("Anna"), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	events(t, s, a)
	if _, err := s.DB().ExecContext(ctx, `INSERT INTO river_job (kind, queue, max_attempts, args)
		VALUES ('retention', 'event_delivery', 25, '{}')`); err != nil {
		t.Fatal(err)
	}
	var jobs, entries int
	if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE kind = 'event_delivery'`).Scan(&jobs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, `CREATE EXTENSION IF NOT EXISTS pgstattuple`); err != nil {
		t.Fatal(err)
	}
	if err := s.DB().QueryRowContext(ctx, `SELECT tuple_count FROM pgstattuple('river_job_kind')`).Scan(&entries); err != nil {
		t.Fatal(err)
	}
	if jobs != 5 || entries != 1 {
		t.Errorf("%d delivery jobs, %d entries in river_job_kind; want 5 jobs and the retention job's entry alone", jobs, entries)
	}
}
