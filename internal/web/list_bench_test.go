package web_test

import (
	"context"
	"testing"

	"github.com/leadchat/leadchat/internal/bench"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
)

// BenchmarkListFirstPage reads the first page (limits.ListDefault leads) of a company's
// leads, seeded as make bench seeds them, from the store as the list API and the dashboard's
// leads page do, one page at a time, and reports the CPU a page costs this process and
// PostgreSQL: go test -run '^$' -bench ListFirstPage ./internal/web/
func BenchmarkListFirstPage(b *testing.B) {
	ctx := context.Background()
	store, c, _ := benchCompany(b)
	if _, err := store.DB().ExecContext(ctx, bench.SeedLeads, c.ID, 0, 5000); err != nil {
		b.Fatal(err)
	}
	if _, err := store.DB().ExecContext(ctx, "VACUUM (ANALYZE) leads"); err != nil {
		b.Fatal(err)
	}
	page := func() {
		p, err := store.ListLeads(ctx, c.ID, lead.Filter{Limit: limits.ListDefault})
		if err != nil || len(p.Leads) != limits.ListDefault {
			b.Fatalf("the first page: %d leads, %v", len(p.Leads), err)
		}
	}
	for range 20 { // every pooled connection has prepared its statement
		page()
	}
	server, pg := cpuOfEach(b, store, page)
	b.ReportMetric(float64(server.Microseconds())/float64(b.N), "server-CPU-µs/page")
	b.ReportMetric(float64(pg.Microseconds())/float64(b.N), "pg-CPU-µs/page")
}
