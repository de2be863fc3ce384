package bench

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/contact"
	"github.com/leadchat/leadchat/internal/lead"
)

// The chat ceiling runs no lead insert, so the load's messages must not hold contact details.
func TestChatMessagesHoldNoContact(t *testing.T) {
	for _, m := range chatMessages {
		if got := contact.Extract(m); got != (contact.Found{}) {
			t.Errorf("contact.Extract(%q) = %+v, want nothing", m, got)
		}
	}
}

// The ceiling's insert stores what the service stores for the lead body.
func TestLeadBodyStoredForm(t *testing.T) {
	phone, service := leadPhone, leadService
	l, err := lead.Input{FirstName: leadFirstName, Email: leadEmail, Phone: &phone, Service: &service}.Check()
	if err != nil {
		t.Fatal(err)
	}
	if l.FirstName != leadFirstName || l.Email != leadEmail || l.Phone != leadPhone || l.PhoneE164 != leadPhoneE164 || l.Service != leadService {
		t.Errorf("stored form %+v differs from the ceiling's constants", l)
	}
	for _, want := range []string{leadFirstName, leadEmail, leadPhone, leadService} {
		if !strings.Contains(leadBody, want) {
			t.Errorf("leadBody lacks %q", want)
		}
	}
}

func TestBind(t *testing.T) {
	got := bind("SELECT $1, $12, $2", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l")
	if want := "SELECT a, l, b;\n"; got != want {
		t.Errorf("bind = %q, want %q", got, want)
	}
}

func TestLoadCountsAndErrors(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%4 == 0 {
			http.Error(w, "no", http.StatusTooManyRequests)
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	l := Load{Addr: addr, Conns: 4, Next: roundRobin([][]byte{leadRequest(addr, "k")})}
	r := l.Run(context.Background(), 200*time.Millisecond)
	if r.OK == 0 || r.Errors == 0 {
		t.Fatalf("OK %d, errors %d: want both", r.OK, r.Errors)
	}
	if total := int64(r.OK + r.Errors); total != n.Load() {
		t.Errorf("counted %d requests, the server saw %d", total, n.Load())
	}
	if r.P50 <= 0 || r.P99 < r.P50 || r.RPS() <= 0 {
		t.Errorf("p50 %v, p99 %v, %f req/s", r.P50, r.P99, r.RPS())
	}
}

func TestLoadSurvivesClosedConnections(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	r := Load{Addr: addr, Conns: 2, Next: roundRobin([][]byte{configRequest(addr, "k")})}.Run(context.Background(), 100*time.Millisecond)
	if r.OK < 2 || r.Errors != 0 {
		t.Errorf("OK %d, errors %d: want requests over fresh connections and no errors", r.OK, r.Errors)
	}
}

func TestCeilingAnswersLead(t *testing.T) {
	srv := httptest.NewServer(ceilingHandler())
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	resp, err := doRaw(addr, leadRequest(addr, "k"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.status != http.StatusCreated || !strings.Contains(string(resp.body), `"success":true`) {
		t.Errorf("ceiling answered %d %s", resp.status, resp.body)
	}
}

func TestPercentile(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i))
	}
	if p := percentile(lat, 0.5); p != 50 {
		t.Errorf("p50 = %d, want 50", p)
	}
	if p := percentile(lat, 0.99); p != 99 {
		t.Errorf("p99 = %d, want 99", p)
	}
	if p := percentile(nil, 0.99); p != 0 {
		t.Errorf("p99 of nothing = %d", p)
	}
}

// Bad -only and -leadchat-env values stop the run before it starts anything.
func TestRunRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-only", "spread,nope"},
		{"-leadchat-env", "DATABASE_URL=elsewhere"},
		{"-leadchat-env", "LEADCHAT_LEAD_BATCH"},
		{"-leadchat-env", "GOPATH=/tmp"},
		{"-leadchat-env", "GOMEMLIMIT"},
	} {
		var stderr strings.Builder
		err := run(context.Background(), args, io.Discard, &stderr)
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("run %q = %v, want an error naming %s", args, err, args[0])
		}
	}
}

// -leadchat-env takes leadchat's settings and the Go runtime's, nothing else.
func TestLeadchatSetting(t *testing.T) {
	for kv, want := range map[string]bool{
		"LEADCHAT_LEAD_BATCH=1":  true,
		"GOMEMLIMIT=40MiB":       true,
		"GOGC=200":               true,
		"GOMAXPROCS=1":           true,
		"LEADCHAT_=1":            false,
		"GOMEMLIMIT":             false,
		"DATABASE_URL=elsewhere": false,
		"GOPATH=/tmp":            false,
	} {
		if got := leadchatSetting(kv); got != want {
			t.Errorf("leadchatSetting(%q) = %v, want %v", kv, got, want)
		}
	}
}
