package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func open(t *testing.T, opt postgres.Options) *postgres.Store {
	t.Helper()
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDSN(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

func company(t *testing.T, s *postgres.Store, name string) uuid.UUID {
	t.Helper()
	c, err := s.CreateCompany(context.Background(), name, plan.Free, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// transactions counts the transactions that stored the leads: rows written by one transaction
// share its id (xmin).
func transactions(t *testing.T, s *postgres.Store, ids []uuid.UUID) int {
	t.Helper()
	var n int
	err := s.DB().QueryRow(`SELECT count(DISTINCT xmin::text) FROM leads WHERE id = ANY($1::uuid[])`,
		pq.Array(ids)).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func newLead(first string) lead.Lead {
	return lead.Lead{ID: uuid.New(), FirstName: first, Email: "a@example.hu", Phone: "+36 30 123 4567",
		PhoneE164: "+36301234567", Source: lead.SourceAPI, Note: "hívjanak", ReferralData: map[string]string{"utm_source": "x"}}
}

// A group over two companies counts each company's leads in arrival order, gives each lead the
// count and status it would have got alone, and stores every field as a lone create does.
func TestLeadGroupCountsPerCompanyInOrder(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	two := 2
	var creates []postgres.GroupCreate
	for i, c := range []uuid.UUID{a, b, a, a, b} {
		creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: c, Lead: newLead(string(rune('P' + i))), Limit: &two})
	}
	created, errors := postgres.StoreGroup(s, creates)
	wantCount := []int{1, 1, 2, 3, 2}
	wantOver := []bool{false, false, false, true, false}
	for i := range creates {
		if errors[i] != nil {
			t.Fatalf("create %d: %v", i, errors[i])
		}
		got := created[i]
		if got.ID != creates[i].Lead.ID || got.Count != wantCount[i] || got.OverLimit != wantOver[i] || got.Limit != &two {
			t.Errorf("create %d = %+v, want count %d, over limit %v", i, got, wantCount[i], wantOver[i])
		}
	}
	var ids []uuid.UUID
	for _, c := range creates {
		ids = append(ids, c.Lead.ID)
	}
	if n := transactions(t, s, ids); n != 1 {
		t.Errorf("the group's 5 leads were stored by %d transactions, want 1", n)
	}
	// A lone create after the group continues the count.
	alone, err := s.CreateLead(ctx, a, newLead("Q"), &two, nil)
	if err != nil || alone.Count != 4 || !alone.OverLimit {
		t.Errorf("lone create after the group = %+v, %v; want count 4, over limit", alone, err)
	}
	stored, err := lead.Collect(lead.All(ctx, s, a, lead.Filter{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 4 {
		t.Fatalf("company A has %d leads, want 4", len(stored))
	}
	for _, l := range stored {
		want := creates[0].Lead
		if l.Email != want.Email || l.Phone != want.Phone || l.PhoneE164 != want.PhoneE164 || l.Note != want.Note ||
			l.Source != want.Source || l.ReferralData["utm_source"] != "x" || l.LastName != "" {
			t.Errorf("stored %+v, want the fields of %+v", l, want)
		}
	}
	statuses := map[uuid.UUID]lead.Status{}
	for _, l := range stored {
		statuses[l.ID] = l.Status
	}
	if statuses[creates[3].Lead.ID] != lead.StatusOverLimit || statuses[creates[2].Lead.ID] != lead.StatusNew {
		t.Errorf("statuses %v", statuses)
	}
}

// A group stores with the statement's form for what its leads carry: a group without referral
// data or an idempotency key counts no referral value, a group where only some leads have them
// counts just those, and an idempotent create records its key as well.
func TestLeadGroupFormsCountReferrals(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	plain := func(first string) lead.Lead {
		l := newLead(first)
		l.ReferralData = nil
		return l
	}
	referred := func(first, key, value string) lead.Lead {
		l := newLead(first)
		l.ReferralData = map[string]string{key: value}
		return l
	}
	groups := [][]lead.Lead{
		{plain("P"), plain("Q")},
		{plain("R"), referred("S", "utm_source", "hirlevel"), referred("T", "landing_page", "/napelem")},
	}
	for i, g := range groups {
		var creates []postgres.GroupCreate
		for _, l := range g {
			creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: c, Lead: l})
		}
		if _, errors := postgres.StoreGroup(s, creates); slices.ContainsFunc(errors, func(err error) bool { return err != nil }) {
			t.Fatalf("group %d: %v", i, errors)
		}
	}
	idem := &lead.Idempotency{Key: "k1"}
	first, err := s.CreateLead(ctx, c, referred("U", "utm_source", "hirlevel"), nil, idem)
	if err != nil || first.Count != 6 {
		t.Fatalf("idempotent create = %+v, %v; want count 6", first, err)
	}
	again, err := s.CreateLead(ctx, c, referred("U", "utm_source", "hirlevel"), nil, idem)
	if err != nil || !again.Replayed || again.ID != first.ID {
		t.Errorf("repeated key = %+v, %v; want the first create replayed", again, err)
	}
	rows, err := s.DB().Query(`SELECT key, value, count FROM lead_referral_daily WHERE company_id = $1 ORDER BY key, value`, c)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var key, value string
		var n int
		if err := rows.Scan(&key, &value, &n); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s=%s:%d", key, value, n))
	}
	if want := []string{"landing_page=/napelem:1", "utm_source=hirlevel:2"}; !slices.Equal(got, want) {
		t.Errorf("referral counts %v, want %v", got, want)
	}
}

// A group's lead.created events carry the ids their rows were given: one each, time-ordered
// (UUIDv7) like outbox_id's, none of them a lead's id.
func TestLeadGroupEventIDs(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	if _, err := s.CreateEndpoint(ctx, c, "https://hooks.example.com/a", nil, "whsec_MDEyMzQ1Njc4OWFiY2RlZg=="); err != nil {
		t.Fatal(err)
	}
	var creates []postgres.GroupCreate
	leads := map[uuid.UUID]bool{}
	for _, first := range []string{"P", "Q", "R"} {
		l := newLead(first)
		leads[l.ID] = true
		creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: c, Lead: l})
	}
	if _, errors := postgres.StoreGroup(s, creates); slices.ContainsFunc(errors, func(err error) bool { return err != nil }) {
		t.Fatal(errors)
	}
	rows, err := s.DB().Query(`SELECT id, lead_id FROM event_outbox WHERE company_id = $1 AND type = 'lead.created'`, c)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ids := map[uuid.UUID]bool{}
	for rows.Next() {
		var id, leadID uuid.UUID
		if err := rows.Scan(&id, &leadID); err != nil {
			t.Fatal(err)
		}
		if id.Version() != 7 || leads[id] || ids[id] || !leads[leadID] {
			t.Errorf("event %s of lead %s: want a new UUIDv7 for one of the group's leads", id, leadID)
		}
		ids[id] = true
	}
	if len(ids) != len(leads) {
		t.Errorf("%d events for %d leads", len(ids), len(leads))
	}
}

// Storing a group reads the companies it stores leads for, not every company: the round-robin
// turns ask only of the companies that give leads in turn, through their partial index, in the
// plans of both kinds (a sequential scan of companies on each group grows with every company
// signed up).
func TestLeadGroupPlanReadsNoOtherCompany(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	if _, err := s.DB().ExecContext(ctx, `INSERT INTO companies (id, name, plan)
SELECT gen_random_uuid(), 'c' || n, 'free' FROM generate_series(1, 3000) n`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, "ANALYZE companies"); err != nil {
		t.Fatal(err)
	}
	conn, err := s.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PREPARE insert_leads(text) AS "+postgres.Hot().InsertLeads); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		t.Run(mode, func(t *testing.T) {
			if _, err := conn.ExecContext(ctx, "SET plan_cache_mode = "+mode); err != nil {
				t.Fatal(err)
			}
			var plan []byte
			if err := conn.QueryRowContext(ctx, "EXPLAIN (FORMAT JSON) EXECUTE insert_leads('[]')").Scan(&plan); err != nil {
				t.Fatal(err)
			}
			var root []struct{ Plan planNode }
			if err := json.Unmarshal(plan, &root); err != nil || len(root) != 1 {
				t.Fatalf("reading the plan: %v\n%s", err, plan)
			}
			if n := root[0].Plan.seqScans("companies"); n != 0 {
				t.Errorf("the plan reads the companies table through (%d sequential scans):\n%s", n, plan)
			}
		})
	}
}

