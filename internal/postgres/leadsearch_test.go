package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// A rare text in a large company is found through the trigram index leads_search, not by
// walking the company's leads, and the page holds exactly the leads that have it, in any
// field, whatever its letters' case.
func TestSearchUsesTheTrigramIndex(t *testing.T) {
	dsn := pgtest.NewDSN(t)
	s, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	pgtest.SeedLeads(t, dsn, a, 50000)
	pgtest.SeedLeads(t, dsn, b, 5000)
	rare := newLead("Zsófia")
	rare.LastName, rare.Note = "Quettinger", "Tetőre kér ajánlatot"
	other := newLead("Béla")
	other.Service = "quettinger-féle napelem"
	for _, l := range []lead.Lead{rare, other} {
		if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	theirs := rare
	theirs.ID = uuid.New()
	if _, err := s.CreateLead(ctx, b, theirs, nil, nil); err != nil { // another company's
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, "ANALYZE leads"); err != nil {
		t.Fatal(err)
	}

	for _, text := range []string{"QUETTINGER", "ettinge"} {
		f := lead.Filter{Text: text}
		query, args, err := postgres.ListQuery(a, f)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		rows, err := s.DB().QueryContext(ctx, "EXPLAIN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		if !strings.Contains(strings.Join(plan, "\n"), "Bitmap Index Scan on leads_search") {
			t.Errorf("the search for %q does not use leads_search:\n%s", text, strings.Join(plan, "\n"))
		}
		page, err := s.ListLeads(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(page.Leads); len(got) != 2 || got[0] != other.ID || got[1] != rare.ID || page.Next != nil {
			t.Errorf("search %q found %v, want %v and %v", text, got, other.ID, rare.ID)
		}
	}
}
