package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) { Main(m) }

func TestNewDatabasesAreIndependent(t *testing.T) {
	began := time.Now()
	a := New(t)
	t.Logf("a fresh database in %v", time.Since(began).Round(time.Microsecond))
	b := New(t)

	for name, db := range map[string]interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}{"a": a, "b": b} {
		var n int
		if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM leads").Scan(&n); err != nil {
			t.Fatalf("%s: the leads table: %v", name, err)
		}
		if n != 0 {
			t.Errorf("%s: %d leads in a fresh database", name, n)
		}
	}
	if _, err := a.Exec("CREATE TABLE only_in_a (id int)"); err != nil {
		t.Fatal(err)
	}
	var found sql.NullString
	if err := b.Get(&found, "SELECT to_regclass('only_in_a')::text"); err != nil {
		t.Fatal(err)
	}
	if found.Valid {
		t.Error("a table created in one test database shows up in another")
	}
	var nameA, nameB string
	if err := a.Get(&nameA, "SELECT current_database()"); err != nil {
		t.Fatal(err)
	}
	if err := b.Get(&nameB, "SELECT current_database()"); err != nil {
		t.Fatal(err)
	}
	if nameA == nameB {
		t.Errorf("both databases are %s", nameA)
	}
}

func TestDatabaseDroppedAfterTest(t *testing.T) {
	var name string
	t.Run("uses a database", func(t *testing.T) {
		if err := New(t).Get(&name, "SELECT current_database()"); err != nil {
			t.Fatal(err)
		}
	})
	var exists bool
	if err := current.admin.QueryRow("SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		t.Errorf("database %s outlived its test", name)
	}
}

func TestParallelDatabases(t *testing.T) {
	const n = 8
	var mu sync.Mutex
	names := map[string]bool{}
	began := time.Now()
	t.Run("group", func(t *testing.T) {
		for i := range n {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				var name string
				if err := New(t).Get(&name, "SELECT current_database()"); err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				names[name] = true
				mu.Unlock()
			})
		}
	})
	t.Logf("%d databases created, used and dropped in parallel in %v", n, time.Since(began).Round(time.Millisecond))
	if len(names) != n {
		t.Errorf("%d distinct databases for %d tests", len(names), n)
	}
}

func TestWithDBName(t *testing.T) {
	for _, tc := range []struct{ dsn, want string }{
		{"postgres://u:p@h:5432/postgres?sslmode=disable", "postgres://u:p@h:5432/x?sslmode=disable"},
		{"postgresql://h/db?dbname=other", "postgresql://h/x"},
		{"host=h user=u dbname=postgres", "host=h user=u dbname=postgres dbname=x"},
	} {
		if got := withDBName(tc.dsn, "x"); got != tc.want {
			t.Errorf("withDBName(%q) = %q, want %q", tc.dsn, got, tc.want)
		}
	}
}

// BenchmarkCreateDrop measures what a test pays for a database of its own.
func BenchmarkCreateDrop(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		name, err := current.create(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		if err := current.drop(ctx, name); err != nil {
			b.Fatal(err)
		}
	}
}