// One bad lead in a group (here a repeated id) fails alone: the group is retried one lead at a
// time, and the request whose context ended is not stored at all.
func TestLeadGroupFailureIsolated(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	gone, cancel := context.WithCancel(ctx)
	cancel()
	first, dup, other, cancelled := newLead("A"), newLead("B"), newLead("C"), newLead("D")
	dup.ID = first.ID
	created, errors := postgres.StoreGroup(s, []postgres.GroupCreate{
		{Ctx: ctx, CompanyID: a, Lead: first}, {Ctx: ctx, CompanyID: a, Lead: dup},
		{Ctx: gone, CompanyID: a, Lead: cancelled}, {Ctx: ctx, CompanyID: a, Lead: other},
	})
	if errors[0] != nil || errors[3] != nil {
		t.Fatalf("good creates failed: %v, %v", errors[0], errors[3])
	}
	if !errs.Is(errors[1], errs.Conflict) {
		t.Errorf("repeated id: %v, want a conflict", errors[1])
	}
	if errors[2] == nil {
		t.Errorf("a create whose request ended was stored: %+v", created[2])
	}
	if created[0].Count != 1 || created[3].Count != 2 {
		t.Errorf("counts %d, %d; want 1, 2 (the failed lead counts nothing)", created[0].Count, created[3].Count)
	}
	stored, err := lead.Collect(lead.All(ctx, s, a, lead.Filter{}))
	if err != nil {
		t.Fatal(err)
	}
	var ids []uuid.UUID
	for _, l := range stored {
		ids = append(ids, l.ID)
	}
	if len(ids) != 2 || !slices.Contains(ids, first.ID) || !slices.Contains(ids, other.ID) {
		t.Errorf("stored %v, want %s and %s", ids, first.ID, other.ID)
	}
	// The failed create left no count behind: the next lead is the third.
	next, err := s.CreateLead(ctx, a, newLead("E"), nil, nil)
	if err != nil || next.Count != 3 {
		t.Errorf("next create = %+v, %v; want count 3", next, err)
	}
}

