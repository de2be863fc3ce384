package postgres_test

import (
	"context"
	"testing"

	"github.com/leadchat/leadchat/internal/postgres"
)

// Ready refuses a schema that lacks a migration this binary knows, and answers ready once it is
// migrated, and from then on.
func TestReadyFollowsTheSchema(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	var last int64
	if err := s.DB().QueryRow(`SELECT max(version_id) FROM goose_db_version`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(`DELETE FROM goose_db_version WHERE version_id = $1`, last); err != nil {
		t.Fatal(err)
	}
	if err := s.Ready(ctx); err == nil {
		t.Fatalf("ready with migration %d missing", last)
	}
	if _, err := s.DB().Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES ($1, true)`, last); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.Ready(ctx); err != nil {
			t.Fatalf("not ready on a current schema: %v", err)
		}
	}
}
