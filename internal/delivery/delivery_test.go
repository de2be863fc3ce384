package delivery_test

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/leadchat/leadchat/internal/delivery"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	leadmail "github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/webhook"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is a database with a company, and the delivery workers of one or more instances.
type env struct {
	t       *testing.T
	dsn     string
	store   *postgres.Store
	company uuid.UUID
	// now is the workers' clock; nil is time.Now.
	now func() time.Time
	// timeout bounds a webhook attempt; 0 is 300 ms.
	timeout time.Duration
	// workers is the delivery.Config's; 0 is 8.
	workers int
	// mailsPerDay, digestEvery and inFlight are the delivery.Config's; 0 takes its defaults.
	mailsPerDay int
	inFlight    int
	digestEvery time.Duration
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dsn := pgtest.NewDSN(t)
	ctx := context.Background()
	s, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := s.CreateCompany(ctx, "Teszt Kft.", plan.Business, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, dsn: dsn, store: s, company: c.ID}
}

// start runs the workers of one instance until the test ends.
func (e *env) start(schedule event.Schedule, mail delivery.Sender) {
	e.t.Helper()
	db, err := postgres.OpenPlain(e.dsn, 4)
	if err != nil {
		e.t.Fatal(err)
	}
	notices, _ := mail.(delivery.Notices)
	r, err := delivery.New(delivery.Config{DB: db, Store: e.store, Schedule: schedule, Mail: mail, Notices: notices,
		LeadMailsPerDay: e.mailsPerDay, DigestInterval: e.digestEvery, InFlight: e.inFlight,
		Webhooks:     webhook.NewSender(webhook.Options{AllowPrivate: true, Timeout: cmp.Or(e.timeout, 300*time.Millisecond)}),
		PollInterval: 50 * time.Millisecond, Workers: cmp.Or(e.workers, 8), Now: e.now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r.Stop(ctx)
		db.Close()
	})
}

func (e *env) endpoint(url string) event.Endpoint {
	e.t.Helper()
	secret, _ := webhook.NewSecret()
	ep, err := e.store.CreateEndpoint(context.Background(), e.company, url, nil, secret)
	if err != nil {
		e.t.Fatal(err)
	}
	return ep
}

func (e *env) lead() uuid.UUID {
	e.t.Helper()
	l := lead.Lead{ID: uuid.New(), FirstName: "Kovács Anna", Email: "anna@example.hu", Source: lead.SourceForm,
		Note: "Árajánlatot kérnék egy tetőfelújításra."}
	if _, err := e.store.CreateLead(context.Background(), e.company, l, nil, nil); err != nil {
		e.t.Fatal(err)
	}
	return l.ID
}

// settled waits for the endpoint's only delivery to be delivered or failed.
func (e *env) settled(ep event.Endpoint) event.Record {
	e.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ds, err := e.store.Deliveries(context.Background(), e.company, ep.ID, 10)
		if err != nil {
			e.t.Fatal(err)
		}
		if len(ds) == 1 && ds[0].State != event.Pending {
			return ds[0]
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("deliveries still %+v", ds)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// quiet waits until nothing is left to send: the outbox is empty and no dispatch or delivery
// job can run again. After it, a receiver gets no more requests, so a test counts them without
// waiting for a time in which nothing should arrive.
func (e *env) quiet() {
	e.t.Helper()
	const q = `SELECT (SELECT count(*) FROM event_outbox WHERE company_id = $1) + (SELECT count(*) FROM river_job
	WHERE kind IN ($2, $3) AND state NOT IN ('completed', 'cancelled', 'discarded'))`
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var left int
		if err := e.store.DB().QueryRow(q, e.company, event.DispatchJobKind, event.DeliveryJobKind).Scan(&left); err != nil {
			e.t.Fatal(err)
		}
		if left == 0 {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%d events and jobs still waiting", left)
		}
	}
}

// mailAttempted waits until every e-mail delivery of the lead's events has been attempted.
func (e *env) mailAttempted(leadID uuid.UUID) {
	e.t.Helper()
	const q = `SELECT count(*) FILTER (WHERE d.attempts = 0), count(*) FROM event_deliveries d
	JOIN lead_events ev ON ev.id = d.event_id
	WHERE d.company_id = $1 AND ev.lead_id = $2 AND d.email IS NOT NULL`
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var unattempted, all int
		if err := e.store.DB().QueryRow(q, e.company, leadID).Scan(&unattempted, &all); err != nil {
			e.t.Fatal(err)
		}
		if all > 0 && unattempted == 0 {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%d of %d e-mail deliveries not attempted", unattempted, all)
		}
	}
}

