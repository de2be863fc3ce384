package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/bench"
	"github.com/leadchat/leadchat/internal/bench/leadpage"
	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/web"
)

// BenchmarkLeadPage serves the lead page that make bench measures (20 related leads, 50 notes,
// 10 changes, 20 chat messages) through the dashboard's handler, one page at a time, and
// reports the CPU a page costs this process (the handler, the driver, the collector) and
// PostgreSQL (its backends' user and system time): on a shared machine, CPU per page is the
// figure that holds still when latencies do not.
func BenchmarkLeadPage(b *testing.B) {
	ctx := context.Background()
	store, c, owner := benchCompany(b)
	id, err := leadpage.Seed(ctx, store, c.ID, owner.ID)
	if err != nil {
		b.Fatal(err)
	}
	// The cache listener, as the service runs it: the team's lists are kept while it is live.
	lctx, stop := context.WithCancel(ctx)
	listening := make(chan struct{})
	go func() { _ = store.ListenCache(lctx, store.TeamCache()); close(listening) }()
	b.Cleanup(func() { stop(); <-listening })
	h, cookie := benchLogin(b, store)
	page := func() {
		r := httptest.NewRequest(http.MethodGet, "/app/leads/"+id.String(), nil)
		for _, ck := range cookie {
			r.AddCookie(ck)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		// Bytes, not String: a copy of the page per page was the benchmark's own garbage.
		if w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte("50. jegyzet")) {
			b.Fatalf("the lead page: %d", w.Code)
		}
	}
	for range 20 { // every pooled connection has prepared its statements
		page()
	}
	server, pg := cpuOfEach(b, store, page)
	b.ReportMetric(float64(server.Microseconds())/float64(b.N), "server-CPU-µs/page")
	b.ReportMetric(float64(pg.Microseconds())/float64(b.N), "pg-CPU-µs/page")
}

// cpuOfEach runs each b.N times, timed, and returns the CPU they cost this process and the
// store's PostgreSQL connections.
func cpuOfEach(b *testing.B, store *postgres.Store, each func()) (server, pg time.Duration) {
	backends := backendPIDs(b, store)
	pg0, self0 := backendCPU(b, backends), processCPU()
	b.ResetTimer()
	for range b.N {
		each()
	}
	b.StopTimer()
	return processCPU() - self0, backendCPU(b, backends) - pg0
}

// benchCompany opens a migrated store (closed when b ends) with one company and its owner,
// for the dashboard's benchmarks.
func benchCompany(b *testing.B) (*postgres.Store, company.Company, user.User) {
	ctx := context.Background()
	store, err := postgres.Open(ctx, pgtest.NewDSN(b), postgres.Options{MaxOpenConns: 2})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	if err := postgres.Migrate(ctx, store.DB(), nopWriter{}); err != nil {
		b.Fatal(err)
	}
	c, err := store.CreateCompany(ctx, "Mérés Kft.", plan.Business, plan.Override{})
	if err != nil {
		b.Fatal(err)
	}
	owner, _, err := user.Create(ctx, store, c.ID, "tulaj@meres.hu", user.Owner, password)
	if err != nil {
		b.Fatal(err)
	}
	return store, c, owner
}

// benchLogin serves the dashboard from store and logs benchCompany's owner in: the handler
// and the session's cookies.
func benchLogin(b *testing.B, store *postgres.Store) (http.Handler, []*http.Cookie) {
	h := web.New(web.Config{Store: store, Sessions: store.SessionStore(0)})
	login := httptest.NewRequest(http.MethodPost, "/app/login", strings.NewReader(url.Values{"email": {"tulaj@meres.hu"}, "password": {password}}.Encode()))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, login)
	cookie := rec.Result().Cookies()
	if rec.Code != http.StatusSeeOther || len(cookie) == 0 {
		b.Fatalf("login: %d", rec.Code)
	}
	return h, cookie
}

// processCPU is this process's user and system time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// backendCPU is the user and system time of PostgreSQL's processes pids (bench.ProcessesCPU).
func backendCPU(b *testing.B, pids []int) time.Duration {
	cpu, err := bench.ProcessesCPU(pids)
	if err != nil {
		b.Fatalf("reading a backend's CPU time: %v", err)
	}
	return cpu
}
