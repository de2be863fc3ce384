package postgres_test

import (
	"context"
	"database/sql"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/migrations"
)

// A database left at any earlier schema (a build that was released with it) migrates up to the
// newest, and back down to exactly the schema it had: columns, indexes and constraints alike.
//
// One walk checks every schema at once: up from an empty schema one migration at a time,
// noting each schema, then down to the empty one, where the database at each version has gone up
// from it to the newest and back (what a round trip from that version alone would do, without
// walking the same migrations once per version), then up again, since an Up that follows its
// Down must find what it expects as well.
func TestMigrationsFromEverySchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sql.Open("postgres", pgtest.NewDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	versions, err := postgres.MigrationVersions(db)
	if err != nil {
		t.Fatal(err)
	}
	newest := versions[len(versions)-1]
	if err := postgres.MigrateTo(ctx, db, 0); err != nil {
		t.Fatalf("down to an empty schema: %v", err)
	}
	schemas := make(map[int64][]string, len(versions))
	for _, v := range versions {
		if err := postgres.MigrateTo(ctx, db, v); err != nil {
			t.Fatalf("up to %d: %v", v, err)
		}
		schemas[v] = schema(t, db)
	}
	for i := len(versions) - 2; i >= 0; i-- {
		v := versions[i]
		if err := postgres.MigrateTo(ctx, db, v); err != nil {
			t.Fatalf("from %d down to %d: %v", versions[i+1], v, err)
		}
		if diff := cmp.Diff(schemas[v], schema(t, db)); diff != "" {
			t.Errorf("schema %d after going up to %d and back differs (-before +after):\n%s", v, newest, diff)
		}
	}
	if err := postgres.MigrateTo(ctx, db, 0); err != nil {
		t.Fatalf("from %d down to an empty schema: %v", versions[0], err)
	}
	for _, v := range versions {
		if err := postgres.MigrateTo(ctx, db, v); err != nil {
			t.Fatalf("up to %d again, after going down from it: %v", v, err)
		}
		if diff := cmp.Diff(schemas[v], schema(t, db)); diff != "" {
			t.Errorf("schema %d after going down from it and up again differs (-first +again):\n%s", v, diff)
		}
	}
}

// schema describes the public schema without River's tables and goose's own: every column with
// its type, nullability and default, every index and every constraint, sorted by name so that a
// column a Down migration adds back at the end of its table compares equal.
func schema(t *testing.T, db *sql.DB) []string {
	t.Helper()
	const q = `
SELECT format('column %s.%s %s null=%s default=%s', table_name, column_name, data_type, is_nullable, coalesce(column_default, ''))
FROM information_schema.columns WHERE table_schema = 'public'
UNION ALL
SELECT format('index %s', indexdef) FROM pg_indexes WHERE schemaname = 'public'
UNION ALL
SELECT format('constraint %s.%s %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'
UNION ALL
SELECT format('function %s', p.oid::regprocedure) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'public'`
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s, "river_") && !strings.Contains(s, "goose_db_version") {
			out = append(out, s)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// Migrations after the sequential ones are numbered by the time they were written, so that two
// branches cannot pick the same number.
func TestMigrationNumbers(t *testing.T) {
	t.Parallel()
	files, err := migrations.FS.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	sequential := regexp.MustCompile(`^000(0[1-9]|1[0-2])_[a-z0-9_]+\.sql$`)
	timed := regexp.MustCompile(`^20[2-9][0-9](0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])([01][0-9]|2[0-3])[0-5][0-9][0-5][0-9]_[a-z0-9_]+\.sql$`)
	for _, f := range files {
		name := path.Base(f.Name())
		if path.Ext(name) != ".sql" {
			continue
		}
		if !sequential.MatchString(name) && !timed.MatchString(name) {
			t.Errorf("migration %s: name it YYYYMMDDHHMMSS_what.sql (UTC, the time it was written)", name)
		}
	}
}
