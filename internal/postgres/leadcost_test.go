package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// BenchmarkLeadGroupCPU measures what PostgreSQL's backend spends on the grouped writer's
// statement, a group of lead creates spread over 100 companies as make bench's lead step
// spreads them: CPU time a lead, read from the backend's scheduler statistics, which other
// work on the machine changes far less than it changes throughput. It compares the schema with
// variants of it, each on a database of its own, one group each in turn, so that every variant
// sees the same machine. The group size is LEADCHAT_BENCH_GROUP (default 16); a variant is
// LEADCHAT_BENCH_VARIANT, name=DDL run after the migrations (e.g. no-search-index=DROP INDEX
// leads_search).
func BenchmarkLeadGroupCPU(b *testing.B) {
	group := 16
	if v, err := strconv.Atoi(os.Getenv("LEADCHAT_BENCH_GROUP")); err == nil && v > 0 {
		group = v
	}
	variants := []*costVariant{{name: "schema"}}
	if v := os.Getenv("LEADCHAT_BENCH_VARIANT"); v != "" {
		name, ddl, _ := strings.Cut(v, "=")
		variants = append(variants, &costVariant{name: name, ddl: ddl})
	}
	for _, v := range variants {
		v.open(b, group)
	}
	b.ResetTimer()
	for n := range b.N {
		for _, v := range variants {
			v.store(b, n)
		}
	}
	b.StopTimer()
	for _, v := range variants {
		b.ReportMetric(float64(v.cpu)/1e3/float64(b.N*group), "pg-µs/lead-"+v.name)
	}
}

// costVariant is a schema BenchmarkLeadGroupCPU measures, with its store on one connection.
type costVariant struct {
	name, ddl string
	s         *postgres.Store
	companies []uuid.UUID
	pid       int
	creates   []postgres.GroupCreate
	cpu       int64 // the backend's nanoseconds on the CPU storing the measured groups
}

func (v *costVariant) open(b *testing.B, group int) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDSN(b), postgres.Options{MaxOpenConns: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	v.s, v.creates = s, make([]postgres.GroupCreate, group)
	if v.ddl != "" {
		if _, err := s.DB().ExecContext(ctx, v.ddl); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Prepare(ctx); err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		c, err := s.CreateCompany(ctx, fmt.Sprintf("bench %d", i+1), plan.Enterprise, plan.Override{})
		if err != nil {
			b.Fatal(err)
		}
		v.companies = append(v.companies, c.ID)
	}
	if err := s.DB().QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&v.pid); err != nil {
		b.Fatal(err)
	}
	for n := range 200 { // a table that is not empty, and the plans settled
		v.store(b, n)
	}
	v.cpu = 0
}

// store stores the n-th group, as make bench's lead body, and adds the backend's CPU time.
func (v *costVariant) store(b *testing.B, n int) {
	ctx := context.Background()
	for i := range v.creates {
		l := lead.Lead{ID: lead.NewID(), FirstName: "Kovács Péter", Email: "peter.kovacs@example.hu",
			Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: "Napelem telepítés", Source: lead.SourceAPI}
		v.creates[i] = postgres.GroupCreate{Ctx: ctx, CompanyID: v.companies[(n*len(v.creates)+i)%len(v.companies)], Lead: l}
	}
	before := onCPU(b, v.pid)
	_, failed := postgres.StoreGroup(v.s, v.creates)
	v.cpu += onCPU(b, v.pid) - before
	for _, err := range failed {
		if err != nil {
			b.Fatal(err)
		}
	}
}

// onCPU is the nanoseconds process pid has run, from /proc/PID/schedstat.
func onCPU(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
	if err != nil {
		b.Fatal(err)
	}
	ns, err := strconv.ParseInt(strings.Fields(string(data))[0], 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	return ns
}
