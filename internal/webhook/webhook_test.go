package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/webhook"
)

func delivery(url string, secret string) event.Delivery {
	name := "Kovács Anna"
	return event.Delivery{ID: uuid.New(), CompanyID: uuid.New(), State: event.Pending,
		Event:    event.Event{ID: uuid.New(), Type: event.LeadCreated, LeadID: uuid.New(), At: time.Now(), Lead: &event.Lead{FirstName: &name, Source: "api"}},
		Endpoint: &event.Endpoint{ID: uuid.New(), URL: url, Secret: secret}}
}

// received is one request a test receiver got.
type received struct {
	header http.Header
	body   []byte
}

func receiver(t *testing.T, status int, got chan<- received) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- received{r.Header.Clone(), b}
		w.WriteHeader(status)
		fmt.Fprint(w, strings.Repeat("x", 10000))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A delivery is a POST with the Standard Webhooks headers that the Standard Webhooks library
// verifies with the endpoint's secret, and whose signature is the HMAC-SHA256 the contract
// describes, keyed with the secret's decoded bytes. The answer is read only in part.
func TestSendIsAVerifiableStandardWebhook(t *testing.T) {
	secret, err := webhook.NewSecret()
	if err != nil || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q, %v", secret, err)
	}
	got := make(chan received, 1)
	srv := receiver(t, http.StatusNoContent, got)
	d := delivery(srv.URL, secret)
	res := webhook.NewSender(webhook.Options{AllowPrivate: true}).Send(t.Context(), d)
	if !res.OK() || res.Status != http.StatusNoContent || len(res.Response) > 2048 {
		t.Fatalf("result = %+v", res)
	}
	r := <-got
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(r.body, r.header); err != nil {
		t.Errorf("the library does not verify the delivery: %v", err)
	}
	if r.header.Get("webhook-id") != d.ID.String() || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("headers = %v", r.header)
	}
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%s.%s", r.header.Get("webhook-id"), r.header.Get("webhook-timestamp"), r.body)
	if want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)); r.header.Get("webhook-signature") != want {
		t.Errorf("signature %q, want %q", r.header.Get("webhook-signature"), want)
	}
	var body struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		Data      struct {
			Lead map[string]any `json:"lead"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil || body.Type != "lead.created" || body.Data.Lead["first_name"] != "Kovács Anna" {
		t.Errorf("body = %s (%v)", r.body, err)
	}
	if _, err := time.Parse(time.RFC3339, body.Timestamp); err != nil {
		t.Errorf("timestamp %q is not RFC 3339", body.Timestamp)
	}
}

// After a rotation both secrets sign until the grace period ends; a receiver holding either
// verifies the message. After it, only the new one signs.
func TestRotationSignsWithBothSecrets(t *testing.T) {
	oldSecret, _ := webhook.NewSecret()
	newSecret, _ := webhook.NewSecret()
	got := make(chan received, 2)
	srv := receiver(t, http.StatusOK, got)
	s := webhook.NewSender(webhook.Options{AllowPrivate: true})

	until := time.Now().Add(time.Hour)
	d := delivery(srv.URL, newSecret)
	d.Endpoint.PreviousSecret, d.Endpoint.PreviousUntil = oldSecret, &until
	if res := s.Send(t.Context(), d); !res.OK() {
		t.Fatal(res)
	}
	r := <-got
	if n := len(strings.Fields(r.header.Get("webhook-signature"))); n != 2 {
		t.Errorf("%d signatures during the grace period, want 2", n)
	}
	for _, sec := range []string{oldSecret, newSecret} {
		wh, _ := standardwebhooks.NewWebhook(sec)
		if err := wh.Verify(r.body, r.header); err != nil {
			t.Errorf("a receiver with one of the secrets cannot verify: %v", err)
		}
	}

	past := time.Now().Add(-time.Second)
	d.Endpoint.PreviousUntil = &past
	if res := s.Send(t.Context(), d); !res.OK() {
		t.Fatal(res)
	}
	r = <-got
	wh, _ := standardwebhooks.NewWebhook(oldSecret)
	if err := wh.Verify(r.body, r.header); err == nil {
		t.Error("the old secret still verifies after its grace period")
	}
}

// The Go SDK's verifier takes what the sender sends, during a rotation too, and reads it into
// the typed message: the event as the service encodes it, the lead and its id.
func TestSDKVerifierReadsRealDeliveries(t *testing.T) {
	oldSecret, _ := webhook.NewSecret()
	newSecret, _ := webhook.NewSecret()
	got := make(chan received, 2)
	srv := receiver(t, http.StatusOK, got)
	s := webhook.NewSender(webhook.Options{AllowPrivate: true})
	until := time.Now().Add(time.Hour)
	d := delivery(srv.URL, newSecret)
	d.Endpoint.PreviousSecret, d.Endpoint.PreviousUntil = oldSecret, &until
	d.Event.Lead.ID = d.Event.LeadID
	erased := d
	erased.Event.Type, erased.Event.Lead = event.LeadErased, nil
	for _, held := range [][]string{{oldSecret}, {newSecret}} {
		v, err := leadclient.NewWebhookVerifier(held...)
		if err != nil {
			t.Fatal(err)
		}
		if res := s.Send(t.Context(), d); !res.OK() {
			t.Fatal(res)
		}
		r := <-got
		m, err := v.Parse(r.header, r.body)
		if err != nil {
			t.Fatalf("holding one of the secrets: %v", err)
		}
		if m.ID != d.ID.String() || m.Type != leadclient.WebhookEventTypeLeadCreated || m.LeadID != d.Event.LeadID ||
			m.Lead == nil || m.Lead.FirstName == nil || *m.Lead.FirstName != "Kovács Anna" || !m.Timestamp.Equal(d.Event.At) {
			t.Errorf("message = %+v", m)
		}
		if res := s.Send(t.Context(), erased); !res.OK() {
			t.Fatal(res)
		}
		r = <-got
		if m, err := v.Parse(r.header, r.body); err != nil || m.Type != leadclient.WebhookEventTypeLeadErased || m.Lead != nil || m.LeadID != d.Event.LeadID {
			t.Errorf("erased = %+v, %v", m, err)
		}
	}
}

// Without LEADCHAT_WEBHOOK_ALLOW_PRIVATE the sender refuses http, and refuses to connect to a
// loopback, private, link-local or unspecified address, also when a host name resolves to one.
func TestPrivateTargetsRefused(t *testing.T) {
	got := make(chan received, 10)
	srv := receiver(t, http.StatusOK, got)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	s := webhook.NewSender(webhook.Options{Timeout: 2 * time.Second})
	for _, tt := range []struct{ name, url, want string }{
		{"http", srv.URL, "must be https"},
		{"loopback", "https://127.0.0.1:" + port, "loopback"},
		{"host name resolving to 127.0.0.1", "https://localhost:" + port, "loopback"},
		{"IPv6 loopback", "https://[::1]:" + port, "loopback"},
		{"IPv4-mapped loopback", "https://[::ffff:127.0.0.1]:" + port, "loopback"},
		{"private", "https://10.1.2.3", "private"},
		{"private 192.168", "https://192.168.1.1", "private"},
		{"link-local (cloud metadata)", "https://169.254.169.254", "link-local"},
		{"unspecified", "https://0.0.0.0:" + port, "unspecified"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := s.Send(t.Context(), delivery(tt.url, "whsec_"+base64.StdEncoding.EncodeToString([]byte("0123456789abcdef"))))
			if res.OK() || !strings.Contains(res.Err, tt.want) {
				t.Errorf("result = %+v, want an error naming %q", res, tt.want)
			}
		})
	}
	if len(got) != 0 {
		t.Errorf("the receiver got %d requests", len(got))
	}
	for _, u := range []string{"http://example.com/hook", "ftp://example.com", "https://user:pw@example.com/", "/relative"} {
		if err := webhook.CheckURL(u, false); err == nil {
			t.Errorf("CheckURL(%q) accepted it", u)
		}
	}
	if err := webhook.CheckURL("https://hooks.example.com/leadchat", false); err != nil {
		t.Error(err)
	}
}

// A redirect is an answer, not followed; an endpoint that does not answer in time is an
// attempt that failed; Retry-After is read in seconds and as a date.
func TestAnswers(t *testing.T) {
	hits := make(chan string, 10)
	mux := http.NewServeMux()
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		hits <- r.URL.Path
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) { hits <- r.URL.Path })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Second):
		}
	})
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", r.URL.Query().Get("after"))
		w.WriteHeader(http.StatusTooManyRequests)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	s := webhook.NewSender(webhook.Options{AllowPrivate: true, Timeout: 300 * time.Millisecond})
	secret, _ := webhook.NewSecret()

	res := s.Send(t.Context(), delivery(srv.URL+"/redirect", secret))
	if res.OK() || res.Status != http.StatusFound || len(hits) != 1 {
		t.Errorf("redirect: %+v, %d requests", res, len(hits))
	}
	res = s.Send(t.Context(), delivery(srv.URL+"/slow", secret))
	if res.OK() || res.Status != 0 || !strings.Contains(res.Err, "no answer in time") {
		t.Errorf("slow: %+v", res)
	}
	res = s.Send(t.Context(), delivery(srv.URL+"/busy?after=120", secret))
	if res.Status != 429 || res.RetryAfter != 2*time.Minute {
		t.Errorf("Retry-After 120: %+v", res)
	}
	date := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	res = s.Send(t.Context(), delivery(srv.URL+"/busy?after="+strings.ReplaceAll(date, " ", "%20"), secret))
	if res.RetryAfter < 59*time.Minute || res.RetryAfter > time.Hour {
		t.Errorf("Retry-After %s: %+v", date, res)
	}
}
