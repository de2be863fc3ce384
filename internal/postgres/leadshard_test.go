package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// companyOfWriter makes companies until one is stored by writer w of n.
func companyOfWriter(t *testing.T, s *postgres.Store, w, n int) uuid.UUID {
	t.Helper()
	for i := range 1000 {
		c := company(t, s, fmt.Sprintf("writer %d of %d, %d", w, n, i))
		if postgres.WriterOf(c, n) == w {
			return c
		}
	}
	t.Fatalf("no company of writer %d of %d in 1000", w, n)
	return uuid.Nil
}

// lockWaiters is how many of the database's backends wait for a lock.
func lockWaiters(t *testing.T, s *postgres.Store) int {
	t.Helper()
	var n int
	err := s.DB().QueryRow(`SELECT count(*) FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// waitFor polls cond, which reads the database's state, until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

type createResult struct {
	created lead.Created
	err     error
}

// A company whose creates cannot be stored (a transaction holds its counter row) holds up only
// its own writer: its next create waits in that writer's queue, not in a second writer, and a
// company of the other writer is stored meanwhile. When the row is free, the waiting creates
// are stored in order.
func TestLeadWritersSplitCompanies(t *testing.T) {
	t.Parallel()
	const writers = 2
	s := open(t, postgres.Options{LeadWriters: writers, StatementTimeout: 20 * time.Second})
	ctx := context.Background()
	a, b := companyOfWriter(t, s, 0, writers), companyOfWriter(t, s, 1, writers)
	if _, err := s.CreateLead(ctx, a, newLead("A"), nil, nil); err != nil {
		t.Fatal(err)
	}
	holder, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback()
	if _, err := holder.Exec(`UPDATE lead_counters SET count = count WHERE company_id = $1`, a); err != nil {
		t.Fatal(err)
	}
	create := func(c uuid.UUID, name string) chan createResult {
		done := make(chan createResult, 1)
		go func() {
			created, err := s.CreateLead(ctx, c, newLead(name), nil, nil)
			done <- createResult{created, err}
		}()
		return done
	}
	first := create(a, "A2")
	waitFor(t, "A's first create to wait for its counter row", func() bool { return lockWaiters(t, s) == 1 })
	second := create(a, "A3")
	waitFor(t, "A's second create to be taken", func() bool { return postgres.QueuedLeads(s)+lockWaiters(t, s) >= 2 })
	if n := lockWaiters(t, s); n != 1 {
		t.Errorf("%d creates wait for A's counter row, want 1 (the second in its writer's queue)", n)
	}
	other, err := s.CreateLead(ctx, b, newLead("B"), nil, nil)
	if err != nil || other.Count != 1 {
		t.Fatalf("B's create while A's writer waits: %+v, %v; want count 1", other, err)
	}
	select {
	case r := <-first:
		t.Fatalf("A's create returned before its counter row was free: %+v, %v", r.created, r.err)
	default:
	}
	if err := holder.Rollback(); err != nil {
		t.Fatal(err)
	}
	for i, done := range []chan createResult{first, second} {
		r := <-done
		if r.err != nil || r.created.Count != i+2 {
			t.Errorf("A's create %d: %+v, %v; want count %d", i+2, r.created, r.err, i+2)
		}
	}
}

// Every company has one writer, whatever the number of writers, and the writers share the
// companies.
func TestWriterOfCompany(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 4, 7} {
		per := make([]int, n)
		const companies = 2000
		for range companies {
			c := uuid.New()
			w := postgres.WriterOf(c, n)
			if w < 0 || w >= n {
				t.Fatalf("company %s: writer %d of %d", c, w, n)
			}
			if again := postgres.WriterOf(c, n); again != w {
				t.Fatalf("company %s: writer %d, then %d", c, w, again)
			}
			per[w]++
		}
		for w, k := range per {
			if k < companies/n/2 {
				t.Errorf("%d writers: writer %d stores %d of %d companies", n, w, k, companies)
			}
		}
	}
}

// groupsWithinWriters fails t if a transaction stored leads of companies of two writers.
func groupsWithinWriters(t *testing.T, s *postgres.Store, ids []uuid.UUID, writers int) {
	t.Helper()
	rows, err := s.DB().Query(`SELECT xmin::text, company_id FROM leads WHERE id = ANY($1::uuid[])`, pq.Array(ids))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	writerOfTx := map[string]int{}
	for rows.Next() {
		var tx string
		var c uuid.UUID
		if err := rows.Scan(&tx, &c); err != nil {
			t.Fatal(err)
		}
		w := postgres.WriterOf(c, writers)
		if was, ok := writerOfTx[tx]; !ok {
			writerOfTx[tx] = w
		} else if was != w {
			t.Errorf("transaction %s stored leads of writers %d and %d", tx, was, w)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLeadWriters stores concurrent lead creates over 100 companies, as make bench's
// spread step, with 1, 2 and 4 writers, and reports what does not depend on the machine's load
// beside leads a second: leads a transaction (group size), WAL bytes and records, commits and
// PostgreSQL's CPU (every process of the cluster) a lead. Run with -count to alternate them.
// The test cluster runs without fsync: it measures statements and CPU, not commit flushes,
// which make bench's cluster does.
func BenchmarkLeadWriters(b *testing.B) {
	for _, conns := range []int{16, 64} {
		for _, writers := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("conns=%d/writers=%d", conns, writers), func(b *testing.B) {
				benchWriters(b, conns, writers)
			})
		}
	}
}

func benchWriters(b *testing.B, conns, writers int) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDSN(b), postgres.Options{LeadWriters: writers})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if err := s.Prepare(ctx); err != nil {
		b.Fatal(err)
	}
	companies := benchCompanies(b, s, 100)
	run := func(n int) {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := next.Add(1); i <= int64(n); i = next.Add(1) {
					if _, err := s.CreateLead(ctx, companies[i%int64(len(companies))], newLead("Bench"), nil, nil); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	run(20 * conns) // connections open, plans settled
	type stats struct {
		walBytes, walRecords, commits, leads, txs int64
		cpu                                       int64
	}
	read := func() stats {
		var st stats
		err := s.DB().QueryRow(`SELECT (SELECT wal_bytes::bigint FROM pg_stat_wal), (SELECT wal_records FROM pg_stat_wal),
            (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),
            (SELECT count(*) FROM leads), (SELECT count(DISTINCT xmin::text) FROM leads)`).
			Scan(&st.walBytes, &st.walRecords, &st.commits, &st.leads, &st.txs)
		if err != nil {
			b.Fatal(err)
		}
		st.cpu = clusterCPU(b, s)
		return st
	}
	if _, err := s.DB().Exec(`SELECT pg_stat_force_next_flush()`); err != nil {
		b.Fatal(err)
	}
	before := read()
	b.ResetTimer()
	run(b.N)
	b.StopTimer()
	if _, err := s.DB().Exec(`SELECT pg_stat_force_next_flush()`); err != nil {
		b.Fatal(err)
	}
	after := read()
	per := func(v int64) float64 { return float64(v) / float64(b.N) }
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "leads/s")
	b.ReportMetric(float64(b.N)/float64(after.txs-before.txs), "leads/group")
	b.ReportMetric(per(after.walBytes-before.walBytes), "WAL-B/lead")
	b.ReportMetric(per(after.walRecords-before.walRecords), "WAL-rec/lead")
	b.ReportMetric(per(after.commits-before.commits), "commits/lead")
	b.ReportMetric(per(after.cpu-before.cpu)/1e3, "pg-µs/lead")
}

// clusterCPU is the nanoseconds the test cluster's processes have run: the postmaster's
// children, found through the backends' parent.
func clusterCPU(b *testing.B, s *postgres.Store) int64 {
	var pid int
	if err := s.DB().QueryRow(`SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		b.Fatal(err)
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	parent := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))[1]
	children, err := os.ReadFile(fmt.Sprintf("/proc/%s/task/%s/children", parent, parent))
	if err != nil {
		b.Fatal(err)
	}
	var ns int64
	for _, p := range strings.Fields(string(children)) {
		data, err := os.ReadFile("/proc/" + p + "/schedstat")
		if err != nil {
			continue // ended since
		}
		v, _ := strconv.ParseInt(strings.Fields(string(data))[0], 10, 64)
		ns += v
	}
	return ns
}

// benchCompanies creates n Enterprise companies for a benchmark's leads, as make bench spreads
// its lead creates.
func benchCompanies(b *testing.B, s *postgres.Store, n int) []uuid.UUID {
	var out []uuid.UUID
	for i := range n {
		c, err := s.CreateCompany(context.Background(), fmt.Sprintf("bench %d", i+1), plan.Enterprise, plan.Override{})
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, c.ID)
	}
	return out
}
