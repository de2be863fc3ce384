package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/contracttest"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/httpapi"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/service/servicetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is one running service on its own database, reached through the generated client; every
// response is validated against api/openapi.yaml.
type env struct {
	t      *testing.T
	base   string
	dsn    string
	store  *postgres.Store
	http   *http.Client
	client *leadclient.ClientWithResponses
	logs   *lockedBuffer
}

// lockedBuffer collects the service's log lines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func start(t *testing.T) *env { return startWith(t, nil) }

// contract is the API's contract, loaded once for the package's many services and only read
// after the load.
var contract = sync.OnceValues(httpapi.LoadContract)

// startWith starts the service with a configuration edited by edit.
func startWith(t *testing.T, edit func(*service.Config)) *env {
	t.Helper()
	dsn := pgtest.NewDSN(t)
	loaded, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := service.Config{DatabaseURL: dsn, MaxDBConns: 16, ShutdownGrace: 5 * time.Second, Contract: loaded}
	if edit != nil {
		edit(&cfg)
	}
	servicetest.RecordEventsOnly(&cfg)
	logs := &lockedBuffer{}
	svc, err := service.Open(ctx, cfg, logs, nil)
	if err != nil {
		t.Fatalf("opening the service: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- svc.Serve(ctx, ln) }()
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	t.Cleanup(func() {
		// Connections the client dialled but never used count as active for up to 5 s in
		// http.Server.Shutdown; close them first.
		tr.CloseIdleConnections()
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		svc.Close()
	})
	base := "http://" + ln.Addr().String()
	hc := &http.Client{Timeout: 10 * time.Second, Transport: contracttest.New(t, base).Transport(t, tr)}
	c, err := leadclient.NewClientWithResponses(base, leadclient.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	// Wait for the key cache to follow the change feed, so tests see the steady state.
	for deadline := time.Now().Add(10 * time.Second); !svc.CacheLive(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the key cache listener did not connect")
		}
	}
	return &env{t: t, base: base, dsn: dsn, store: svc.Store(), http: hc, client: c, logs: logs}
}

// company creates a company; limit -1 keeps the plan's default.
func (e *env) company(p plan.Plan, limit int) uuid.UUID {
	e.t.Helper()
	var o plan.Override
	if limit >= 0 {
		o = plan.Override{Set: true, Limit: &limit}
	}
	c, err := e.store.CreateCompany(context.Background(), "Teszt Kft.", p, o)
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID
}

func (e *env) key(company uuid.UUID, kind auth.Kind, domains []string, check bool) admin.CreatedKey {
	e.t.Helper()
	k, err := admin.CreateKey(context.Background(), e.store, company, kind, domains, check)
	if err != nil {
		e.t.Fatal(err)
	}
	return k
}

// post sends a raw request and returns status, headers and decoded JSON body.
func (e *env) do(method, path string, body string, header map[string]string) (*http.Response, map[string]any) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.base+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			e.t.Fatalf("%s %s: body is not a JSON object: %q", method, path, raw)
		}
	}
	return resp, m
}

// wantError checks an error answer: status, code, a Hungarian sentence, the JSON content type.
func wantError(t *testing.T, resp *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("status = %d, want %d (body %v)", resp.StatusCode, status, body)
	}
	if body["code"] != code {
		t.Errorf("code = %v, want %q (body %v)", body["code"], code, body)
	}
	msg, _ := body["error"].(string)
	if msg == "" || !strings.HasSuffix(msg, ".") {
		t.Errorf("error = %q, want a sentence", msg)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
}

// count returns how many leads a company has, and its counter for this month.
func (e *env) count(company uuid.UUID) (leads, counter int) {
	e.t.Helper()
	db, err := postgres.Open(context.Background(), e.dsn, postgres.Options{MaxOpenConns: 1})
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	if err := db.DB().QueryRow(`SELECT count(*) FROM leads WHERE company_id = $1`, company).Scan(&leads); err != nil {
		e.t.Fatal(err)
	}
	err = db.DB().QueryRow(`SELECT coalesce(sum(count), 0) FROM lead_counters WHERE company_id = $1`, company).Scan(&counter)
	if err != nil {
		e.t.Fatal(err)
	}
	return leads, counter
}

// sdk is the Go client SDK for a key, over the contract-checking transport.
func (e *env) sdk(key string) *leadclient.SDK {
	e.t.Helper()
	c, err := leadclient.New(e.base, key, leadclient.WithHTTP(e.http), leadclient.WithRetries(0))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func openStore(dsn string) (*postgres.Store, error) {
	return postgres.Open(context.Background(), dsn, postgres.Options{MaxOpenConns: 2})
}

func decode(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	return m
}

// confirmedNotifyEmail makes addr the company's new-lead address, confirmed as its link would.
func (e *env) confirmedNotifyEmail(company uuid.UUID, addr string) {
	e.t.Helper()
	ctx := context.Background()
	if err := e.store.SetNotifyEmails(ctx, company, []string{addr}); err != nil {
		e.t.Fatal(err)
	}
	// The service's confirmation job, when its workers run, gives the address a link of its
	// own, which may replace this one between the two statements: then a second link, issued
	// after the job's, is confirmed.
	for try := 1; ; try++ {
		hash := event.ConfirmHash(fmt.Sprintf("link %d %s", try, addr))
		if _, err := e.store.IssueConfirmToken(ctx, company, addr, hash); err != nil {
			e.t.Fatal(err)
		}
		_, _, err := e.store.ConfirmNotifyEmail(ctx, hash)
		if err == nil {
			return
		}
		if !errs.Is(err, errs.NotFound) || try == 2 {
			e.t.Fatal(err)
		}
	}
}
