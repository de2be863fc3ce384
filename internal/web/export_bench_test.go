package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/bench"
	"github.com/leadchat/leadchat/internal/postgres"
)

// exportBenchLeads is how many leads BenchmarkLeadsCSV exports each time.
const exportBenchLeads = 50_000

// BenchmarkLeadsCSV exports a company's exportBenchLeads leads, seeded as make bench seeds
// them (bench.SeedLeads), through the dashboard's handler, and reports the CPU a row costs
// this process and PostgreSQL: go test -run '^$' -bench LeadsCSV -benchmem ./internal/web/
func BenchmarkLeadsCSV(b *testing.B) {
	ctx := context.Background()
	store, c, _ := benchCompany(b)
	for n := 0; n < exportBenchLeads; n += 1000 { // in parts, each well within the statement timeout
		if _, err := store.DB().ExecContext(ctx, bench.SeedLeads, c.ID, n, 1000); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := store.DB().ExecContext(ctx, "VACUUM (ANALYZE) leads"); err != nil {
		b.Fatal(err)
	}
	h, cookie := benchLogin(b, store)
	export := func() {
		r := httptest.NewRequest(http.MethodGet, "/app/leads.csv", nil)
		for _, ck := range cookie {
			r.AddCookie(ck)
		}
		w := &countingWriter{header: http.Header{}}
		h.ServeHTTP(w, r)
		if w.status != http.StatusOK || w.lines != exportBenchLeads+1 {
			b.Fatalf("the export: %d, %d lines", w.status, w.lines)
		}
	}
	export()
	server, pg := cpuOfEach(b, store, export)
	rows := float64(b.N * exportBenchLeads)
	b.ReportMetric(float64(server.Nanoseconds())/rows, "server-CPU-ns/row")
	b.ReportMetric(float64(pg.Nanoseconds())/rows, "pg-CPU-ns/row")
	b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
}

// countingWriter is a ResponseWriter that keeps the status and counts the body's lines.
type countingWriter struct {
	header http.Header
	status int
	lines  int
}

func (w *countingWriter) Header() http.Header { return w.header }

func (w *countingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.lines += strings.Count(string(p), "\n")
	return len(p), nil
}

// backendPIDs are the process ids of the store's PostgreSQL connections.
func backendPIDs(b *testing.B, store *postgres.Store) []int {
	var pids []int
	rows, err := store.DB().QueryContext(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			b.Fatal(err)
		}
		pids = append(pids, pid)
	}
	return pids
}
