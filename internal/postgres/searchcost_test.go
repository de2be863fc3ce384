package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// BenchmarkSearchPendingCPU measures what a search through the trigram index costs PostgreSQL
// when the index's pending list, which every such search reads whole, holds the entries of
// LEADCHAT_BENCH_PENDING leads (default 2500, about 4 MB; the index's limit is lifted so that
// no create merges them), against the same search with the list merged: two databases of
// LEADCHAT_BENCH_LEADS seeded leads (default 100,000), one search of each in turn, CPU a search
// read from the backends' scheduler statistics. The texts are make bench's dashboard search's
// that go through the trigram index.
func BenchmarkSearchPendingCPU(b *testing.B) {
	seeded, pending := 100000, 2500
	if v, err := strconv.Atoi(os.Getenv("LEADCHAT_BENCH_LEADS")); err == nil && v > 0 {
		seeded = v
	}
	if v, err := strconv.Atoi(os.Getenv("LEADCHAT_BENCH_PENDING")); err == nil && v >= 0 {
		pending = v
	}
	ctx := context.Background()
	type side struct {
		s   *postgres.Store
		c   uuid.UUID
		pid int
		cpu int64
	}
	var sides [2]*side // merged, pending
	var pendingPages int64
	for i := range sides {
		dsn := pgtest.NewDSN(b)
		s, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		co, err := s.CreateCompany(ctx, "A", plan.Enterprise, plan.Override{})
		if err != nil {
			b.Fatal(err)
		}
		c := co.ID
		pgtest.SeedLeads(b, dsn, c, seeded)
		if _, err := s.DB().ExecContext(ctx, `ALTER INDEX leads_search SET (gin_pending_list_limit = 1000000)`); err != nil {
			b.Fatal(err)
		}
		for g := 0; g < pending; g += 64 {
			creates := make([]postgres.GroupCreate, min(64, pending-g))
			for k := range creates {
				l := lead.Lead{ID: lead.NewID(), FirstName: "Kovács Péter", Email: fmt.Sprintf("peter.kovacs%d@example.hu", g+k),
					Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: "Napelem telepítés", Source: lead.SourceAPI}
				creates[k] = postgres.GroupCreate{Ctx: ctx, CompanyID: c, Lead: l}
			}
			_, failed := postgres.StoreGroup(s, creates)
			for _, err := range failed {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
		if i == 0 { // the other side's list is as long as this one was
			pendingPages = mergeSearchIndex(b, s)
		}
		sd := &side{s: s, c: c}
		if err := s.DB().QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&sd.pid); err != nil {
			b.Fatal(err)
		}
		sides[i] = sd
	}
	texts := []string{"Eszter", "tető"}
	for k := range 8 {
		texts = append(texts, fmt.Sprintf("lead%d", 1+k*(seeded/8)))
	}
	search := func(sd *side, n int) {
		before := onCPU(b, sd.pid)
		if _, err := sd.s.ListLeads(ctx, sd.c, lead.Filter{Text: texts[n%len(texts)], Limit: 50}); err != nil {
			b.Fatal(err)
		}
		sd.cpu += onCPU(b, sd.pid) - before
	}
	for n := range 2 * len(texts) { // the caches warm
		search(sides[0], n)
		search(sides[1], n)
	}
	sides[0].cpu, sides[1].cpu = 0, 0
	b.ResetTimer()
	for n := range b.N {
		search(sides[0], n)
		search(sides[1], n)
	}
	b.StopTimer()
	b.ReportMetric(float64(sides[0].cpu)/1e3/float64(b.N), "pg-µs/search-merged")
	b.ReportMetric(float64(sides[1].cpu)/1e3/float64(b.N), "pg-µs/search-pending")
	b.ReportMetric(float64(pendingPages*8), "pending-kB")
}
