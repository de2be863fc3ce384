package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/webhook"
)

func delivery(url string, secret string) event.Delivery {
	return event.Delivery{ID: uuid.New(), CompanyID: uuid.New(), State: event.Pending,
		Event:    event.Event{ID: uuid.New(), Type: event.LeadCreated, LeadID: uuid.New(), At: time.Now(), Lead: &lead.Stored{Lead: lead.Lead{FirstName: "Kovács Anna", Source: lead.SourceAPI}}},
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
	if !res.OK() || res.Status != http.StatusNoContent {
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

// A receiver's answer is read to limits.ReceiverHeaderBytes of headers and
// limits.ReceiverBodyBytes of body: headers of a MiB fail the attempt unread, with a reason
// that says so, and a long body is kept cut, with a note.
func TestAnswerBounded(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		for i := range 1024 {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("h", 1024))
		}
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("/under", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Filler", strings.Repeat("h", limits.ReceiverHeaderBytes-1024))
		fmt.Fprint(w, "ok")
	})
	mux.HandleFunc("/body", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, strings.Repeat("b", 1<<20))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	s := webhook.NewSender(webhook.Options{AllowPrivate: true, Timeout: 5 * time.Second})
	secret, _ := webhook.NewSecret()

	res := s.Send(t.Context(), delivery(srv.URL+"/headers", secret))
	if res.OK() || res.Status != 0 || !strings.Contains(res.Err, "headers are larger than 16 KiB") {
		t.Errorf("1 MiB of headers: %+v", res)
	}
	if res := s.Send(t.Context(), delivery(srv.URL+"/under", secret)); !res.OK() || res.Response != "ok" {
		t.Errorf("headers just under the limit: %+v", res)
	}
	res = s.Send(t.Context(), delivery(srv.URL+"/body", secret))
	want := strings.Repeat("b", limits.ReceiverBodyBytes) + "\n[cut: the answer was longer than 2048 bytes]"
	if !res.OK() || res.Response != want {
		t.Errorf("1 MiB of body: status %d, kept %d bytes ending %q", res.Status, len(res.Response), res.Response[max(0, len(res.Response)-60):])
	}
}

// SpecialPurpose refuses every block of the IANA special-purpose registries that a webhook
// must not reach, and the IPv6 forms carrying such an IPv4 address; public addresses pass, in
// both families and inside those forms. Nothing here is dialled.
func TestSpecialPurpose(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"10.0.0.1", "private"},
		{"100.64.0.1", "private"},
		{"100.127.255.254", "private"},
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"169.254.169.254", "link-local"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.0.0.8", "IETF protocol assignment"},
		{"192.0.0.170", "IETF protocol assignment"},
		{"192.0.2.10", "documentation"},
		{"192.88.99.1", "6to4 relay"},
		{"192.168.1.1", "private"},
		{"198.18.0.1", "benchmarking"},
		{"198.19.255.255", "benchmarking"},
		{"198.51.100.7", "documentation"},
		{"203.0.113.200", "documentation"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.255", "reserved"},
		{"::", "unspecified"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback (IPv4-mapped)"},
		{"::ffff:192.0.2.1", "documentation (IPv4-mapped)"},
		{"::ffff:10.1.1.1", "private (IPv4-mapped)"},
		{"::127.0.0.1", "IPv4-compatible"},
		{"::8.8.8.8", "IPv4-compatible"},
		{"64:ff9b::a9fe:a9fe", "link-local (NAT64)"},
		{"64:ff9b::198.18.0.1", "benchmarking (NAT64)"},
		{"64:ff9b:1::1", "local NAT64"},
		{"2002:7f00:1::", "loopback (6to4)"},
		{"2002:c0a8:101::1", "private (6to4)"},
		{"2002:6440:1::", "private (6to4)"},
		{"100::1", "discard-only"},
		{"2001::1", "IETF protocol assignment"},
		{"2001:10::1", "IETF protocol assignment"},
		{"2001:db8::1", "documentation"},
		{"3fff::1", "documentation"},
		{"5f00::1", "segment routing"},
		{"fc00::1", "private"},
		{"fd12:3456::1", "private"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"fec0::1", "site-local"},
		{"ff02::1", "multicast"},
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"100.63.255.255", ""},
		{"100.128.0.0", ""},
		{"172.32.0.1", ""},
		{"192.0.1.255", ""},
		{"198.17.255.255", ""},
		{"198.20.0.0", ""},
		{"223.255.255.255", ""},
		{"2606:4700::1111", ""},
		{"2a00:1450:4001::200e", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::8.8.8.8", ""},
		{"2002:0808:0808::1", ""},
	} {
		t.Run(tt.addr, func(t *testing.T) {
			if got := webhook.SpecialPurpose(netip.MustParseAddr(tt.addr)); got != tt.want {
				t.Errorf("SpecialPurpose(%s) = %q, want %q", tt.addr, got, tt.want)
			}
		})
	}
}

// An endpoint whose host is a special-purpose address literal is refused when it is added,
// unless private targets are allowed; a public literal and a host name pass (a name is judged
// by the address it resolves to, when dialled).
func TestSpecialTargetRefusedWhenAdded(t *testing.T) {
	for _, tt := range []struct {
		url    string
		refuse bool
	}{
		{"https://192.0.2.1/hook", true},
		{"https://198.18.0.5:8443/hook", true},
		{"https://192.0.0.1/", true},
		{"https://[::ffff:169.254.169.254]/", true},
		{"https://[64:ff9b::a00:1]/", true},
		{"https://[2002:c000:201::]/", true},
		{"https://[fd00::1]/", true},
		{"https://[fe80::1%25eth0]/", true},
		{"https://240.1.2.3/", true},
		{"https://8.8.8.8/hook", false},
		{"https://[2606:4700::1111]/hook", false},
		{"https://hooks.example.com/hook", false},
	} {
		err := webhook.CheckURL(tt.url, false)
		if got := errors.Is(err, webhook.ErrSpecialTarget); got != tt.refuse {
			t.Errorf("CheckURL(%q) = %v, want refused %v", tt.url, err, tt.refuse)
		}
		if err := webhook.CheckURL(tt.url, true); err != nil {
			t.Errorf("CheckURL(%q) with private targets allowed = %v", tt.url, err)
		}
	}
}
