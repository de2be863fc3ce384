package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/web"
)

// exportBenchLeads is how many leads BenchmarkLeadsCSV exports each time.
const exportBenchLeads = 50_000

// BenchmarkLeadsCSV exports a company's exportBenchLeads leads, varied as make bench seeds
// them, through the dashboard's handler, and reports the CPU a row costs this process and
// PostgreSQL: go test -run '^$' -bench LeadsCSV -benchmem ./internal/web/
func BenchmarkLeadsCSV(b *testing.B) {
	ctx := context.Background()
	store, err := postgres.Open(ctx, pgtest.NewDSN(b), postgres.Options{MaxOpenConns: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	if err := postgres.Migrate(ctx, store.DB(), nopWriter{}); err != nil {
		b.Fatal(err)
	}
	c, err := store.CreateCompany(ctx, "Mérés Kft.", plan.Business, plan.Override{})
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := user.Create(ctx, store, c.ID, "tulaj@meres.hu", user.Owner, password); err != nil {
		b.Fatal(err)
	}
	for n := 0; n < exportBenchLeads; n += 1000 { // in parts, each well within the statement timeout
		if _, err := store.DB().ExecContext(ctx, `
INSERT INTO leads (id, company_id, first_name, last_name, email, phone, phone_e164, service,
                   details, source, referral_data, status, over_limit, created_at, updated_at)
SELECT gen_random_uuid(), $1,
       (ARRAY['Péter','Anna','Gábor','Eszter','László','Katalin','Zoltán','Judit'])[1 + i % 8],
       (ARRAY['Kovács','Nagy','Tóth','Szabó','Horváth','Varga','Kiss','Molnár','Németh'])[1 + i % 9],
       'lead' || i || '@example.hu',
       '+36 30 ' || lpad((i % 10000000)::text, 7, '0'), '+3630' || lpad((i % 10000000)::text, 7, '0'),
       (ARRAY['Napelem telepítés','Hőszivattyú','Klíma','Tetőfelújítás'])[1 + i % 4],
       jsonb_build_object('note', 'Családi ház, ' || (80 + i % 120) || ' m² tető, árajánlatot kér.'),
       (ARRAY['form','api','chat','manual'])[1 + i % 4],
       CASE WHEN i % 3 = 0 THEN jsonb_build_object('utm_source', 'google', 'utm_campaign', 'tavasz') END,
       (ARRAY['new','contacted','qualified','won','lost','over_limit'])[1 + i % 6], i % 6 = 5,
       now() - i * interval '30 seconds', now() - i * interval '30 seconds'
FROM generate_series($2::int + 1, $2::int + 1000) AS i`, c.ID, n); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := store.DB().ExecContext(ctx, "VACUUM (ANALYZE) leads"); err != nil {
		b.Fatal(err)
	}
	h := web.New(web.Config{Store: store, Sessions: store.SessionStore(0)})
	login := httptest.NewRequest(http.MethodPost, "/app/login", strings.NewReader(url.Values{"email": {"tulaj@meres.hu"}, "password": {password}}.Encode()))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, login)
	cookie := rec.Result().Cookies()
	if rec.Code != http.StatusSeeOther || len(cookie) == 0 {
		b.Fatalf("login: %d", rec.Code)
	}
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
	backends := backendPIDs(b, store)
	pg0, self0 := backendCPU(b, backends), processCPU()
	b.ResetTimer()
	for range b.N {
		export()
	}
	b.StopTimer()
	rows := float64(b.N * exportBenchLeads)
	b.ReportMetric(float64((processCPU()-self0).Nanoseconds())/rows, "server-CPU-ns/row")
	b.ReportMetric(float64((backendCPU(b, backends)-pg0).Nanoseconds())/rows, "pg-CPU-ns/row")
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
