package delivery_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	leadmail "github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/webhook"
)

// hanging is a receiver that never answers: it holds each request until the sender gives up,
// and counts how many it holds at once.
type hanging struct {
	mu        sync.Mutex
	now, most int
	srv       *httptest.Server
	done      chan struct{}
}

func newHanging(t *testing.T) *hanging {
	h := &hanging{done: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read to the end, so that the server notices the sender giving up (and ends the
		// request's context) when it closes the connection.
		_, _ = io.Copy(io.Discard, r.Body)
		h.mu.Lock()
		h.now++
		h.most = max(h.most, h.now)
		h.mu.Unlock()
		select {
		case <-r.Context().Done():
		case <-h.done:
		}
		h.mu.Lock()
		h.now--
		h.mu.Unlock()
	}))
	t.Cleanup(func() { close(h.done); h.srv.Close() })
	return h
}

func (h *hanging) held() (now, most int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now, h.most
}

// One company's never-answering endpoints hold at most limits.DeliveriesInFlight of the
// workers; another company's webhook and e-mail go out at once beside them, though the
// first's backlog is larger than all the workers.
func TestCompaniesDeliverFairly(t *testing.T) {
	e := newEnv(t)
	e.timeout = 3 * time.Second // an attempt to the hanging endpoints holds its worker this long
	ctx := context.Background()
	hang := newHanging(t)
	for i := range limits.WebhookEndpoints {
		e.endpoint(hang.srv.URL + "/" + string(rune('a'+i)))
	}
	for range 2 {
		e.lead() // 2 × 10 deliveries, more than the 8 workers
	}

	other, err := e.store.CreateCompany(ctx, "Másik Kft.", plan.Business, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan time.Time, 1)
	healthy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- time.Now()
	}))
	t.Cleanup(healthy.Close)
	secret, _ := webhook.NewSecret()
	if _, err := e.store.CreateEndpoint(ctx, other.ID, healthy.URL, nil, secret); err != nil {
		t.Fatal(err)
	}
	smtp := mailtest.Start(t)
	server, err := leadmail.ParseURL(smtp.URL())
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.SetNotifyEmails(ctx, other.ID, []string{"sales@example.com"}); err != nil {
		t.Fatal(err)
	}
	e.start(event.Schedule{time.Hour}, leadmail.NewSender(server, "noreply@leads.example.com", "https://leads.example.com"))
	confirmByMail(t, e, smtp, "sales@example.com")

	// Wait until the first company holds every slot it may.
	deadline := time.Now().Add(10 * time.Second)
	for now, _ := hang.held(); now < limits.DeliveriesInFlight; now, _ = hang.held() {
		if time.Now().After(deadline) {
			t.Fatalf("the hanging endpoints hold %d attempts, want %d", now, limits.DeliveriesInFlight)
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	l := lead.Lead{ID: uuid.New(), FirstName: "Nagy Béla", Email: "bela@example.hu", Source: lead.SourceForm}
	if _, err := e.store.CreateLead(ctx, other.ID, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-got:
		if wait := at.Sub(start); wait > 2*time.Second {
			t.Errorf("the other company's webhook took %v", wait)
		}
	case <-time.After(e.timeout):
		t.Fatalf("the other company's webhook waited longer than an attempt to the hanging endpoints (%v)", e.timeout)
	}
	for len(smtp.Messages()) < 2 { // the confirmation, then the lead
		if time.Since(start) > e.timeout {
			t.Fatalf("the other company's e-mail waited longer than an attempt to the hanging endpoints (%v)", e.timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, most := hang.held(); most != limits.DeliveriesInFlight {
		t.Errorf("the hanging endpoints held up to %d attempts at once, want %d", most, limits.DeliveriesInFlight)
	}
}

// confirmByMail waits for the confirmation message to address and follows its link, as its
// reader would.
func confirmByMail(t *testing.T, e *env, smtp *mailtest.Server, address string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, m := range smtp.Messages() {
			if m.To[0] != address {
				continue
			}
			link := confirmLink.FindStringSubmatch(m.Parts["text/plain"])
			if link == nil {
				t.Fatalf("the confirmation has no link:\n%s", m.Parts["text/plain"])
			}
			if _, _, err := e.store.ConfirmNotifyEmail(context.Background(), event.ConfirmHash(link[1])); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no confirmation message to %s", address)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var confirmLink = regexp.MustCompile(`https://leads\.example\.com/app/notify/confirm/([A-Za-z0-9_-]+)`)

// A worker runs its company's waiting deliveries one after another in the slot it holds for a
// second of attempts, each claimed by the record of the one before, not fetched by River: with
// one slot and attempts of 270 ms, three deliveries are one fetch and two claims. (The chain
// ended after 250 ms, and the third was handed back to River and fetched.)
func TestChainRunsASecondOfAttempts(t *testing.T) {
	e := newEnv(t)
	e.timeout, e.inFlight = 5*time.Second, 1
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		time.Sleep(270 * time.Millisecond)
		w.WriteHeader(http.StatusNoContent)
	})
	e.endpoint(rc.srv.URL)
	// The company's slot made (and left free), so the burst's second and third wait in its line.
	if _, _, _, err := e.store.TakeSlot(context.Background(), e.company, 0, 1, 0); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		e.lead()
	}
	e.start(event.Schedule{time.Hour}, nil)
	e.quiet()
	if n := len(rc.got()); n != 3 {
		t.Fatalf("the receiver got %d requests, want 3", n)
	}
	// A job River fetched is kept completed; one a chain claimed is deleted with its record.
	var fetched int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM river_job WHERE kind = $1`, event.DeliveryJobKind).Scan(&fetched); err != nil {
		t.Fatal(err)
	}
	if fetched != 1 {
		t.Errorf("River fetched %d of the 3 deliveries' jobs, want 1 (the rest claimed by the chain)", fetched)
	}
}

// A burst of one company's deliveries to a prompt endpoint drains, every one delivered once,
// never more than limits.DeliveriesInFlight at a time, across two instances.
func TestBurstDrainsWithinTheBound(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	now, most, got := 0, 0, map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		now++
		most = max(most, now)
		got[r.Header.Get("webhook-id")]++
		mu.Unlock()
		time.Sleep(20 * time.Millisecond) // a receiver's work
		mu.Lock()
		now--
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	for i := range 3 {
		e.endpoint(srv.URL + "/" + string(rune('a'+i)))
	}
	const leads = 20
	for range leads {
		e.lead()
	}
	e.start(event.Schedule{time.Hour}, nil)
	e.start(event.Schedule{time.Hour}, nil)
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 3*leads {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d deliveries arrived", n, 3*leads)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if most > limits.DeliveriesInFlight {
		t.Errorf("%d attempts at once, want at most %d", most, limits.DeliveriesInFlight)
	}
	for id, n := range got {
		if n != 1 {
			t.Errorf("delivery %s arrived %d times", id, n)
		}
	}
}

// A receiver answering a MiB of headers fails the attempt unread: the delivery log says why,
// and keeps no answer; a long body is kept cut at limits.ReceiverBodyBytes, with a note.
func TestOversizedAnswersRecorded(t *testing.T) {
	e := newEnv(t)
	headers := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		for i := range 1024 {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("h", 1024))
		}
		w.WriteHeader(http.StatusOK)
	})
	body := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, strings.Repeat("b", 1<<20))
	})
	epHeaders, epBody := e.endpoint(headers.srv.URL), e.endpoint(body.srv.URL)
	e.start(event.Schedule{time.Millisecond}, nil) // one retry, then failed
	e.lead()
	d := e.settled(epHeaders)
	if d.State != event.Failed || d.LastStatus != nil || d.LastResponse != "" ||
		d.LastError != fmt.Sprintf("the answer's headers are larger than %d KiB: refused unread", limits.ReceiverHeaderBytes>>10) {
		t.Errorf("1 MiB of headers: %+v", d)
	}
	d = e.settled(epBody)
	if d.State != event.Failed || d.LastStatus == nil || *d.LastStatus != http.StatusBadGateway ||
		d.LastResponse != strings.Repeat("b", limits.ReceiverBodyBytes)+fmt.Sprintf("\n[cut: the answer was longer than %d bytes]", limits.ReceiverBodyBytes) {
		t.Errorf("1 MiB of body: state %s, status %v, kept %d bytes", d.State, d.LastStatus, len(d.LastResponse))
	}
}

// While one company's leads keep coming to never-answering endpoints, its backlog growing far
// past the workers, another company's webhooks keep arriving within moments of their leads:
// the first's waiting deliveries are set aside, not fetched again and again before the
// other's.
func TestFairBesideAGrowingBacklog(t *testing.T) {
	e := newEnv(t)
	e.timeout = 2 * time.Second
	e.workers = 64
	ctx := context.Background()
	hang := newHanging(t)
	for i := range limits.WebhookEndpoints {
		e.endpoint(hang.srv.URL + "/" + string(rune('a'+i)))
	}
	other, err := e.store.CreateCompany(ctx, "Másik Kft.", plan.Business, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	created, arrived := map[string]time.Time{}, map[string]time.Time{}
	healthy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Data struct {
				Lead struct {
					ID string `json:"lead_id"`
				} `json:"lead"`
			} `json:"data"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		arrived[body.Data.Lead.ID] = time.Now()
		mu.Unlock()
	}))
	t.Cleanup(healthy.Close)
	secret, _ := webhook.NewSecret()
	if _, err := e.store.CreateEndpoint(ctx, other.ID, healthy.URL, nil, secret); err != nil {
		t.Fatal(err)
	}
	e.start(event.Schedule{time.Hour}, nil)

	// 4 s of a hostile lead every 20 ms (10 deliveries each, 2,000 in all, of which the
	// hanging endpoints take 4 every 2 s) and a healthy one every 200 ms.
	for i := range 200 {
		e.lead()
		if i%10 == 0 {
			l := lead.Lead{ID: uuid.New(), FirstName: "Nagy Béla", Email: "bela@example.hu", Source: lead.SourceForm}
			at := time.Now()
			if _, err := e.store.CreateLead(ctx, other.ID, l, nil, nil); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			created[l.ID.String()] = at
			mu.Unlock()
		}
		time.Sleep(20 * time.Millisecond)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(arrived)
		mu.Unlock()
		if n == len(created) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the other company's %d webhooks arrived", n, len(created))
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	var waits []time.Duration
	for id, at := range created {
		waits = append(waits, arrived[id].Sub(at))
	}
	slices.Sort(waits)
	t.Logf("the other company's webhooks: median %v, slowest %v", waits[len(waits)/2], waits[len(waits)-1])
	if median, slowest := waits[len(waits)/2], waits[len(waits)-1]; median > 500*time.Millisecond || slowest > 2*time.Second {
		t.Errorf("the other company's webhooks beside the backlog: median %v, slowest %v; want under 500 ms and 2 s", median, slowest)
	}
	if _, most := hang.held(); most > limits.DeliveriesInFlight {
		t.Errorf("the hanging endpoints held up to %d attempts at once, want at most %d", most, limits.DeliveriesInFlight)
	}
}
