package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	companies "github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// retain sets a company's retention in months.
func retain(t *testing.T, s *postgres.Store, id uuid.UUID, months int) {
	t.Helper()
	if _, err := s.UpdateCompany(context.Background(), id, companies.Changes{Retention: &companies.Retention{Months: &months}}); err != nil {
		t.Fatal(err)
	}
}

func countRows(t *testing.T, s *postgres.Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.DB().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// With the clock moved past a company's retention, the job erases exactly its leads created
// before the retention's reach (recording lead.erased for each) and its conversations that made
// no lead and went quiet before it; a company without retention keeps everything.
func TestEraseExpiredWithTheClockMoved(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	retain(t, s, a, 6)
	endpoint(t, s, a)
	var old, recent []uuid.UUID
	for i := range 7 {
		l := newLead("Régi")
		if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
			t.Fatal(err)
		}
		if i < 5 {
			old = append(old, l.ID)
		} else {
			recent = append(recent, l.ID)
		}
	}
	// Two of A's leads came two months later than the rest.
	if _, err := s.DB().Exec(`UPDATE leads SET created_at = created_at + interval '2 months' WHERE id = ANY($1::uuid[])`,
		pq.StringArray(uuidStrings(recent))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateLead(ctx, b, newLead("Bé"), nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []uuid.UUID{a, b} {
		if _, err := s.DB().Exec(`INSERT INTO chat_sessions (company_id, session_id) VALUES ($1, 'quiet-session-000000000001')`, c); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DB().Exec(`INSERT INTO chat_messages (company_id, session_id, visitor, text) VALUES ($1, 'quiet-session-000000000001', true, 'Szia')`, c); err != nil {
			t.Fatal(err)
		}
	}

	if leads, chats, err := s.EraseExpired(ctx, time.Now().AddDate(0, 5, 0)); err != nil || leads != 0 || chats != 0 {
		t.Fatalf("five months on: erased %d leads and %d chats (%v), want none", leads, chats, err)
	}
	leads, chats, err := s.EraseExpired(ctx, time.Now().AddDate(0, 6, 1))
	if err != nil || leads != len(old) || chats != 1 {
		t.Fatalf("six months and a day on: erased %d leads and %d chats (%v), want %d and 1", leads, chats, err, len(old))
	}
	if n := countRows(t, s, `SELECT count(*) FROM leads WHERE id = ANY($1::uuid[])`, pq.StringArray(uuidStrings(old))); n != 0 {
		t.Errorf("%d expired leads left", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM leads WHERE company_id = $1`, a); n != len(recent) {
		t.Errorf("A keeps %d leads, want the %d recent ones", n, len(recent))
	}
	if n := countRows(t, s, `SELECT count(*) FROM leads WHERE company_id = $1`, b); n != 1 {
		t.Errorf("B, without retention, keeps %d leads, want 1", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM chat_messages WHERE company_id = $1`, a); n != 0 {
		t.Errorf("A keeps %d messages of a quiet conversation", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM chat_sessions WHERE company_id = $1`, b); n != 1 {
		t.Errorf("B keeps %d conversations, want 1", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM `+pgtest.Events+` WHERE company_id = $1 AND type = 'lead.erased' AND lead_id = ANY($2::uuid[])`,
		a, pq.StringArray(uuidStrings(old))); n != len(old) {
		t.Errorf("%d lead.erased events for %d erased leads", n, len(old))
	}
}

// Two runs at once (two instances in a leader handover) erase each lead once.
func TestEraseExpiredConcurrentRunsEraseEachLeadOnce(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	retain(t, s, a, 1)
	endpoint(t, s, a)
	const n = 1200 // more than two batches
	if _, err := s.DB().Exec(`INSERT INTO leads (company_id, id, first_name, email, source, status)
		SELECT $1, gen_random_uuid(), 'Régi ' || i, 'regi' || i || '@example.hu', 'api', 'new' FROM generate_series(1, $2) i`, a, n); err != nil {
		t.Fatal(err)
	}
	later := time.Now().AddDate(0, 2, 0)
	var wg sync.WaitGroup
	got := make([]int, 2)
	for i := range got {
		wg.Go(func() {
			leads, _, err := s.EraseExpired(ctx, later)
			if err != nil {
				t.Error(err)
			}
			got[i] = leads
		})
	}
	wg.Wait()
	if got[0]+got[1] != n {
		t.Errorf("the two runs erased %d + %d leads, want %d in all", got[0], got[1], n)
	}
	if m := countRows(t, s, `SELECT count(*) FROM `+pgtest.Events+` WHERE company_id = $1 AND type = 'lead.erased'`, a); m != n {
		t.Errorf("%d lead.erased events for %d leads", m, n)
	}
	if m := countRows(t, s, `SELECT count(*) FROM leads WHERE company_id = $1`, a); m != 0 {
		t.Errorf("%d leads left", m)
	}
}

func uuidStrings(ids []uuid.UUID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
