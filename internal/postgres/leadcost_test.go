package postgres_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
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
	v.companies = benchCompanies(b, s, 100)
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

// BenchmarkLeadGroupParts measures what each part of the grouped lead statement costs
// PostgreSQL: the statement as the writer runs it (make bench's body, no referral data, no key,
// companies without webhooks, notify addresses or round-robin, each lead of a group in a company
// of its own, as make bench spreads 100 companies) against the same statement with one part cut
// out, all prepared on one connection and run in turn, one group each. It reports the backend's
// CPU time a lead (pg-µs/lead-NAME, from its scheduler statistics) and the WAL a lead
// (WAL-B/lead-NAME, the cluster's insert position before and after, so a checkpoint or
// autovacuum in the window adds to it). The cut statements store the same leads but skip the
// day's counts (no-daily), the round-robin turn (no-turn), the dispatch job's check and insert
// (no-job), the outbox row with its checks and the job (no-events), or all of these (leads-only):
// they measure, they are not statements to run. The group size is LEADCHAT_BENCH_GROUP
// (default 16).
func BenchmarkLeadGroupParts(b *testing.B) {
	group := 16
	if v, err := strconv.Atoi(os.Getenv("LEADCHAT_BENCH_GROUP")); err == nil && v > 0 {
		group = v
	}
	full := postgres.InsertLeadsSQL
	noTurn := func(q string) string {
		i, j := strings.Index(q, "), turn AS ("), strings.Index(q, "), inserted AS (")
		if i < 0 || j < i {
			b.Fatal("the statement has no turn and inserted entries")
		}
		return q[:i] + "), assigned AS (\n    SELECT d.*, NULL::uuid AS assignee_id FROM decided d\n" + q[j:]
	}
	noEvents := func(q string) string { return cutEntries(b, q, "ev_source", "ev_event", "ev_dispatch") }
	parts := []*groupPart{
		{name: "statement", q: full},
		{name: "no-daily", q: cutEntries(b, full, "daily")},
		{name: "no-turn", q: noTurn(full)},
		{name: "no-job", q: cutEntries(b, full, "ev_dispatch")},
		{name: "no-events", q: noEvents(full)},
		{name: "leads-only", q: noEvents(noTurn(cutEntries(b, full, "daily")))},
	}
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDSN(b), postgres.Options{MaxOpenConns: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	companies := benchCompanies(b, s, 100)
	var pid int
	if err := s.DB().QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		b.Fatal(err)
	}
	for _, p := range parts {
		if p.stmt, err = s.DB().PrepareContext(ctx, p.q); err != nil {
			b.Fatalf("%s: %v", p.name, err)
		}
		b.Cleanup(func() { p.stmt.Close() })
	}
	ids, leads, k := make([]uuid.UUID, group), make([]lead.Lead, group), 0
	store := func(p *groupPart) {
		for i := range leads {
			ids[i] = companies[k%len(companies)]
			leads[i] = lead.Lead{ID: lead.NewID(), FirstName: "Kovács Péter", Email: "peter.kovacs@example.hu",
				Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: "Napelem telepítés", Source: lead.SourceAPI}
			k++
		}
		arg := postgres.LeadsJSON(ids, leads)
		walBefore := walInsertLSN(b, s.DB())
		before := onCPU(b, pid)
		rows, err := p.stmt.QueryContext(ctx, arg)
		if err != nil {
			b.Fatalf("%s: %v", p.name, err)
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Close(); err != nil {
			b.Fatal(err)
		}
		p.cpu += onCPU(b, pid) - before
		p.wal += walInsertLSN(b, s.DB()) - walBefore
		if n != group {
			b.Fatalf("%s stored %d leads of %d", p.name, n, group)
		}
	}
	for range 100 { // a table that is not empty, and the plans settled
		for _, p := range parts {
			store(p)
		}
	}
	for _, p := range parts {
		p.cpu, p.wal = 0, 0
	}
	b.ResetTimer()
	for range b.N {
		for _, p := range parts {
			store(p)
		}
	}
	b.StopTimer()
	for _, p := range parts {
		b.ReportMetric(float64(p.cpu)/1e3/float64(b.N*group), "pg-µs/lead-"+p.name)
		b.ReportMetric(float64(p.wal)/float64(b.N*group), "WAL-B/lead-"+p.name)
	}
}

// groupPart is a variant of the grouped lead statement BenchmarkLeadGroupParts measures.
type groupPart struct {
	name, q string
	stmt    *sql.Stmt
	cpu     int64 // the backend's nanoseconds on the CPU in the measured groups
	wal     int64 // WAL bytes written in the measured groups
}

// cutEntries is the statement q without its WITH entries names, each "), name AS (" up to the
// next entry or the end of the list.
func cutEntries(b *testing.B, q string, names ...string) string {
	for _, name := range names {
		i := strings.Index(q, "), "+name+" AS (")
		if i < 0 {
			b.Fatalf("the statement has no entry %s", name)
		}
		rest := q[i+2:]
		j := strings.Index(rest, "\n), ")
		if k := strings.Index(rest, "\n)\n"); j < 0 || k >= 0 && k < j {
			j = k
		}
		if j < 0 {
			b.Fatalf("the entry %s does not end", name)
		}
		q = q[:i] + rest[j:]
	}
	return q
}

// walInsertLSN is the cluster's WAL insert position, in bytes.
func walInsertLSN(b *testing.B, db *sql.DB) int64 {
	var n int64
	if err := db.QueryRow(`SELECT pg_current_wal_insert_lsn() - '0/0'`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}
