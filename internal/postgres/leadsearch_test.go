package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// The searches of a large company use their indexes. The cases share one seeded database, since
// seeding tens of thousands of leads is most of what they cost; the leads each adds match none
// of the others' searches.
func TestSearchUsesItsIndexes(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDSN(t)
	s, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	a, b := company(t, s, "A"), company(t, s, "B")
	pgtest.SeedLeads(t, dsn, a, 50000)
	pgtest.SeedLeads(t, dsn, b, 5000)
	t.Run("a new lead before and after the merge", func(t *testing.T) { searchFindsALeadBeforeAndAfterTheMerge(t, s, a) })
	t.Run("a rare text through the trigram index", func(t *testing.T) { searchUsesTheTrigramIndex(t, s, a, b) })
	t.Run("addresses and numbers by their start", func(t *testing.T) { searchFindsAddressesAndNumbersByTheirStart(t, s, a, b) })
}

// A rare text in a large company is found through the trigram index leads_search, not by
// walking the company's leads, and the page holds exactly the leads that have it, in any
// field, whatever its letters' case.
func searchUsesTheTrigramIndex(t *testing.T, s *postgres.Store, a, b uuid.UUID) {
	ctx := context.Background()
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
	analyzeWhole(t, s)

	for _, text := range []string{"QUETTINGER", "ettinge"} {
		f := lead.Filter{Text: text}
		query, args, err := s.ListQuery(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		if plan := explain(t, s, query, args); !strings.Contains(plan, "Bitmap Index Scan on leads_search") {
			t.Errorf("the search for %q does not use leads_search:\n%s", text, plan)
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

// An e-mail address or its start, and a phone number written from its country code in any of
// the ways people write one, are found through the B-trees on the start of the addresses and
// of the E.164 numbers, in this company only; digits without a country code are found anywhere.
func searchFindsAddressesAndNumbersByTheirStart(t *testing.T, s *postgres.Store, a, b uuid.UUID) {
	ctx := context.Background()
	peter := newLead("Péter")
	peter.Email, peter.Phone, peter.PhoneE164 = "Kovacs.Peter@Pelda.hu", "06 30 987 6543", "+36309876543"
	peterne := newLead("Péterné")
	peterne.Email, peterne.Phone, peterne.PhoneE164 = "kovacs.peterne@pelda.hu", "+36 30 987 6500", "+36309876500"
	peterne.Note = "rendelésszám HU2024"
	anna := newLead("Anna")
	anna.Email = "anna1985@pelda.hu"
	for _, l := range []lead.Lead{peter, peterne, anna} {
		if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	theirs := peter
	theirs.ID = uuid.New()
	if _, err := s.CreateLead(ctx, b, theirs, nil, nil); err != nil { // another company's
		t.Fatal(err)
	}
	analyzeWhole(t, s)

	for _, tt := range []struct {
		text, index string
		want        []uuid.UUID
	}{
		{"kovacs.peter@", "leads_email_prefix", []uuid.UUID{peter.ID}},
		{"KOVACS.PETER@PELDA.HU", "leads_email_prefix", []uuid.UUID{peter.ID}},
		{"kovacs.peterne@", "leads_email_prefix", []uuid.UUID{peterne.ID}},
		{"kovacs_peter@", "leads_email_prefix", []uuid.UUID{}}, // _ is no wildcard
		{"+36 30 987 65", "leads_phone_prefix", []uuid.UUID{peterne.ID, peter.ID}},
		{"06-30/987-6543", "leads_phone_prefix", []uuid.UUID{peter.ID}},
		{"0036 30 987 6500", "leads_phone_prefix", []uuid.UUID{peterne.ID}},
		{"987 6543", "leads_search", []uuid.UUID{peter.ID}},
		{"kovacs.peter", "leads_search", []uuid.UUID{peterne.ID, peter.ID}},
		{"Anna1985", "leads_email_prefix", []uuid.UUID{anna.ID}}, // as an address starts
		{"HU2024", "leads_search", []uuid.UUID{peterne.ID}},      // no address starts so
		{"lead1999", "leads_email_prefix", nil},                  // the seeded lead1999@ and lead19990@ to lead19999@
	} {
		f := lead.Filter{Text: tt.text}
		query, args, err := s.ListQuery(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		if plan := explain(t, s, query, args); !strings.Contains(plan, " "+tt.index+" ") {
			t.Errorf("the search for %q does not use %s:\n%s", tt.text, tt.index, plan)
		}
		page, err := s.ListLeads(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == nil {
			if len(page.Leads) != 11 {
				t.Errorf("search %q found %d leads, want the 11 seeded whose addresses start so", tt.text, len(page.Leads))
			}
		} else if diff := cmp.Diff(tt.want, ids(page.Leads)); diff != "" {
			t.Errorf("search %q (-want +got):\n%s", tt.text, diff)
		}
	}
}

// A lead is found through the trigram index as soon as its create has returned, while its
// entries wait in the index's pending list (the merge after the search empties some of the
// list's pages, so they were there), and it is found the same after the merge.
func searchFindsALeadBeforeAndAfterTheMerge(t *testing.T, s *postgres.Store, a uuid.UUID) {
	ctx := context.Background()
	l := newLead("Izolda")
	l.LastName = "Wranglerné"
	if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	f := lead.Filter{Text: "wrangler"}
	query, args, err := s.ListQuery(ctx, a, f)
	if err != nil {
		t.Fatal(err)
	}
	if plan := explain(t, s, query, args); !strings.Contains(plan, "Bitmap Index Scan on leads_search") {
		t.Fatalf("the search does not use leads_search:\n%s", plan)
	}
	found := func(when string) {
		t.Helper()
		page, err := s.ListLeads(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(page.Leads); len(got) != 1 || got[0] != l.ID {
			t.Errorf("%s, the search found %v, want %v", when, got, l.ID)
		}
	}
	found("before the merge")
	if pages := mergeSearchIndex(t, s); pages == 0 {
		t.Error("the merge emptied no page of the pending list: the lead's entries were not in it")
	}
	found("after the merge")
	if pages := mergeSearchIndex(t, s); pages != 0 {
		t.Errorf("a second merge emptied %d pages, want none left", pages)
	}
}

// mergeSearchIndex merges leads_search's pending list into its tree, as VACUUM or a create that
// finds the list past its limit does, and returns how many of the list's pages it emptied.
func mergeSearchIndex(t testing.TB, s *postgres.Store) int64 {
	t.Helper()
	var pages int64
	if err := s.DB().QueryRowContext(context.Background(), `SELECT gin_clean_pending_list('leads_search'::regclass)`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	return pages
}

// explain is PostgreSQL's plan of query, one line of it a line.
func explain(t *testing.T, s *postgres.Store, query string, args []any) string {
	t.Helper()
	rows, err := s.DB().QueryContext(context.Background(), "EXPLAIN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}

// analyzeWhole gathers the leads' statistics from every row, not from ANALYZE's sample of 30,000
// (the seeded 55,000 leads are more): a sample's estimate for a rare address start varied from
// run to run enough to send one search in a CI run past its index. Reading every row takes a few
// seconds on a busy machine, past the store's 5 s statement timeout in two runs beside other
// work, so this one connection has none while it analyzes.
func analyzeWhole(t *testing.T, s *postgres.Store) {
	t.Helper()
	ctx := context.Background()
	conn, err := s.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"SET default_statistics_target = 1000", "SET statement_timeout = 0", "ANALYZE leads",
		"RESET default_statistics_target", "RESET statement_timeout"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}
