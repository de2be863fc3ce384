package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/bench"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
)

// listBenchLeads is how many leads BenchmarkListPage's company holds.
const listBenchLeads = 20_000

// BenchmarkListPage serves the list API's pages that make bench's read step asks for (50 leads,
// the first page and pages from cursors in the older half) through the whole handler, one page
// at a time, and reports the CPU a page costs this process (middleware, handler, driver,
// collector) and PostgreSQL (its backends' user and system time):
// go test -run '^$' -bench ListPage -benchmem -benchtime 2000x ./internal/httpapi/
func BenchmarkListPage(b *testing.B) {
	ctx := context.Background()
	dsn := pgtest.NewDSN(b)
	svc, err := service.Open(ctx, service.Config{DatabaseURL: dsn, MaxDBConns: 2, ShutdownGrace: time.Second,
		Events: service.EventsConfig{RecordOnly: true}, LogLevel: slog.LevelError}, io.Discard, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go svc.Serve(sctx, ln) // the change feed makes the key cache live, as in production
	for !svc.CacheLive() {
		time.Sleep(time.Millisecond)
	}
	store := svc.Store()
	c, err := store.CreateCompany(ctx, "Lista Kft.", plan.Enterprise, plan.Override{})
	if err != nil {
		b.Fatal(err)
	}
	priv, err := admin.CreateKey(ctx, store, c.ID, auth.Private, nil, true)
	if err != nil {
		b.Fatal(err)
	}
	// The service's statements have a timeout that seeding would pass.
	seeder, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 1, StatementTimeout: 10 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer seeder.Close()
	if _, err := seeder.DB().ExecContext(ctx, bench.SeedLeads, c.ID, 0, listBenchLeads); err != nil {
		b.Fatal(err)
	}
	if _, err := seeder.DB().ExecContext(ctx, "VACUUM (ANALYZE) leads"); err != nil {
		b.Fatal(err)
	}
	var deep []string
	rows, err := store.DB().QueryContext(ctx, `SELECT created_at, id FROM leads WHERE company_id = $1
		ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 64`, c.ID, listBenchLeads/2)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var cur lead.Cursor
		if err := rows.Scan(&cur.CreatedAt, &cur.ID); err != nil {
			b.Fatal(err)
		}
		deep = append(deep, "/api/v1/leads?limit=50&cursor="+url.QueryEscape(cur.Text(lead.Filter{})))
	}
	rows.Close()
	h := svc.Handler()
	i := 0
	page := func(paths []string) func() {
		return func() {
			r := httptest.NewRequest(http.MethodGet, paths[i%len(paths)], nil)
			i++
			r.Header.Set("X-Api-Key", priv.Key)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte(`"next_cursor":"`)) {
				b.Fatalf("a list page: %d %.200s", w.Code, w.Body.Bytes())
			}
		}
	}
	for _, s := range []struct {
		name  string
		paths []string
	}{{"first", []string{"/api/v1/leads?limit=50"}}, {"deep", deep}} {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			each := page(s.paths)
			for range 20 { // every pooled connection has prepared its statement
				each()
			}
			backends := listBackends(b, store)
			pg0, self0 := listBackendCPU(b, backends), cpuTime(b)
			b.ResetTimer()
			for range b.N {
				each()
			}
			b.StopTimer()
			server, pg := cpuTime(b)-self0, listBackendCPU(b, backends)-pg0
			b.ReportMetric(float64(server.Microseconds())/float64(b.N), "server-CPU-µs/page")
			b.ReportMetric(float64(pg.Microseconds())/float64(b.N), "pg-CPU-µs/page")
		})
	}
}

// listBackends are the PostgreSQL processes of the store's database.
func listBackends(b *testing.B, store *postgres.Store) []int {
	rows, err := store.DB().QueryContext(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var pids []int
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			b.Fatal(err)
		}
		pids = append(pids, pid)
	}
	return pids
}

// listBackendCPU is the user and system time of PostgreSQL's processes pids (bench.ProcessesCPU).
func listBackendCPU(b *testing.B, pids []int) time.Duration {
	cpu, err := bench.ProcessesCPU(pids)
	if err != nil {
		b.Fatalf("reading a backend's CPU time: %v", err)
	}
	return cpu
}