// hit is one request a receiver got.
type hit struct {
	at     time.Time
	header http.Header
	body   []byte
}

// receiver answers the nth request (from 0) with answer(n) and keeps every request.
type receiver struct {
	mu   sync.Mutex
	hits []hit
	srv  *httptest.Server
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		n := len(rc.hits)
		rc.hits = append(rc.hits, hit{time.Now(), r.Header.Clone(), b})
		rc.mu.Unlock()
		answer(n, w, r)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) got() []hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hit(nil), rc.hits...)
}

func status(codes ...int) func(int, http.ResponseWriter, *http.Request) {
	return func(n int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(codes[min(n, len(codes)-1)])
	}
}

// A failing endpoint is tried again after each wait of the schedule, with the same webhook-id
// and a valid signature every time, until it answers 2xx.
func TestRetriesFollowTheSchedule(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t, status(500, 503, 200))
	ep := e.endpoint(rc.srv.URL)
	e.start(event.Schedule{300 * time.Millisecond, 600 * time.Millisecond, time.Minute}, nil)
	e.lead()
	d := e.settled(ep)
	hits := rc.got()
	if d.State != event.Delivered || d.Attempts != 3 || len(hits) != 3 || *d.LastStatus != 200 {
		t.Fatalf("delivery %+v after %d requests", d, len(hits))
	}
	wh, _ := standardwebhooks.NewWebhook(ep.Secret)
	for i, h := range hits {
		if h.header.Get("webhook-id") != d.ID.String() {
			t.Errorf("attempt %d webhook-id %q, want %s", i+1, h.header.Get("webhook-id"), d.ID)
		}
		if err := wh.Verify(h.body, h.header); err != nil {
			t.Errorf("attempt %d: %v", i+1, err)
		}
	}
	for i, want := range []time.Duration{300 * time.Millisecond, 600 * time.Millisecond} {
		if gap := hits[i+1].at.Sub(hits[i].at); gap < want || gap > want+2*time.Second {
			t.Errorf("wait before attempt %d: %v, want %v (+ a poll)", i+2, gap, want)
		}
	}
}

// When the schedule is spent the delivery has failed, after one attempt more than the
// schedule has waits; a timeout counts as a failed attempt.
func TestFailsWhenTheScheduleIsSpent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			select { // longer than the sender's timeout
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		}
		w.WriteHeader(500)
	})
	ep := e.endpoint(rc.srv.URL)
	e.start(event.Schedule{100 * time.Millisecond, 100 * time.Millisecond}, nil)
	e.lead()
	d := e.settled(ep)
	if d.State != event.Failed || d.Attempts != 3 || len(rc.got()) != 3 || d.LastStatus == nil || *d.LastStatus != 500 {
		t.Errorf("delivery %+v after %d requests", d, len(rc.got()))
	}
	e.quiet()
	if n := len(rc.got()); n != 3 {
		t.Errorf("%d requests after the delivery failed", n)
	}
}

// A 410 fails the delivery at once and disables the endpoint: later events do not reach it.
func TestGoneDisablesTheEndpoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t, status(410))
	ep := e.endpoint(rc.srv.URL)
	e.start(event.Schedule{100 * time.Millisecond}, nil)
	e.lead()
	d := e.settled(ep)
	if d.State != event.Failed || d.Attempts != 1 {
		t.Errorf("delivery %+v", d)
	}
	got, _ := e.store.Endpoint(context.Background(), e.company, ep.ID)
	if got.DisabledAt == nil {
		t.Error("the endpoint is still enabled")
	}
	e.lead()
	e.quiet()
	if n := len(rc.got()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// A lead erased before its lead.created went out: that delivery is skipped with its reason,
// sends nothing, and leaves the endpoint active; lead.erased itself is delivered.
func TestEventOfAnErasedLeadIsSkipped(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, status(200))
	ep := e.endpoint(rc.srv.URL)
	id := e.lead()
	if n, err := e.store.EraseLeads(context.Background(), e.company, []uuid.UUID{id}); err != nil || n != 1 {
		t.Fatalf("erased %d, %v", n, err)
	}
	e.start(event.Schedule{100 * time.Millisecond}, nil)
	var ds []event.Record
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		ds, err = e.store.Deliveries(context.Background(), e.company, ep.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 2 && ds[0].State != event.Pending && ds[1].State != event.Pending {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries still %+v", ds)
		}
	}
	states := map[event.Type]event.Record{}
	for _, d := range ds {
		states[d.Type] = d
	}
	created, erased := states[event.LeadCreated], states[event.LeadErased]
	if created.State != event.Skipped || created.Attempts != 0 || !strings.Contains(created.LastError, "erased") {
		t.Errorf("lead.created delivery = %+v, want skipped with its reason", created)
	}
	if erased.State != event.Delivered {
		t.Errorf("lead.erased delivery = %+v, want delivered", erased)
	}
	got, err := e.store.Endpoint(context.Background(), e.company, ep.ID)
	if err != nil || got.Health() != event.Active {
		t.Errorf("endpoint = %+v (%v), want active", got, err)
	}
	if hits := rc.got(); len(hits) != 1 || !strings.Contains(string(hits[0].body), `"lead.erased"`) {
		t.Errorf("the receiver got %d messages, want lead.erased alone", len(hits))
	}
}

