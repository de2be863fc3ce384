package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
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

// A delivery made while its company has no slot free joins the line at once, its job due
// later rather than now, so River does not fetch it only to find the slots held; freeing a
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
	// Due in a moment, it is available, as River leaves a job it snoozes briefly: fetched once
	// due, not at the scheduler's next pass seconds later.
	waiter, state, due, inLine := job(busy)
	if state != "available" || due || !inLine {
		t.Errorf("the busy company's job: %s, due %v, in line %v; want available, not due, in line", state, due, inLine)
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
	if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE state = 'available' AND scheduled_at <= now()),
		count(*) FILTER (WHERE scheduled_at > now() AND EXISTS (SELECT FROM delivery_waits w WHERE w.company_id = $1 AND w.job_id = j.id))
		FROM river_job j WHERE kind = 'event_delivery' AND args->>'company_id' = $1::text`, c).Scan(&available, &inLine); err != nil {
		t.Fatal(err)
	}
	if available != limits.DeliveriesInFlight || inLine != 2 {
		t.Errorf("%d jobs due and %d in line, want %d and 2", available, inLine, limits.DeliveriesInFlight)
	}
}

// The record of an attempt asked to chain claims the company's oldest waiting delivery for the
// same worker: its job deleted (River fetches it no more), out of the line, the slot holding
// it, with its delivery kept on the slot for the claim's rescue should the worker die. The
// claimed delivery's own record settles it: given a job anew for a retry, due when River would
// have snoozed the job, or none once it is done; one claimed but not attempted gets a job
// available now.
func TestRecordClaimsTheNextInLine(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	endpoint(t, s, c)
	for range 4 {
		if _, err := s.CreateLead(ctx, c, newLead("Béla"), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DispatchEvents(ctx); err != nil {
		t.Fatal(err)
	}
	type job struct {
		id       int64
		delivery uuid.UUID
	}
	var jobs []job
	rows, err := s.DB().QueryContext(ctx, `SELECT id, (args->>'delivery_id')::uuid FROM river_job
		WHERE kind = 'event_delivery' AND args->>'company_id' = $1::text ORDER BY id`, c)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var j job
		if err := rows.Scan(&j.id, &j.delivery); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	rows.Close()
	if len(jobs) != 4 {
		t.Fatalf("%d delivery jobs, want 4", len(jobs))
	}
	slot, ok, _, err := s.TakeSlot(ctx, c, jobs[0].id, 1, time.Minute)
	if err != nil || !ok {
		t.Fatalf("the only slot: %v, %v", ok, err)
	}
	for _, j := range jobs[1:] {
		if _, ok, _, err := s.TakeSlot(ctx, c, j.id, 1, time.Minute); err != nil || ok {
			t.Fatalf("a job past the only held slot: %v, %v", ok, err)
		}
	}
	// jobOf is the state of delivery d's River job and when it is due; "" when it has none.
	jobOf := func(d uuid.UUID) (state string, dueIn time.Duration) {
		t.Helper()
		var micros int64
		err := s.DB().QueryRowContext(ctx, `SELECT state, (extract(epoch FROM scheduled_at - now()) * 1e6)::bigint
			FROM river_job WHERE kind = 'event_delivery' AND args->>'delivery_id' = $1::text`, d).Scan(&state, &micros)
		if errors.Is(err, sql.ErrNoRows) {
			return "", 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return state, time.Duration(micros) * time.Microsecond
	}
	// claim is what the slot holds: its job, whether its lease runs, and the claimed delivery.
	claim := func() (job int64, held bool, delivery *uuid.UUID) {
		t.Helper()
		var j sql.NullInt64
		if err := s.DB().QueryRowContext(ctx, `SELECT job_id, coalesce(held_until > now(), false), delivery_id
			FROM delivery_slots WHERE company_id = $1 AND slot = $2`, c, slot).Scan(&j, &held, &delivery); err != nil {
			t.Fatal(err)
		}
		return j.Int64, held, delivery
	}
	inLine := func(id int64) bool {
		t.Helper()
		var in bool
		if err := s.DB().QueryRowContext(ctx, `SELECT EXISTS (SELECT FROM delivery_waits WHERE company_id = $1 AND job_id = $2)`,
			c, id).Scan(&in); err != nil {
			t.Fatal(err)
		}
		return in
	}
	sched := event.Schedule{time.Hour}
	ok200 := event.Result{Status: 200}
	next, err := s.RecordAttempt(ctx, c, jobs[0].delivery, true, ok200, sched.Decide(1, ok200),
		event.Held{Slot: slot, Job: jobs[0].id, HandOver: time.Minute, Chain: true})
	if err != nil {
		t.Fatal(err)
	}
	if next.Job != jobs[1].id || next.DeliveryID != jobs[1].delivery {
		t.Fatalf("claimed %+v, want the oldest waiter %+v", next, jobs[1])
	}
	// The claimed delivery comes read with its claim, as Delivery reads it.
	if d, err := s.Delivery(ctx, c, jobs[1].delivery); err != nil || next.Delivery == nil || !reflect.DeepEqual(*next.Delivery, d) ||
		d.Event.Lead == nil || d.Endpoint == nil {
		t.Errorf("the claimed delivery read with its claim: %+v; want as Delivery reads it: %+v, %v", next.Delivery, d, err)
	}
	if st, _ := jobOf(jobs[1].delivery); st != "" || inLine(jobs[1].id) {
		t.Errorf("the claimed delivery's job: %q, in line %v; want none, out of line", st, inLine(jobs[1].id))
	}
	if job, held, d := claim(); job != jobs[1].id || !held || d == nil || *d != jobs[1].delivery {
		t.Errorf("the slot: job %d, held %v, delivery %v; want job %d's claim of %v", job, held, d, jobs[1].id, jobs[1].delivery)
	}

	// A retry: the claimed delivery gets a job due in an hour; the slot goes to the next in
	// line, woken, and keeps no claim.
	fail := event.Result{Status: 500}
	if _, err := s.RecordAttempt(ctx, c, jobs[1].delivery, true, fail, sched.Decide(1, fail),
		event.Held{Slot: slot, Job: jobs[1].id, HandOver: time.Minute, Claimed: true}); err != nil {
		t.Fatal(err)
	}
	if st, due := jobOf(jobs[1].delivery); st != "scheduled" || due < 59*time.Minute {
		t.Errorf("the claimed delivery after a failed attempt: job %q, due in %v; want scheduled, in an hour", st, due)
	}
	if st, _ := jobOf(jobs[2].delivery); st != "available" || inLine(jobs[2].id) {
		t.Errorf("the next waiter after the claimed job's record: %s, in line %v; want available, out of line", st, inLine(jobs[2].id))
	}
	if job, _, d := claim(); job != jobs[2].id || d != nil {
		t.Errorf("the slot handed on: job %d, delivery %v; want job %d, no claim", job, d, jobs[2].id)
	}

	// The woken job chains to the last waiter, which runs without an attempt: it gets a job
	// again. Its lead was erased: the claim reads no delivery to send, and still returns the job.
	if _, ok, _, err := s.TakeSlot(ctx, c, jobs[2].id, 1, time.Minute); err != nil || !ok {
		t.Fatalf("the woken job's slot: %v, %v", ok, err)
	}
	last, err := s.Delivery(ctx, c, jobs[3].delivery)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.EraseLeads(ctx, c, []uuid.UUID{last.Event.LeadID}); err != nil || n != 1 {
		t.Fatalf("erased %d, %v", n, err)
	}
	next, err = s.RecordAttempt(ctx, c, jobs[2].delivery, true, ok200, sched.Decide(1, ok200),
		event.Held{Slot: slot, Job: jobs[2].id, HandOver: time.Minute, Chain: true})
	if err != nil || next.Job != jobs[3].id || next.DeliveryID != jobs[3].delivery || next.Delivery != nil {
		t.Fatalf("claimed %+v, %v; want job %d, its delivery not read", next, err, jobs[3].id)
	}
	if err := s.ReleaseClaimed(ctx, c, slot, jobs[3].id, time.Minute, false); err != nil {
		t.Fatal(err)
	}
	if st, due := jobOf(jobs[3].delivery); st != "available" || due > 0 {
		t.Errorf("a claimed delivery let go unattempted: job %q, due in %v; want available now", st, due)
	}
	if _, held, d := claim(); held || d != nil {
		t.Errorf("the slot after the release: held %v, delivery %v; want free, no claim", held, d)
	}

	// A claimed delivery delivered is left with no job: River never ran its job, and the
	// delivery's own row is its record.
	var again int64
	if err := s.DB().QueryRowContext(ctx, `SELECT id FROM river_job WHERE args->>'delivery_id' = $1::text`,
		jobs[3].delivery).Scan(&again); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, `INSERT INTO delivery_waits (company_id, job_id) VALUES ($1, $2)`, c, again); err != nil {
		t.Fatal(err)
	}
	if _, ok, _, err := s.TakeSlot(ctx, c, jobs[2].id, 1, time.Minute); err != nil || !ok {
		t.Fatalf("the slot after its release: %v, %v", ok, err)
	}
	next, err = s.RecordAttempt(ctx, c, jobs[2].delivery, true, ok200, sched.Decide(1, ok200),
		event.Held{Slot: slot, Job: jobs[2].id, HandOver: time.Minute, Chain: true})
	if err != nil || next.Job != again {
		t.Fatalf("claimed %+v, %v; want job %d", next, err, again)
	}
	// Not erased: a delivery whose lead is gone is settled as skipped, recorded all the same.
	if _, err := s.RecordAttempt(ctx, c, jobs[3].delivery, false, event.Result{Err: "erased"},
		event.Outcome{State: event.Skipped}, event.Held{Slot: slot, Job: again, HandOver: time.Minute, Claimed: true}); err != nil {
		t.Fatal(err)
	}
	if st, _ := jobOf(jobs[3].delivery); st != "" {
		t.Errorf("a claimed delivery settled: job %q; want none", st)
	}
	if _, held, d := claim(); held || d != nil {
		t.Errorf("the slot after the settled claim: held %v, delivery %v; want free, no claim", held, d)
	}
}

// A claimed job let go with nothing to attempt (its delivery was settled meanwhile) is deleted,
// as its record would have deleted it, and the slot it held is free.
func TestReleasedClaimedJobWithNothingToAttemptIsDeleted(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	endpoint(t, s, c)
	for range 2 {
		if _, err := s.CreateLead(ctx, c, newLead("Béla"), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DispatchEvents(ctx); err != nil {
		t.Fatal(err)
	}
	var jobs []int64
	var first uuid.UUID
	rows, err := s.DB().QueryContext(ctx, `SELECT id, (args->>'delivery_id')::uuid FROM river_job
		WHERE kind = 'event_delivery' AND args->>'company_id' = $1::text ORDER BY id`, c)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var d uuid.UUID
		if err := rows.Scan(&id, &d); err != nil {
			t.Fatal(err)
		}
		if len(jobs) == 0 {
			first = d
		}
		jobs = append(jobs, id)
	}
	rows.Close()
	if len(jobs) != 2 {
		t.Fatalf("%d delivery jobs, want 2", len(jobs))
	}
	slot, ok, _, err := s.TakeSlot(ctx, c, jobs[0], 1, time.Minute)
	if err != nil || !ok {
		t.Fatalf("the only slot: %v, %v", ok, err)
	}
	if _, ok, _, err := s.TakeSlot(ctx, c, jobs[1], 1, time.Minute); err != nil || ok {
		t.Fatalf("a job past the only held slot: %v, %v", ok, err)
	}
	ok200 := event.Result{Status: 200}
	next, err := s.RecordAttempt(ctx, c, first, true, ok200, event.DefaultSchedule.Decide(1, ok200),
		event.Held{Slot: slot, Job: jobs[0], HandOver: time.Minute, Chain: true})
	if err != nil || next.Job != jobs[1] {
		t.Fatalf("claimed %+v, %v; want job %d", next, err, jobs[1])
	}
	if err := s.ReleaseClaimed(ctx, c, slot, jobs[1], time.Minute, true); err != nil {
		t.Fatal(err)
	}
	var kept, held bool
	if err := s.DB().QueryRowContext(ctx, `SELECT EXISTS (SELECT FROM river_job WHERE id = $1),
		EXISTS (SELECT FROM delivery_slots WHERE company_id = $2 AND held_until > now())`, jobs[1], c).Scan(&kept, &held); err != nil {
		t.Fatal(err)
	}
	if kept || held {
		t.Errorf("after its release with nothing to attempt: the job kept %v, the slot held %v; want neither", kept, held)
	}
}

// TakeSlotFor reads the delivery, with its lead, as Delivery does, when it takes a slot; none
// when it takes none (the job waits), and none when the lead is gone (Delivery reads it alone).
func TestTakeSlotForReadsTheDelivery(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	ep := endpoint(t, s, a)
	anna, bela := newLead("Anna"), newLead("Béla")
	for _, l := range []lead.Lead{anna, bela} {
		if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	events(t, s, a)
	list, err := s.Deliveries(ctx, a, ep.ID, 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("deliveries = %+v, %v", list, err)
	}
	annas, belas := list[0], list[1]
	if annas.LeadID != anna.ID {
		annas, belas = belas, annas
	}
	_, ok, _, read, err := s.TakeSlotFor(ctx, a, annas.ID, 1, 1, time.Minute)
	if err != nil || !ok || read == nil {
		t.Fatalf("a slot: %v, read %v, %v; want the slot and the delivery read", ok, read, err)
	}
	want, err := s.Delivery(ctx, a, annas.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*read, want) {
		t.Errorf("read with the slot:\n%+v\nDelivery:\n%+v", *read, want)
	}
	if _, ok, ahead, read, err := s.TakeSlotFor(ctx, a, belas.ID, 2, 1, time.Minute); err != nil || ok || ahead != 0 || read != nil {
		t.Fatalf("a second job of one slot: %v, %d ahead, read %v, %v; want no slot and no read", ok, ahead, read, err)
	}
	if n, err := s.EraseLeads(ctx, a, []uuid.UUID{bela.ID}); err != nil || n != 1 {
		t.Fatalf("erase: %d, %v", n, err)
	}
	if _, ok, _, read, err := s.TakeSlotFor(ctx, a, belas.ID, 3, 2, time.Minute); err != nil || !ok || read != nil {
		t.Fatalf("an erased lead's delivery: slot %v, read %+v, %v; want the slot and no read", ok, read, err)
	}
}

// A delivery claimed by a worker that died mid-chain (its record never came) is not lost: once
// the claim's lease has passed, the next job to take the slot gives the delivery a job again,
// and so does the sweep River's leader runs, for a slot no job takes. A claim whose delivery was
// settled meanwhile gets none, and a record that comes after its claim was rescued adds no
// second job.
func TestClaimOutlivingItsLeaseGetsAJob(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	endpoint(t, s, c)
	for range 3 {
		if _, err := s.CreateLead(ctx, c, newLead("Béla"), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DispatchEvents(ctx); err != nil {
		t.Fatal(err)
	}
	var jobs []int64
	var deliveries []uuid.UUID
	rows, err := s.DB().QueryContext(ctx, `SELECT id, (args->>'delivery_id')::uuid FROM river_job
		WHERE kind = 'event_delivery' AND args->>'company_id' = $1::text ORDER BY id`, c)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var d uuid.UUID
		if err := rows.Scan(&id, &d); err != nil {
			t.Fatal(err)
		}
		jobs, deliveries = append(jobs, id), append(deliveries, d)
	}
	rows.Close()
	if len(jobs) != 3 {
		t.Fatalf("%d delivery jobs, want 3", len(jobs))
	}
	slot, ok, _, err := s.TakeSlot(ctx, c, jobs[0], 1, time.Minute)
	if err != nil || !ok {
		t.Fatalf("the only slot: %v, %v", ok, err)
	}
	for _, j := range jobs[1:] {
		if _, ok, _, err := s.TakeSlot(ctx, c, j, 1, time.Minute); err != nil || ok {
			t.Fatalf("a job past the only held slot: %v, %v", ok, err)
		}
	}
	ok200 := event.Result{Status: 200}
	// jobOf is the state of delivery d's River job; "" when it has none.
	jobOf := func(d uuid.UUID) string {
		t.Helper()
		var state string
		err := s.DB().QueryRowContext(ctx, `SELECT state FROM river_job WHERE kind = 'event_delivery'
			AND args->>'delivery_id' = $1::text`, d).Scan(&state)
		if errors.Is(err, sql.ErrNoRows) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return state
	}
	// die claims the next in line for the worker holding the slot as job, which then dies: its
	// lease ends with no record.
	die := func(job int64, d uuid.UUID) event.Claimed {
		t.Helper()
		next, err := s.RecordAttempt(ctx, c, d, true, ok200, event.DefaultSchedule.Decide(1, ok200),
			event.Held{Slot: slot, Job: job, HandOver: time.Minute, Chain: true})
		if err != nil || next.Job == 0 {
			t.Fatalf("claimed %+v, %v", next, err)
		}
		if st := jobOf(next.DeliveryID); st != "" {
			t.Fatalf("a claimed delivery's job: %q, want none", st)
		}
		if _, err := s.DB().ExecContext(ctx, `UPDATE delivery_slots SET held_until = now() - interval '1 second'
			WHERE company_id = $1`, c); err != nil {
			t.Fatal(err)
		}
		return next
	}

	// The sweep finds the claim that outlived its lease: the claimed delivery gets a job.
	lost := die(jobs[0], deliveries[0])
	if n, err := s.SweepClaims(ctx); err != nil || n != 1 {
		t.Fatalf("the sweep gave %d deliveries a job, %v; want 1", n, err)
	}
	if st := jobOf(lost.DeliveryID); st != "available" {
		t.Errorf("a claimed delivery after its worker died and the sweep: job %q, want available", st)
	}
	if n, err := s.SweepClaims(ctx); err != nil || n != 0 {
		t.Errorf("the sweep again gave %d a job, %v; want none", n, err)
	}
	// Its worker's record, late, after the rescue: the delivery is recorded, and no second job.
	fail := event.Result{Status: 500}
	if _, err := s.RecordAttempt(ctx, c, lost.DeliveryID, true, fail, event.DefaultSchedule.Decide(1, fail),
		event.Held{Slot: slot, Job: lost.Job, HandOver: time.Minute, Claimed: true}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE args->>'delivery_id' = $1::text`,
		lost.DeliveryID).Scan(&n); err != nil || n != 1 {
		t.Errorf("jobs of the rescued delivery after its late record: %d, %v; want 1", n, err)
	}

	// Taking the slot rescues the claim as well, without waiting for the sweep.
	if _, ok, _, err := s.TakeSlot(ctx, c, jobs[0], 1, time.Minute); err != nil || !ok {
		t.Fatalf("the slot again: %v, %v", ok, err)
	}
	lost = die(jobs[0], deliveries[0])
	if lost.DeliveryID != deliveries[2] {
		t.Fatalf("claimed %v, want the last waiter %v", lost.DeliveryID, deliveries[2])
	}
	var newcomer int64
	if err := s.DB().QueryRowContext(ctx, `SELECT id FROM river_job WHERE args->>'delivery_id' = $1::text`,
		deliveries[1]).Scan(&newcomer); err != nil {
		t.Fatal(err)
	}
	if _, ok, _, err := s.TakeSlot(ctx, c, newcomer, 1, time.Minute); err != nil || !ok {
		t.Fatalf("the slot whose claim's lease passed: %v, %v", ok, err)
	}
	if st := jobOf(lost.DeliveryID); st != "available" {
		t.Errorf("a claimed delivery after another job took its slot: job %q, want available", st)
	}

	// A claim whose delivery was settled meanwhile gives it no job.
	if _, err := s.DB().ExecContext(ctx, `DELETE FROM river_job WHERE args->>'delivery_id' = $1::text`, lost.DeliveryID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE delivery_slots SET delivery_id = $2, held_until = now() - interval '1 second'
		WHERE company_id = $1`, c, lost.DeliveryID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE event_deliveries SET state = 'delivered' WHERE id = $1`, lost.DeliveryID); err != nil {
		t.Fatal(err)
	}
	if n, err := s.SweepClaims(ctx); err != nil || n != 0 {
		t.Errorf("the sweep gave %d a job, %v; want none (the delivery is done)", n, err)
	}
	if st := jobOf(lost.DeliveryID); st != "" {
		t.Errorf("a settled claimed delivery: job %q, want none", st)
	}
}