// Concurrent creates through the writers are grouped (fewer transactions than leads), and
// every count is still exact: each company's counts are 1..n with no gap or repeat, and exactly
// the leads past the limit are over it. With LeadBatch 1 each lead has a transaction of its own.
// With several writers, no transaction stores leads of companies of two writers.
func TestLeadWritersUnderConcurrency(t *testing.T) {
	t.Parallel()
	for _, opt := range []postgres.Options{
		{LeadWriters: 1}, {LeadWriters: 2}, {LeadWriters: 4}, // more: groups also run side by side
		{LeadBatch: 1},
	} {
		t.Run(fmt.Sprintf("batch %d writers %d", opt.LeadBatch, opt.LeadWriters), func(t *testing.T) {
			opt.MaxOpenConns = 4
			concurrentCreates(t, opt)
		})
	}
}

func concurrentCreates(t *testing.T, opt postgres.Options) {
	s := open(t, opt)
	ctx := context.Background()
	companies := []uuid.UUID{company(t, s, "A"), company(t, s, "B"), company(t, s, "C")}
	if opt.LeadWriters > 1 { // companies of at least two writers
		for i := 0; postgres.WriterOf(companies[2], opt.LeadWriters) == postgres.WriterOf(companies[0], opt.LeadWriters); i++ {
			companies[2] = company(t, s, fmt.Sprintf("C%d", i))
		}
	}
	const perCompany, limit = 60, 25
	lim := limit
	var mu sync.Mutex
	counts := map[uuid.UUID][]int{}
	over := map[uuid.UUID]int{}
	var ids []uuid.UUID
	var wg sync.WaitGroup
	for i := range perCompany * len(companies) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := companies[i%len(companies)]
			l := newLead("A")
			r, err := s.CreateLead(ctx, c, l, &lim, nil)
			if err != nil {
				t.Errorf("create: %v", err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			ids = append(ids, l.ID)
			counts[c] = append(counts[c], r.Count)
			if r.OverLimit != (r.Count > limit) {
				t.Errorf("count %d answered over limit %v", r.Count, r.OverLimit)
			}
			if r.OverLimit {
				over[c]++
			}
		}()
	}
	wg.Wait()
	for _, c := range companies {
		got := counts[c]
		slices.Sort(got)
		for i, n := range got {
			if n != i+1 {
				t.Fatalf("company %s counts %v, want 1..%d", c, got, perCompany)
			}
		}
		if len(got) != perCompany || over[c] != perCompany-limit {
			t.Errorf("company %s: %d creates, %d over limit; want %d, %d", c, len(got), over[c], perCompany, perCompany-limit)
		}
		stored, err := lead.Collect(lead.All(ctx, s, c, lead.Filter{}))
		if err != nil {
			t.Fatal(err)
		}
		if len(stored) != perCompany {
			t.Errorf("company %s stored %d leads, want %d", c, len(stored), perCompany)
		}
	}
	if opt.LeadWriters > 1 {
		groupsWithinWriters(t, s, ids, opt.LeadWriters)
	}
	n := transactions(t, s, ids)
	switch {
	case opt.LeadBatch == 1 && n != len(ids):
		t.Errorf("%d leads stored by %d transactions, want one each", len(ids), n)
	case opt.LeadBatch != 1 && n >= len(ids):
		t.Errorf("%d concurrent creates stored by %d transactions: never grouped", len(ids), n)
	}
	t.Logf("%d leads, %d transactions", len(ids), n)
}

