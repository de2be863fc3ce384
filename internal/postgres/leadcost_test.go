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
// sees the same machine. The group size is LEADCHAT_BENCH_GROUP (default 16); the variants are
// LEADCHAT_BENCH_VARIANT, one a line, each name=DDL run after the migrations (e.g.
// no-search-index=DROP INDEX leads_search). With LEADCHAT_BENCH_CLEAN=k, the search index's
// pending list is merged into its tree after every k groups by gin_clean_pending_list on another
// connection, whose CPU is reported apart (pg-µs/lead-clean-NAME). With
// LEADCHAT_BENCH_DISTINCT set, each lead has a name and an address of its own instead of make
// bench's one body, so that the index holds many more keys, as a real company's does.
func BenchmarkLeadGroupCPU(b *testing.B) {
	group := 16
	if v, err := strconv.Atoi(os.Getenv("LEADCHAT_BENCH_GROUP")); err == nil && v > 0 {
		group = v
	}
	clean, _ := strconv.Atoi(os.Getenv("LEADCHAT_BENCH_CLEAN"))
	variants := []*costVariant{{name: "schema"}}
	for _, v := range strings.Split(os.Getenv("LEADCHAT_BENCH_VARIANT"), "\n") {
		if v != "" {
			name, ddl, _ := strings.Cut(v, "=")
			variants = append(variants, &costVariant{name: name, ddl: ddl})
		}
	}
	distinct := os.Getenv("LEADCHAT_BENCH_DISTINCT") != ""
	for _, v := range variants {
		v.distinct = distinct
		v.open(b, group, clean)
	}
	b.ResetTimer()
	for n := range b.N {
		for _, v := range variants {
			v.store(b, n)
			if clean > 0 && (n+1)%clean == 0 {
				v.clean(b)
			}
		}
	}
	b.StopTimer()
	for _, v := range variants {
		b.ReportMetric(float64(v.cpu)/1e3/float64(b.N*group), "pg-µs/lead-"+v.name)
		if clean > 0 {
			b.ReportMetric(float64(v.cleanCPU)/1e3/float64(b.N*group), "pg-µs/lead-clean-"+v.name)
		}
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
	distinct  bool  // each lead has a name and an address of its own
	// cleaner merges the search index's pending list on a connection of its own (cleanerPID),
	// with LEADCHAT_BENCH_CLEAN.
	cleaner    *postgres.Store
	cleanerPID int
	cleanCPU   int64
}

func (v *costVariant) open(b *testing.B, group, clean int) {
	ctx := context.Background()
	dsn := pgtest.NewDSN(b)
	s, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if clean > 0 {
		if v.cleaner, err = postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 1}); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { v.cleaner.Close() })
		if err := v.cleaner.DB().QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&v.cleanerPID); err != nil {
			b.Fatal(err)
		}
	}
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
	if v.cleaner != nil {
		v.clean(b)
	}
	v.cpu, v.cleanCPU = 0, 0
}

// clean merges the search index's pending list into it, if the variant has the index, and adds
// the cleaner's CPU time.
func (v *costVariant) clean(b *testing.B) {
	before := onCPU(b, v.cleanerPID)
	if _, err := v.cleaner.DB().ExecContext(context.Background(),
		`SELECT gin_clean_pending_list(oid) FROM pg_class WHERE relname = 'leads_search'`); err != nil {
		b.Fatal(err)
	}
	v.cleanCPU += onCPU(b, v.cleanerPID) - before
}

// store stores the n-th group, as make bench's lead body, and adds the backend's CPU time.
func (v *costVariant) store(b *testing.B, n int) {
	ctx := context.Background()
	for i := range v.creates {
		l := lead.Lead{ID: lead.NewID(), FirstName: "Kovács Péter", Email: "peter.kovacs@example.hu",
			Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: "Napelem telepítés", Source: lead.SourceAPI}
		if v.distinct {
			name := distinctName(n*len(v.creates) + i)
			l.FirstName, l.Email = "Kovács "+name, name+"@example.hu"
		}
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

// distinctName is a lowercase name of seven letters scattered by k, so that the leads' names
// and addresses spread over many trigrams, as real ones do.
func distinctName(k int) string {
	x := uint64(k)*0x9e3779b97f4a7c15 + 1
	b := make([]byte, 7)
	for i := range b {
		b[i] = 'a' + byte(x%26)
		x /= 26
	}
	return string(b)
}
