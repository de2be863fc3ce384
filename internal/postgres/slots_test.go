package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// A company's jobs past its slots wait in line; freeing a slot hands it to the oldest waiter,
// whose snoozed job is made available at once and whose turn no newcomer takes.
func TestSlotHandedToTheNextInLine(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	job := func(scheduledIn time.Duration) int64 {
		t.Helper()
		var id int64
		// A delivery job as River leaves one it snoozed: available, due later.
		if err := s.DB().QueryRowContext(ctx, `INSERT INTO river_job (kind, queue, max_attempts, args, state, scheduled_at)
			VALUES ('deliver', 'events', 25, '{}', 'available', now() + $1 * interval '1 millisecond') RETURNING id`,
			scheduledIn.Milliseconds()).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	take := func(c uuid.UUID, job int64) (int, bool) {
		t.Helper()
		slot, ok, _, err := s.TakeSlot(ctx, c, job, 2, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return slot, ok
	}
	holder1, holder2 := job(0), job(0)
	waiter1, waiter2, newcomer := job(time.Hour), job(time.Hour), job(0)
	s1, ok1 := take(a, holder1)
	_, ok2 := take(a, holder2)
	if !ok1 || !ok2 {
		t.Fatal("the first two jobs got no slot of two")
	}
	if _, ok := take(a, waiter1); ok {
		t.Fatal("a third job got a slot of two")
	}
	if _, ok, ahead, err := s.TakeSlot(ctx, a, waiter2, 2, time.Minute); err != nil || ok || ahead != 1 {
		t.Fatalf("a fourth job: slot %v, %d ahead of it, %v; want none, 1", ok, ahead, err)
	}
	if _, ok := take(b, job(0)); !ok {
		t.Fatal("another company's job waits behind this one's")
	}

	if err := s.FreeSlot(ctx, a, s1, holder1, time.Minute); err != nil {
		t.Fatal(err)
	}
	due := func(id int64) bool {
		t.Helper()
		var due bool
		if err := s.DB().QueryRowContext(ctx, `SELECT state = 'available' AND scheduled_at <= now() FROM river_job WHERE id = $1`, id).Scan(&due); err != nil {
			t.Fatal(err)
		}
		return due
	}
	if !due(waiter1) || due(waiter2) {
		t.Errorf("after a slot was freed: the oldest waiter due %v, the next %v; want true, false", due(waiter1), due(waiter2))
	}
	if _, ok := take(a, newcomer); ok {
		t.Error("a newcomer took the slot handed to the oldest waiter")
	}
	if slot, ok := take(a, waiter1); !ok || slot != s1 {
		t.Errorf("the woken waiter got slot %d, %v; want %d, true", slot, ok, s1)
	}
	var line int
	if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FROM delivery_waits WHERE company_id = $1`, a).Scan(&line); err != nil {
		t.Fatal(err)
	}
	if line != 2 { // waiter2 and the newcomer
		t.Errorf("%d jobs in line, want 2", line)
	}
	// A company allowed a slot more gets it made at its next take.
	if slot, ok, _, err := s.TakeSlot(ctx, a, newcomer, 3, time.Minute); err != nil || !ok || slot != 2 {
		t.Errorf("with 3 slots allowed, the newcomer got slot %d, %v, %v; want 2", slot, ok, err)
	}

	// A waiter whose job River finished without its taking a slot leaves the line at the
	// daily purge; the others stay.
	waiter3 := job(time.Hour)
	if _, ok, _, err := s.TakeSlot(ctx, a, waiter3, 3, time.Minute); err != nil || ok {
		t.Fatalf("a job past 3 held slots: %v, %v", ok, err)
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE river_job SET state = 'cancelled', finalized_at = now() WHERE id = $1`, waiter2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PurgeEvents(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	var left []int64
	rows, err := s.DB().QueryContext(ctx, `SELECT job_id FROM delivery_waits WHERE company_id = $1 ORDER BY job_id`, a)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		left = append(left, id)
	}
	if len(left) != 1 || left[0] != waiter3 {
		t.Errorf("in line after the purge: %v, want [%d]", left, waiter3)
	}
}

// A delivery made while its company has no slot free joins the line at once, its job scheduled
// rather than available, so River does not fetch it only to find the slots held; freeing a
// slot wakes it. Another company's delivery is available at once.
func TestDispatchPutsABusyCompanysDeliveriesInLine(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	busy, idle := company(t, s, "A"), company(t, s, "B")
	endpoint(t, s, busy)
	endpoint(t, s, idle)
	var holder int64
	if err := s.DB().QueryRowContext(ctx, `INSERT INTO river_job (kind, queue, max_attempts, args)
		VALUES ('deliver', 'events', 25, '{}') RETURNING id`).Scan(&holder); err != nil {
		t.Fatal(err)
	}
	slot, ok, _, err := s.TakeSlot(ctx, busy, holder, 1, time.Minute)
	if err != nil || !ok {
		t.Fatalf("the only slot: %v, %v", ok, err)
	}
	for _, c := range []uuid.UUID{busy, idle} {
		if _, err := s.CreateLead(ctx, c, newLead("Béla"), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DispatchEvents(ctx); err != nil {
		t.Fatal(err)
	}
	job := func(c uuid.UUID) (id int64, state string, due, inLine bool) {
		t.Helper()
		if err := s.DB().QueryRowContext(ctx, `SELECT id, state, scheduled_at <= now(),
			EXISTS (SELECT FROM delivery_waits w WHERE w.company_id = $1 AND w.job_id = j.id)
			FROM river_job j WHERE kind = 'event_delivery' AND args->>'company_id' = $1::text`, c).Scan(&id, &state, &due, &inLine); err != nil {
			t.Fatal(err)
		}
		return id, state, due, inLine
	}
	if _, state, due, inLine := job(idle); state != "available" || !due || inLine {
		t.Errorf("the idle company's job: %s, due %v, in line %v; want available, due, not in line", state, due, inLine)
	}
	waiter, state, due, inLine := job(busy)
	if state != "scheduled" || due || !inLine {
		t.Errorf("the busy company's job: %s, due %v, in line %v; want scheduled, not due, in line", state, due, inLine)
	}
	if err := s.FreeSlot(ctx, busy, slot, holder, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, state, due, inLine := job(busy); state != "available" || !due || inLine {
		t.Errorf("the busy company's job after the slot was freed: %s, due %v, in line %v; want available, due, out of line", state, due, inLine)
	}
	if got, ok, _, err := s.TakeSlot(ctx, busy, waiter, 1, time.Minute); err != nil || !ok || got != slot {
		t.Errorf("the woken job took slot %d, %v, %v; want %d", got, ok, err, slot)
	}
}

// A store opened for asynchronous commits asks its sessions for them; the default asks
// nothing of the kind (the server's setting holds).
func TestAsyncCommitStore(t *testing.T) {
	dsn := pgtest.NewDSN(t)
	for _, async := range []bool{false, true} {
		s, err := postgres.Open(context.Background(), dsn, postgres.Options{AsyncCommit: async})
		if err != nil {
			t.Fatal(err)
		}
		var setting, source string
		if err := s.DB().QueryRow(`SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'`).Scan(&setting, &source); err != nil {
			t.Fatal(err)
		}
		if asked := source == "client" && setting == "off"; asked != async {
			t.Errorf("AsyncCommit %v: synchronous_commit %s from %s", async, setting, source)
		}
		s.Close()
	}
}

// A hand-over passes over a waiter whose job another transaction holds (River's scheduler
// making due jobs available holds a thousand at once) and hands the slot to the next in line,
// rather than waiting for that transaction to end.
func TestHandOverPassesOverAHeldJob(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	job := func() int64 {
		t.Helper()
		var id int64
		if err := s.DB().QueryRowContext(ctx, `INSERT INTO river_job (kind, queue, max_attempts, args, state, scheduled_at)
			VALUES ('deliver', 'events', 25, '{}', 'scheduled', now() + interval '1 hour') RETURNING id`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	holder, held, next := job(), job(), job()
	slot, ok, _, err := s.TakeSlot(ctx, c, holder, 1, time.Minute)
	if err != nil || !ok {
		t.Fatalf("the only slot: %v, %v", ok, err)
	}
	for _, w := range []int64{held, next} {
		if _, ok, _, err := s.TakeSlot(ctx, c, w, 1, time.Minute); err != nil || ok {
			t.Fatalf("a job past the only held slot: %v, %v", ok, err)
		}
	}
	tx, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT FROM river_job WHERE id = $1 FOR UPDATE`, held); err != nil {
		t.Fatal(err)
	}
	// Waiting for the transaction would end in this deadline's error.
	freeCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := s.FreeSlot(freeCtx, c, slot, holder, time.Minute); err != nil {
		t.Fatalf("freeing the slot beside a held waiter: %v", err)
	}
	var state string
	if err := s.DB().QueryRowContext(ctx, `SELECT state FROM river_job WHERE id = $1`, next).Scan(&state); err != nil {
		t.Fatal(err)
	}
	if state != "available" {
		t.Errorf("the waiter after the held one is %s, want available (handed the slot)", state)
	}
	if got, ok, _, err := s.TakeSlot(ctx, c, next, 1, time.Minute); err != nil || !ok || got != slot {
		t.Errorf("the waiter handed the slot took %d, %v, %v; want %d", got, ok, err, slot)
	}
}

// A company's first deliveries, before its slots are made, count the default slots as free:
// as many as those are available at once, the rest wait in line from the start.
func TestFirstBurstPastTheSlotsWaitsInLine(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	endpoint(t, s, c)
	for range limits.DeliveriesInFlight + 2 {
		if _, err := s.CreateLead(ctx, c, newLead("Béla"), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DispatchEvents(ctx); err != nil {
		t.Fatal(err)
	}
	var available, inLine int
	if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE state = 'available'),
		count(*) FILTER (WHERE state = 'scheduled' AND EXISTS (SELECT FROM delivery_waits w WHERE w.company_id = $1 AND w.job_id = j.id))
		FROM river_job j WHERE kind = 'event_delivery' AND args->>'company_id' = $1::text`, c).Scan(&available, &inLine); err != nil {
		t.Fatal(err)
	}
	if available != limits.DeliveriesInFlight || inLine != 2 {
		t.Errorf("%d jobs available and %d in line, want %d and 2", available, inLine, limits.DeliveriesInFlight)
	}
}