// A group that meets an unavailable database (here the lock timeout, behind a transaction that
// holds the company's counter row) tells every create so at once, and leaves nothing behind:
// no lead stored, no count added.
func TestLeadGroupUnavailable(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{StatementTimeout: 400 * time.Millisecond}) // lock timeout 200 ms
	ctx := context.Background()
	a := company(t, s, "A")
	if _, err := s.CreateLead(ctx, a, newLead("A"), nil, nil); err != nil {
		t.Fatal(err)
	}
	holder, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(`UPDATE lead_counters SET count = count WHERE company_id = $1`, a); err != nil {
		t.Fatal(err)
	}
	creates := []postgres.GroupCreate{{Ctx: ctx, CompanyID: a, Lead: newLead("B")}, {Ctx: ctx, CompanyID: a, Lead: newLead("C")}}
	_, errors := postgres.StoreGroup(s, creates)
	if err := holder.Rollback(); err != nil {
		t.Fatal(err)
	}
	for i, err := range errors {
		if !errs.Is(err, errs.Unavailable) {
			t.Errorf("create %d: %v, want unavailable", i, err)
		}
	}
	stored, err := lead.Collect(lead.All(ctx, s, a, lead.Filter{}))
	if err != nil || len(stored) != 1 {
		t.Errorf("%d leads stored (%v), want only the first", len(stored), err)
	}
	next, err := s.CreateLead(ctx, a, newLead("D"), nil, nil)
	if err != nil || next.Count != 2 {
		t.Errorf("next create = %+v, %v; want count 2 (the failed group counted nothing)", next, err)
	}
}

// After Close a create is told the database is unavailable instead of waiting for a writer.
func TestLeadCreateAfterClose(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	a := company(t, s, "A")
	s.Close()
	if _, err := s.CreateLead(context.Background(), a, newLead("A"), nil, nil); !errs.Is(err, errs.Unavailable) {
		t.Errorf("create after close: %v, want unavailable", err)
	}
}

// A lead's company must exist, and a company that has leads cannot be deleted: the company's
// counter row, written by the statement that stores the lead, holds both, so leads need no
// foreign key of their own. A lead of no company is refused alone and in a group, where it
// fails no other lead.
func TestLeadOfNoCompanyRefused(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, nobody := company(t, s, "A"), uuid.New()
	isForeignKey := func(err error) bool {
		var pqErr *pq.Error
		return errors.As(err, &pqErr) && pqErr.Code == "23503"
	}
	if _, err := s.CreateLead(ctx, nobody, newLead("Senki"), nil, nil); !isForeignKey(err) {
		t.Errorf("lead of no company: %v, want a foreign key violation", err)
	}
	ghost := newLead("Szellem")
	_, failed := postgres.StoreGroup(s, []postgres.GroupCreate{
		{Ctx: ctx, CompanyID: a, Lead: newLead("Anna")}, {Ctx: ctx, CompanyID: nobody, Lead: ghost}})
	if failed[0] != nil || !isForeignKey(failed[1]) {
		t.Errorf("group of a lead of A and one of no company: %v, want nil and a foreign key violation", failed)
	}
	var n int
	if err := s.DB().QueryRow(`SELECT count(*) FROM leads WHERE company_id = $1 OR id = $2`, nobody, ghost.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d leads of no company stored", n)
	}
	if _, err := s.DB().Exec(`DELETE FROM companies WHERE id = $1`, a); !isForeignKey(err) {
		t.Errorf("deleting a company with leads: %v, want a foreign key violation", err)
	}
}
