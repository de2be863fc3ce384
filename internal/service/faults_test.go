package service_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/pgembed"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// running is a service serving on a port of its own.
type running struct {
	base string
	svc  *service.Service
	stop func() error // cancels the serve context and waits for Serve to return
}

func serve(t *testing.T, cfg service.Config) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := service.Open(ctx, cfg, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- svc.Serve(ctx, ln) }()
	stopped := false
	var serveErr error
	stop := func() error {
		if !stopped {
			stopped = true
			cancel()
			serveErr = <-done
		}
		return serveErr
	}
	t.Cleanup(func() { stop(); svc.Close() })
	return &running{base: "http://" + ln.Addr().String(), svc: svc, stop: stop}
}

func post(t *testing.T, url, key, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

const lead = `{"first_name": "Anna", "email": "anna@example.hu"}`

// ownCluster starts a PostgreSQL of the test's own, which it may stop and start again from data.
func ownCluster(t *testing.T) (cluster *pgembed.Cluster, data string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "leadchat-fault-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data = filepath.Join(dir, "pg")
	cluster, err = pgembed.Start(context.Background(), pgembed.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Stop(context.Background()) })
	return cluster, data
}

func TestDatabaseDownIs503AndRecovers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cluster, data := ownCluster(t)

	r := serve(t, service.Config{DatabaseURL: cluster.DSN("postgres"), MaxDBConns: 4, ShutdownGrace: 5 * time.Second})
	c, err := r.svc.Store().CreateCompany(ctx, "Teszt Kft.", plan.Free, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := admin.CreateKey(ctx, r.svc.Store(), c.ID, auth.Private, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if code, body := post(t, r.base+"/api/v1/leads", k.Key, lead); code != 201 {
		t.Fatalf("before the outage: %d %v", code, body)
	}

	if err := cluster.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, body := post(t, r.base+"/api/v1/leads", k.Key, lead)
	if code != 503 || body["code"] != "unavailable" || !strings.Contains(body["error"].(string), "nem érhető el") {
		t.Errorf("database down: %d %v, want 503 unavailable", code, body)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the 503 took %v", d)
	}
	if resp, err := http.Get(r.base + "/readyz"); err != nil || resp.StatusCode != 503 {
		t.Errorf("/readyz with the database down: %v %v", resp.StatusCode, err)
	}
	if resp, err := http.Get(r.base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Errorf("/healthz with the database down: %v %v", resp.StatusCode, err)
	}

	cluster, err = pgembed.Start(ctx, pgembed.Options{DataDir: data, Port: cluster.Port()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Stop(context.Background()) })
	back := time.Now()
	for {
		code, body = post(t, r.base+"/api/v1/leads", k.Key, lead)
		if code == 201 {
			break
		}
		if time.Since(back) > 20*time.Second {
			t.Fatalf("not recovered 20 s after the database came back: %d %v", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("recovered %v after the database came back", time.Since(back).Round(time.Millisecond))
	if resp, err := http.Get(r.base + "/readyz"); err != nil || resp.StatusCode != 200 {
		t.Errorf("/readyz after recovery: %v %v", resp.StatusCode, err)
	}
	// The key cache follows the change feed again: a revocation still takes effect.
	for deadline := time.Now().Add(10 * time.Second); !r.svc.CacheLive(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the cache listener did not reconnect")
		}
	}
	if _, err := r.svc.Store().RevokeKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if code, _ := post(t, r.base+"/api/v1/leads", k.Key, lead); code == 401 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a key revoked after the outage still works")
		}
	}
}

func TestShutdownFinishesInFlightRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	release, arrived := make(chan struct{}), make(chan struct{}, 1)
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		_, _ = w.Write([]byte(`{"choices": [{"message": {"role": "assistant", "content": "{\"reply\": \"lassú válasz\"}"}}]}`))
	}))
	defer model.Close()
	r := serve(t, service.Config{DatabaseURL: pgtest.NewDSN(t), MaxDBConns: 4, ShutdownGrace: 10 * time.Second,
		AI: service.AIConfig{BaseURL: model.URL, Model: "m", Timeout: 5 * time.Second}})
	c, _ := r.svc.Store().CreateCompany(ctx, "Teszt Kft.", plan.Enterprise, plan.Override{})
	k, err := admin.CreateKey(ctx, r.svc.Store(), c.ID, auth.Public, nil, true)
	if err != nil {
		t.Fatal(err)
	}

	type result struct {
		code int
		body map[string]any
	}
	inflight := make(chan result, 1)
	go func() {
		code, body := post(t, r.base+"/api/embed/chat", "", `{"api_key": "`+k.Key+`", "message": "Szia"}`)
		inflight <- result{code, body}
	}()
	<-arrived // the request is now waiting for the model
	stopped := make(chan error, 1)
	go func() { stopped <- r.stop() }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		conn, err := net.DialTimeout("tcp", strings.TrimPrefix(r.base, "http://"), time.Second)
		if err != nil {
			break
		}
		conn.Close()
		if time.Now().After(deadline) {
			t.Fatal("new connections are still accepted 10 s after shutdown began")
		}
	}
	close(release)
	res := <-inflight
	if res.code != 200 || res.body["reply"] != "lassú válasz" {
		t.Errorf("the in-flight request got %d %v, want 200 and the model's reply", res.code, res.body)
	}
	if err := <-stopped; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}
