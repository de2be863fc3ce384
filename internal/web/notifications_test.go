package web_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/webhook"
)

// withWebhooks lets webhooks reach the test's local receivers (http on 127.0.0.1), and retries
// a failed attempt after an hour, so a delivery that failed once stays pending for the test.
func withWebhooks(c *service.Config) {
	c.Events.AllowPrivate = true
	c.Events.Retry = event.Schedule{time.Hour}
}

// message is one webhook request a receiver took.
type message struct {
	ID, Timestamp, Signature string
	Body                     []byte
}

// receiver is a local webhook endpoint: it answers status and keeps what it was sent.
type receiver struct {
	t   *testing.T
	srv *httptest.Server
	mu  sync.Mutex
	got []message
}

func newReceiver(t *testing.T, status int) *receiver {
	rc := &receiver{t: t}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, message{ID: r.Header.Get("webhook-id"), Timestamp: r.Header.Get("webhook-timestamp"),
			Signature: r.Header.Get("webhook-signature"), Body: body})
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// wait waits for the receiver to have taken n messages and returns them.
func (rc *receiver) wait(n int) []message {
	rc.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		rc.mu.Lock()
		got := append([]message(nil), rc.got...)
		rc.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			rc.t.Fatalf("the receiver has %d messages, want %d", len(got), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// verify checks a message's signature with a Standard Webhooks library, as a receiver would.
func verify(t *testing.T, secret string, m message) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Set("webhook-id", m.ID)
	h.Set("webhook-signature", m.Signature)
	h.Set("webhook-timestamp", m.Timestamp)
	if err := wh.Verify(m.Body, h); err != nil {
		t.Errorf("message %s does not verify with %s…: %v", m.ID, secret[:10], err)
	}
}

var secretField = regexp.MustCompile(`id="secret" class="mono" readonly value="([^"]+)"`)

// shownSecret is the signing secret a page shows, "" when it shows none.
func shownSecret(body string) string {
	m := secretField.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// newLead stores a lead of the company through the one write path, which records its event.
func (f *fixture) newLead(t *testing.T, companyID uuid.UUID, email string) uuid.UUID {
	t.Helper()
	l := lead.Lead{ID: uuid.New(), FirstName: "Kovács Anna", Email: email, Source: lead.SourceForm, Note: "Napelemet szeretnék."}
	if _, err := f.store.CreateLead(context.Background(), companyID, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	return l.ID
}

// deliveries waits until the endpoint's deliveries are n, none pending unless pending allows,
// and returns them.
func (f *fixture) deliveries(t *testing.T, companyID, endpointID uuid.UUID, n int, pending bool) []event.Record {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // a company's four at a time, snoozed between turns
	for {
		ds, err := f.store.Deliveries(context.Background(), companyID, endpointID, 1000)
		if err != nil {
			t.Fatal(err)
		}
		settled := true
		for _, d := range ds {
			if d.State == event.Pending && (!pending || d.Attempts == 0) {
				settled = false
			}
		}
		if len(ds) == n && settled {
			return ds
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries, want %d settled", len(ds), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (f *fixture) endpoints(t *testing.T, companyID uuid.UUID) []event.Endpoint {
	t.Helper()
	eps, err := f.store.Endpoints(context.Background(), companyID)
	if err != nil {
		t.Fatal(err)
	}
	return eps
}

func TestNotificationsPage(t *testing.T) {
	t.Parallel()
	f := start(t, withWebhooks)
	owner := f.client(t)
	owner.login(f.owner)
	ok := newReceiver(t, http.StatusNoContent)

	if r := owner.get("/app/notifications"); r.status != http.StatusOK || !strings.Contains(r.body, "Még nincs webhookja") ||
		!strings.Contains(r.body, `href="/app/notifications" aria-current="page"`) {
		t.Fatalf("GET /app/notifications: %d\n%s", r.status, r.body)
	}

	t.Run("a bad address or event type is 422 and stores nothing", func(t *testing.T) {
		for _, form := range []url.Values{
			{"url": {"ftp://pelda.hu/hook"}},
			{"url": {"pelda.hu/hook"}},
			{"url": {"https://anna:titok@pelda.hu/hook"}},
			{"url": {"https://pelda.hu/hook"}, "event": {"lead.deleted"}},
			{"url": {"https://pelda.hu/" + strings.Repeat("a", 2040)}},
		} {
			r := owner.post("/app/notifications/webhooks", form)
			if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, `class="error" role="alert"`) || shownSecret(r.body) != "" {
				t.Errorf("adding %v: %d", form, r.status)
			}
			if !strings.Contains(r.body, `value="`+html.EscapeString(form.Get("url"))+`"`) {
				t.Errorf("adding %v: the form does not show the address back", form)
			}
		}
		if eps := f.endpoints(t, f.a.ID); len(eps) != 0 {
			t.Errorf("endpoints stored: %+v", eps)
		}
	})

	var secret string
	var ep event.Endpoint
	t.Run("add: the secret is shown once, the lead is delivered and signed", func(t *testing.T) {
		r := owner.post("/app/notifications/webhooks", url.Values{"url": {ok.srv.URL + "/hook"}, "event": {"lead.created", "lead.erased"}})
		secret = shownSecret(r.body)
		if r.status != http.StatusCreated || !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("adding: %d, secret %q", r.status, secret)
		}
		eps := f.endpoints(t, f.a.ID)
		if len(eps) != 1 || eps[0].URL != ok.srv.URL+"/hook" || len(eps[0].Events) != 2 || eps[0].Secret != secret {
			t.Fatalf("stored %+v", eps)
		}
		ep = eps[0]
		if r := owner.get("/app/notifications"); strings.Contains(r.body, secret) || !strings.Contains(r.body, ok.srv.URL+"/hook") ||
			!strings.Contains(r.body, "új érdeklődő; érdeklődő törölve") {
			t.Error("the list shows the secret again, or not the endpoint and its events")
		}
		if r := owner.get("/app/notifications/webhooks/" + ep.ID.String()); strings.Contains(r.body, secret) {
			t.Error("the delivery log shows the secret")
		}

		leadID := f.newLead(t, f.a.ID, "anna@pelda.hu")
		msgs := ok.wait(1)
		verify(t, secret, msgs[0])
		var body struct {
			Type string
			Data struct {
				Lead struct {
					LeadID uuid.UUID `json:"lead_id"`
				}
			}
		}
		if err := json.Unmarshal(msgs[0].Body, &body); err != nil || body.Type != "lead.created" || body.Data.Lead.LeadID != leadID {
			t.Errorf("delivered %s (%v)", msgs[0].Body, err)
		}
		ds := f.deliveries(t, f.a.ID, ep.ID, 1, false)
		r = owner.get("/app/notifications/webhooks/" + ep.ID.String())
		if r.status != http.StatusOK || !strings.Contains(r.body, `data-delivery="`+ds[0].ID.String()+`"`) ||
			!strings.Contains(r.body, "kézbesítve") || !strings.Contains(r.body, "HTTP 204") {
			t.Errorf("the log: %d\n%s", r.status, r.body)
		}
	})

	t.Run("redeliver sends the same webhook-id again", func(t *testing.T) {
		ds := f.deliveries(t, f.a.ID, ep.ID, 1, false)
		path := "/app/notifications/webhooks/" + ep.ID.String()
		r := owner.post(path+"/deliveries/"+ds[0].ID.String()+"/redeliver", url.Values{})
		if r.status != http.StatusSeeOther || r.location != path {
			t.Fatalf("redeliver: %d %s", r.status, r.location)
		}
		msgs := ok.wait(2)
		if msgs[1].ID != msgs[0].ID || string(msgs[1].Body) != string(msgs[0].Body) {
			t.Errorf("redelivered %s %s, first %s", msgs[1].ID, msgs[1].Body, msgs[0].ID)
		}
		verify(t, secret, msgs[1])
		if r := owner.get(path); !strings.Contains(r.body, "újra sorba állítva") {
			t.Error("no notice after redelivering")
		}
	})

	t.Run("rotate: a new secret once, both sign during the grace period", func(t *testing.T) {
		r := owner.post("/app/notifications/webhooks/"+ep.ID.String()+"/rotate", url.Values{})
		newSecret := shownSecret(r.body)
		if r.status != http.StatusOK || !strings.HasPrefix(newSecret, "whsec_") || newSecret == secret ||
			!strings.Contains(r.body, "mindkét aláírást") {
			t.Fatalf("rotating: %d, %q", r.status, newSecret)
		}
		if r := owner.get("/app/notifications"); strings.Contains(r.body, newSecret) {
			t.Error("the new secret is shown again")
		}
		f.newLead(t, f.a.ID, "bela@pelda.hu")
		msgs := ok.wait(3)
		if n := len(strings.Fields(msgs[2].Signature)); n != 2 {
			t.Errorf("%d signatures after the rotation, want 2", n)
		}
		verify(t, secret, msgs[2])
		verify(t, newSecret, msgs[2])
		f.deliveries(t, f.a.ID, ep.ID, 2, false)
	})

	failing := newReceiver(t, http.StatusInternalServerError)
	gone := newReceiver(t, http.StatusGone)
	t.Run("a failing endpoint: its delivery pending, not redelivered, then a 410 disables and enable", func(t *testing.T) {
		for _, rc := range []*receiver{failing, gone} {
			if r := owner.post("/app/notifications/webhooks", url.Values{"url": {rc.srv.URL}}); r.status != http.StatusCreated {
				t.Fatalf("adding %s: %d", rc.srv.URL, r.status)
			}
		}
		eps := f.endpoints(t, f.a.ID)
		bad, disabled := eps[1], eps[2]
		if len(bad.Events) != 0 {
			t.Errorf("no event type picked stored %v, want none (every type)", bad.Events)
		}
		f.newLead(t, f.a.ID, "cecil@pelda.hu")
		ds := f.deliveries(t, f.a.ID, bad.ID, 1, true)
		if ds[0].State != event.Pending || ds[0].LastStatus == nil || *ds[0].LastStatus != 500 {
			t.Fatalf("the failing endpoint's delivery %+v", ds[0])
		}
		path := "/app/notifications/webhooks/" + bad.ID.String()
		r := owner.post(path+"/deliveries/"+ds[0].ID.String()+"/redeliver", url.Values{})
		if r.status != http.StatusConflict || !strings.Contains(r.body, "még folyamatban") || !strings.Contains(r.body, "HTTP 500") {
			t.Errorf("redelivering a pending delivery: %d", r.status)
		}
		f.deliveries(t, f.a.ID, disabled.ID, 1, false)
		r = owner.get("/app/notifications")
		if !strings.Contains(r.body, "kikapcsolva") || !strings.Contains(r.body, "410-es választ") ||
			!strings.Contains(r.body, `/app/notifications/webhooks/`+disabled.ID.String()+`/enable`) {
			t.Errorf("the list does not show the disabled endpoint:\n%s", r.body)
		}
		r = owner.post("/app/notifications/webhooks/"+disabled.ID.String()+"/enable", url.Values{})
		if r.status != http.StatusSeeOther {
			t.Errorf("enabling: %d", r.status)
		}
		if e, _ := f.store.Endpoint(context.Background(), f.a.ID, disabled.ID); e.DisabledAt != nil || !e.Failing {
			t.Errorf("after enabling: %+v", e)
		}
	})

	t.Run("the delivery log pages", func(t *testing.T) {
		for i := range 55 {
			f.newLead(t, f.a.ID, "lap"+string(rune('a'+i%26))+"@pelda.hu")
		}
		all := f.deliveries(t, f.a.ID, ep.ID, 58, false)
		path := "/app/notifications/webhooks/" + ep.ID.String()
		r := owner.get(path)
		next := regexp.MustCompile(`href="([^"]+)" rel="next"`).FindStringSubmatch(r.body)
		if n := strings.Count(r.body, "data-delivery="); n != 50 || next == nil {
			t.Fatalf("first page: %d rows, next %v", n, next)
		}
		r = owner.get(html.UnescapeString(next[1]))
		if n := strings.Count(r.body, "data-delivery="); r.status != http.StatusOK || n != 8 || strings.Contains(r.body, `rel="next"`) ||
			!strings.Contains(r.body, `data-delivery="`+all[57].ID.String()+`"`) || !strings.Contains(r.body, "Első oldal") {
			t.Errorf("second page: %d, %d rows", r.status, n)
		}
		if r := owner.get(path + "?before=nem-kurzor"); r.status != http.StatusBadRequest || !strings.Contains(r.body, "lapozási hivatkozás érvénytelen") {
			t.Errorf("a bad cursor: %d", r.status)
		}
	})

	t.Run("e-mail addresses: set, refused, turned off", func(t *testing.T) {
		r := owner.post("/app/notifications/emails", url.Values{"emails": {" ertekesites@pelda.hu \r\nfonok@pelda.hu,ertekesites@pelda.hu"}})
		if r.status != http.StatusSeeOther {
			t.Fatalf("saving: %d", r.status)
		}
		if got, _ := f.store.NotifyEmails(context.Background(), f.a.ID); strings.Join(got, ",") != "ertekesites@pelda.hu,fonok@pelda.hu" {
			t.Errorf("stored %v", got)
		}
		if r := owner.get("/app/notifications"); !strings.Contains(r.body, "ertekesites@pelda.hu\nfonok@pelda.hu</textarea>") {
			t.Error("the form does not show the stored addresses")
		}
		for _, bad := range []string{"Anna <anna@pelda.hu>", "nem-cim", "anna@pelda.hu\nbela@"} {
			r := owner.post("/app/notifications/emails", url.Values{"emails": {bad}})
			if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Érvénytelen e-mail-cím") {
				t.Errorf("saving %q: %d", bad, r.status)
			}
		}
		if got, _ := f.store.NotifyEmails(context.Background(), f.a.ID); len(got) != 2 {
			t.Errorf("a refused list changed the addresses: %v", got)
		}
		if r := owner.post("/app/notifications/emails", url.Values{"emails": {"  \n"}}); r.status != http.StatusSeeOther {
			t.Errorf("emptying: %d", r.status)
		}
		if got, _ := f.store.NotifyEmails(context.Background(), f.a.ID); len(got) != 0 {
			t.Errorf("after emptying: %v", got)
		}
	})

	t.Run("remove takes the endpoint and its log", func(t *testing.T) {
		r := owner.post("/app/notifications/webhooks/"+ep.ID.String()+"/remove", url.Values{})
		if r.status != http.StatusSeeOther || r.location != "/app/notifications" {
			t.Fatalf("removing: %d %s", r.status, r.location)
		}
		if _, err := f.store.Endpoint(context.Background(), f.a.ID, ep.ID); err == nil {
			t.Error("the endpoint is still there")
		}
		if ds, _ := f.store.Deliveries(context.Background(), f.a.ID, ep.ID, 10); len(ds) != 0 {
			t.Errorf("its log is still there: %d", len(ds))
		}
		if r := owner.get("/app/notifications"); !strings.Contains(r.body, "eltávolítva") || strings.Contains(r.body, `data-webhook="`+ep.ID.String()+`"`) {
			t.Error("the list after removing")
		}
	})
}

// Members, another company's owner and other sites reach no webhook of company A.
func TestNotificationsAttackers(t *testing.T) {
	t.Parallel()
	f := start(t, withWebhooks)
	rc := newReceiver(t, http.StatusOK)
	owner, member, ownerB := f.client(t), f.client(t), f.client(t)
	owner.login(f.owner)
	member.login(f.member)
	ownerB.login(f.ownerB)
	if r := owner.post("/app/notifications/webhooks", url.Values{"url": {rc.srv.URL}}); r.status != http.StatusCreated {
		t.Fatalf("adding: %d", r.status)
	}
	ep := f.endpoints(t, f.a.ID)[0]
	f.newLead(t, f.a.ID, "anna@pelda.hu")
	d := f.deliveries(t, f.a.ID, ep.ID, 1, false)[0]
	base := "/app/notifications/webhooks/" + ep.ID.String()
	posts := []string{"/app/notifications/webhooks", "/app/notifications/emails", base + "/remove", base + "/rotate", base + "/enable",
		base + "/deliveries/" + d.ID.String() + "/redeliver"}
	form := url.Values{"url": {rc.srv.URL + "/evil"}, "emails": {"tolvaj@pelda.hu"}}

	t.Run("a member is 403 on every page and action", func(t *testing.T) {
		for _, path := range []string{"/app/notifications", base} {
			if r := member.get(path); r.status != http.StatusForbidden {
				t.Errorf("member GET %s: %d", path, r.status)
			}
		}
		for _, path := range posts {
			if r := member.post(path, form); r.status != http.StatusForbidden {
				t.Errorf("member POST %s: %d", path, r.status)
			}
		}
		if r := member.get("/app/leads"); strings.Contains(r.body, "/app/notifications") {
			t.Error("a member's menu offers the notifications")
		}
	})

	t.Run("another company's owner gets 404", func(t *testing.T) {
		for _, path := range []string{base, base + "?before=1_" + d.ID.String()} {
			if r := ownerB.get(path); r.status != http.StatusNotFound {
				t.Errorf("B GET %s: %d", path, r.status)
			}
		}
		for _, path := range posts[2:] {
			if r := ownerB.post(path, form); r.status != http.StatusNotFound {
				t.Errorf("B POST %s: %d", path, r.status)
			}
		}
		// A's delivery under an endpoint of B's own is still not B's.
		if r := ownerB.post("/app/notifications/webhooks", url.Values{"url": {rc.srv.URL + "/b"}}); r.status != http.StatusCreated {
			t.Fatalf("B adding: %d", r.status)
		}
		epB := f.endpoints(t, f.b.ID)[0]
		if r := ownerB.post("/app/notifications/webhooks/"+epB.ID.String()+"/deliveries/"+d.ID.String()+"/redeliver", url.Values{}); r.status != http.StatusNotFound {
			t.Errorf("B redelivering A's delivery through its own endpoint: %d", r.status)
		}
		if r := ownerB.get("/app/notifications"); strings.Contains(r.body, ep.ID.String()) || strings.Contains(r.body, rc.srv.URL+`<`) {
			t.Error("B's page shows A's endpoint")
		}
		if r := owner.get("/app/notifications/webhooks/not-an-id"); r.status != http.StatusNotFound {
			t.Errorf("a malformed id: %d", r.status)
		}
	})

	t.Run("a cross-origin post is 403", func(t *testing.T) {
		for _, path := range posts {
			if r := owner.post(path, form, "Sec-Fetch-Site", "cross-site"); r.status != http.StatusForbidden {
				t.Errorf("cross-site POST %s: %d", path, r.status)
			}
		}
	})

	// Nothing any of them sent changed company A's endpoint, its log or its addresses.
	got, _ := f.store.Endpoint(context.Background(), f.a.ID, ep.ID)
	if len(f.endpoints(t, f.a.ID)) != 1 || got.Secret != ep.Secret || got.PreviousSecret != "" {
		t.Errorf("company A's endpoints changed: %+v", f.endpoints(t, f.a.ID))
	}
	if ds := f.deliveries(t, f.a.ID, ep.ID, 1, false); ds[0].Attempts != 1 || rc.wait(1) == nil {
		t.Errorf("A's delivery changed: %+v", ds[0])
	}
	if emails, _ := f.store.NotifyEmails(context.Background(), f.a.ID); len(emails) != 0 {
		t.Errorf("company A's addresses: %v", emails)
	}
}

// addEndpoint adds a webhook to a company as the admin command does.
func addEndpoint(f *fixture, companyID uuid.UUID, url string) (event.Endpoint, string, error) {
	return webhook.Add(context.Background(), f.store, companyID, url, nil, true)
}
