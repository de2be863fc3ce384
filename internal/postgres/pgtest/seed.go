package pgtest

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/google/uuid"
)

// seedLeads stores $2 plain leads for company $1 in one statement, one a minute back from now,
// newest first by number; the fourth is over the limit and every third came from the chat.
// generate_series makes a million in seconds, where creates through the store would take
// minutes.
const seedLeads = `
INSERT INTO leads (id, company_id, first_name, last_name, email, phone, service, source, status,
                   over_limit, created_at, updated_at)
SELECT gen_random_uuid(), $1, 'Lead', 'No. ' || i, 'lead' || i || '@example.hu',
       '+36 30 ' || lpad(i::text, 7, '0'), 'Napelem', CASE WHEN i % 3 = 0 THEN 'chat' ELSE 'api' END,
       CASE WHEN i % 4 = 0 THEN 'over_limit' ELSE 'new' END, i % 4 = 0,
       now() - i * interval '1 minute', now() - i * interval '1 minute'
FROM generate_series(1, $2::int) AS i`

// SeedLeads stores n leads for a company in the database of dsn, for tests that need many:
// lead i, "Lead No. i", was created i minutes ago; every third has source chat, every fourth
// status over_limit, the rest source api and status new.
func SeedLeads(t testing.TB, dsn string, companyID uuid.UUID, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, seedLeads, companyID, n); err != nil {
		t.Fatalf("pgtest: seeding %d leads: %v", n, err)
	}
	// As autovacuum would soon after: the visibility map and the planner's statistics.
	if _, err := db.ExecContext(ctx, "VACUUM (ANALYZE) leads"); err != nil {
		t.Fatalf("pgtest: vacuuming leads: %v", err)
	}
}