// A Retry-After longer than the schedule's wait puts the retry off that long.
func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 0 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	ep := e.endpoint(rc.srv.URL)
	e.start(event.Schedule{100 * time.Millisecond}, nil)
	e.lead()
	d := e.settled(ep)
	hits := rc.got()
	if d.State != event.Delivered || len(hits) != 2 {
		t.Fatalf("delivery %+v after %d requests", d, len(hits))
	}
	if gap := hits[1].at.Sub(hits[0].at); gap < 2*time.Second {
		t.Errorf("retried after %v despite Retry-After: 2", gap)
	}
}

// Several instances work one queue: each delivery is made once.
func TestInstancesShareTheQueue(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.timeout = 10 * time.Second // a slow machine's late answer is not a failed attempt here
	rc := newReceiver(t, status(200))
	ep := e.endpoint(rc.srv.URL)
	for range 3 {
		e.start(event.Schedule{time.Second}, nil)
	}
	const n = 60
	for range n {
		e.lead()
	}
	deadline := time.Now().Add(15 * time.Second)
	for len(rc.got()) < n && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	e.quiet()
	ids := map[string]int{}
	for _, h := range rc.got() {
		ids[h.header.Get("webhook-id")]++
	}
	if len(ids) != n || len(rc.got()) != n {
		t.Errorf("%d requests for %d distinct deliveries, want %d of each", len(rc.got()), len(ids), n)
	}
	ds, _ := e.store.Deliveries(context.Background(), e.company, ep.ID, 100)
	for _, d := range ds {
		if d.State != event.Delivered || d.Attempts != 1 {
			t.Errorf("delivery %+v", d)
		}
	}
}

// A new lead sends one e-mail to each notify address through the same outbox and retries: a
// mail server that refuses at first gets the message on a later attempt.
func TestNewLeadEmail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := mailtest.Start(t)
	srv.SetFail(true)
	server, err := leadmail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := e.store.SetNotifyEmails(ctx, e.company, []string{"sales@example.com", "boss@example.com"}); err != nil {
		t.Fatal(err)
	}
	e.start(event.Schedule{500 * time.Millisecond}, leadmail.NewSender(server, "noreply@leads.example.com", "https://leads.example.com"))
	srv.SetFail(false)
	confirmByMail(t, e, srv, "sales@example.com")
	confirmByMail(t, e, srv, "boss@example.com")
	srv.SetFail(true)
	id := e.lead()
	e.mailAttempted(id)
	srv.SetFail(false)
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.Messages()) < 4 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	e.quiet()
	msgs := srv.Messages()[2:] // after the two confirmations
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want 2", len(msgs))
	}
	to := map[string]bool{}
	for _, m := range msgs {
		to[m.To[0]] = true
		if !strings.Contains(m.Parts["text/plain"], "Árajánlatot kérnék") ||
			!strings.Contains(m.Parts["text/plain"], "https://leads.example.com/app/leads/"+id.String()) {
			t.Errorf("message:\n%s", m.Parts["text/plain"])
		}
	}
	if !to["sales@example.com"] || !to["boss@example.com"] {
		t.Errorf("sent to %v", to)
	}
}

var _ delivery.Sender = (*leadmail.Sender)(nil)
