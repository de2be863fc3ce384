package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/bench/leadpage"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/user"
)

// BenchmarkLeadFileParts measures where PostgreSQL's CPU for the lead page's statement
// (findSessionLeadFile) goes, on the page make bench's lead page step reads (20 related
// leads, 50 notes, 10 changes, 20 chat messages): the statement, then copies of it with one
// part cut out (its lateral subquery replaced by NULLs of the same types), each prepared on
// one connection and run in turn, so that every variant sees the same machine. The backend's
// CPU a statement (its scheduler statistics) is reported for each: the whole less a copy is
// what the cut part costs. "floor" is a prepared SELECT of one constant (the work of any
// statement), "file" the lead's columns and the session lookup alone, "teamless" the statement
// the page runs while the team cache is live. With
// LEADCHAT_BENCH_VARIANT, more variants, one a line, name=SQL with the same five parameters.
func BenchmarkLeadFileParts(b *testing.B) {
	ctx := context.Background()
	s, token, leadID := leadPageFile(b)
	whole := postgres.FindSessionLeadFile
	// The lists, each a scalar subquery (leadFileLists), by how each begins.
	lists := []struct{ name, start string }{
		{"messages", "(SELECT array_send(array_agg(ROW(m.visitor"},
		{"history", "(SELECT array_send(array_agg(ROW(h.field"},
		{"notes", "(SELECT array_send(array_agg(ROW(n.author_email"},
		{"users", "(SELECT array_send(array_agg(ROW(u.id"},
		{"related", "(SELECT array_send(array_agg(o.r))"},
	}
	variants := []struct{ name, sql string }{
		{"whole", whole},
		{"floor", `SELECT $1::text, $2::text[], $3::text[], $4::uuid, $5::int`},
		{"teamless", postgres.FindSessionTeamlessLeadFile}, // while the team cache is live
	}
	file := whole
	for _, l := range lists {
		variants = append(variants, struct{ name, sql string }{"no-" + l.name, cutList(b, whole, l.start)})
		file = cutList(b, file, l.start)
	}
	variants = append(variants, struct{ name, sql string }{"file", file})
	for _, v := range strings.Split(os.Getenv("LEADCHAT_BENCH_VARIANT"), "\n") {
		if name, q, ok := strings.Cut(v, "="); ok {
			variants = append(variants, struct{ name, sql string }{name, q})
		}
	}
	// LEADCHAT_BENCH_REPLACE: more variants, one a line, name=OLD=>NEW, the statement with
	// each OLD replaced by NEW (several pairs separated by " ;; ").
	for _, v := range strings.Split(os.Getenv("LEADCHAT_BENCH_REPLACE"), "\n") {
		name, pairs, ok := strings.Cut(v, "=")
		if !ok {
			continue
		}
		q := whole
		for _, pair := range strings.Split(pairs, " ;; ") {
			old, new, _ := strings.Cut(pair, "=>")
			if !strings.Contains(q, old) {
				b.Fatalf("%s: no %q", name, old)
			}
			q = strings.ReplaceAll(q, old, new)
		}
		variants = append(variants, struct{ name, sql string }{name, q})
	}
	if only := os.Getenv("LEADCHAT_BENCH_ONLY"); only != "" { // comma-separated names
		keep := variants[:0]
		for _, v := range variants {
			if strings.Contains(","+only+",", ","+v.name+",") {
				keep = append(keep, v)
			}
		}
		variants = keep
	}
	conn, err := s.DB().Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	var pid int
	if err := conn.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		b.Fatal(err)
	}
	if path := os.Getenv("LEADCHAT_BENCH_PIDFILE"); path != "" { // for a profiler
		if err := os.WriteFile(path, []byte(fmt.Sprint(pid)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	args := []any{token, pq.StringArray{"values", "user_id"}, pq.StringArray{"values", "company_id"}, leadID, 20}
	cpu := make([]int64, len(variants))
	stmts := make([]func() error, len(variants))
	for i, v := range variants {
		st, err := conn.PrepareContext(ctx, v.sql)
		if err != nil {
			b.Fatalf("%s: %v", v.name, err)
		}
		defer st.Close()
		stmts[i] = func() error {
			rows, err := st.QueryContext(ctx, args...)
			if err != nil {
				return err
			}
			n := 0
			for rows.Next() {
				n++
			}
			if err := rows.Close(); err != nil {
				return err
			}
			if n != 1 {
				return fmt.Errorf("%d rows", n)
			}
			return nil
		}
		for range 20 { // past the custom plans, as a pooled connection is
			if err := stmts[i](); err != nil {
				b.Fatalf("%s: %v", v.name, err)
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		for i := range variants {
			before := onCPU(b, pid)
			if err := stmts[i](); err != nil {
				b.Fatal(err)
			}
			cpu[i] += onCPU(b, pid) - before
		}
	}
	b.StopTimer()
	rows, err := conn.QueryContext(ctx, `SELECT generic_plans, custom_plans, left(regexp_replace(statement, '\s+', ' ', 'g'), 60) FROM pg_prepared_statements`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var g, c int
		var q string
		if err := rows.Scan(&g, &c, &q); err != nil {
			b.Fatal(err)
		}
		b.Logf("generic %d custom %d: %s", g, c, q)
	}
	rows.Close()
	// LEADCHAT_BENCH_EXPLAIN names a file to write each variant's plans to, run with
	// EXPLAIN (ANALYZE, BUFFERS, VERBOSE).
	if path := os.Getenv("LEADCHAT_BENCH_EXPLAIN"); path != "" {
		var out strings.Builder
		for _, v := range variants {
			if _, err := conn.ExecContext(ctx, "PREPARE x(text, text[], text[], uuid, int) AS "+v.sql); err != nil {
				b.Fatal(err)
			}
			for _, mode := range []string{"force_generic_plan", "force_custom_plan"} {
				if _, err := conn.ExecContext(ctx, "SET plan_cache_mode = "+mode); err != nil {
					b.Fatal(err)
				}
				rows, err := conn.QueryContext(ctx, fmt.Sprintf(`EXPLAIN (ANALYZE, BUFFERS, VERBOSE) EXECUTE x('%s', '{values,user_id}', '{values,company_id}', '%s', 20)`, token, leadID))
				if err != nil {
					b.Fatal(err)
				}
				var plan []string
				for rows.Next() {
					var line string
					rows.Scan(&line)
					plan = append(plan, line)
				}
				rows.Close()
				fmt.Fprintf(&out, "%s, %s:\n%s\n\n", v.name, mode, strings.Join(plan, "\n"))
			}
			if _, err := conn.ExecContext(ctx, "DEALLOCATE x; RESET plan_cache_mode"); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i, v := range variants {
		b.ReportMetric(float64(cpu[i])/1e3/float64(b.N), "pg-µs/"+v.name)
	}
}

// cutList replaces the scalar subquery of q that begins with start by a NULL (the related
// leads' by one that still takes their parameter, $5).
func cutList(b *testing.B, q, start string) string {
	b.Helper()
	i := strings.Index(q, start)
	if i < 0 {
		b.Fatalf("no list %q", start)
	}
	depth, j := 0, i
	for ; j < len(q); j++ {
		if q[j] == '(' {
			depth++
		} else if q[j] == ')' {
			if depth--; depth == 0 {
				break
			}
		}
	}
	null := "NULL::bytea"
	if strings.Contains(q[i:j], "$5") {
		null = "(SELECT NULL::bytea WHERE $5::int IS NOT NULL)"
	}
	return q[:i] + null + q[j+1:]
}

// leadPageFile stores the lead page of make bench's lead page step (BenchmarkLeadPage's) in a
// company of its own, with a live session of its owner, and returns the store, the session's
// token and the lead's id.
func leadPageFile(b *testing.B) (*postgres.Store, string, uuid.UUID) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDSN(b), postgres.Options{MaxOpenConns: 2})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if err := s.Prepare(ctx); err != nil {
		b.Fatal(err)
	}
	c, err := s.CreateCompany(ctx, "Mérés Kft.", plan.Business, plan.Override{})
	if err != nil {
		b.Fatal(err)
	}
	owner, err := s.CreateUser(ctx, c.ID, "tulaj@meres.hu", user.Owner, "nem valódi hash", nil)
	if err != nil {
		b.Fatal(err)
	}
	id, err := leadpage.Seed(ctx, s, c.ID, owner.ID)
	if err != nil {
		b.Fatal(err)
	}
	// A big company, as make bench's (a million leads there), and its statistics: the plans
	// PostgreSQL chooses for a handful of rows read the tables differently.
	tx, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
		b.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, seedPeople, c.ID, 50000, 0, c.ID, "", ""); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, "SET statement_timeout = 0; ANALYZE"); err != nil {
		b.Fatal(err)
	}
	data := `{"deadline":"2030-01-01T00:00:00Z","values":{"company_id":"` + c.ID.String() + `","seen":1,"user_id":"` + owner.ID.String() + `"}}`
	if err := s.SessionStore(0).Commit("munkamenet", []byte(data), time.Now().Add(time.Hour)); err != nil {
		b.Fatal(err)
	}
	return s, "munkamenet", id
}
