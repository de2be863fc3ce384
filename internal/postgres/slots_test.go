package postgres_test

import (
	"context"
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
// same worker: its job running (River fetches it no more, and rescues it should the process
// die), out of the line, holding the slot. The claimed job's own record settles its job:
// scheduled for a retry, as River snoozes one, or deleted once its delivery is done; one
// claimed but not attempted runs again.
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
	state := func(id int64) (state string, inLine, holds bool) {
		t.Helper()
		if err := s.DB().QueryRowContext(ctx, `SELECT state,
			EXISTS (SELECT FROM delivery_waits WHERE company_id = $2 AND job_id = $1),
			EXISTS (SELECT FROM delivery_slots WHERE company_id = $2 AND job_id = $1 AND held_until > now())
			FROM river_job WHERE id = $1`, id, c).Scan(&state, &inLine, &holds); err != nil {
			t.Fatal(err)
		}
		return state, inLine, holds
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
	if st, inLine, holds := state(jobs[1].id); st != "running" || inLine || !holds {
		t.Errorf("the claimed job: %s, in line %v, holds the slot %v; want running, out of line, holding it", st, inLine, holds)
	}

	// A retry: the claimed job is scheduled for it; the slot goes to the next in line, woken.
	fail := event.Result{Status: 500}
	if _, err := s.RecordAttempt(ctx, c, jobs[1].delivery, true, fail, sched.Decide(1, fail),
		event.Held{Slot: slot, Job: jobs[1].id, HandOver: time.Minute, Claimed: true}); err != nil {
		t.Fatal(err)
	}
	var retryIn time.Duration
	var micros int64
	if err := s.DB().QueryRowContext(ctx, `SELECT (extract(epoch FROM scheduled_at - now()) * 1e6)::bigint FROM river_job WHERE id = $1`,
		jobs[1].id).Scan(&micros); err != nil {
		t.Fatal(err)
	}
	retryIn = time.Duration(micros) * time.Microsecond
	if st, _, _ := state(jobs[1].id); st != "scheduled" || retryIn < 59*time.Minute {
		t.Errorf("the claimed job after a failed attempt: %s, due in %v; want scheduled, in an hour", st, retryIn)
	}
	if st, inLine, _ := state(jobs[2].id); st != "available" || inLine {
		t.Errorf("the next waiter after the claimed job's record: %s, in line %v; want available, out of line", st, inLine)
	}

	// The woken job chains to the last waiter, which runs without an attempt: its job runs again.
	// Its lead was erased: the claim reads no delivery to send, and still returns the job.
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
	if st, _, holds := state(jobs[3].id); st != "available" || holds {
		t.Errorf("a claimed job let go unattempted: %s, holds the slot %v; want available, not holding it", st, holds)
	}

	// A claimed job whose delivery is done is deleted: River never ran it, and the delivery's
	// row is its record.
	if _, ok, _, err := s.TakeSlot(ctx, c, jobs[3].id, 1, time.Minute); err != nil || !ok {
		t.Fatalf("the slot after its release: %v, %v", ok, err)
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE river_job SET state = 'running', attempted_at = now() WHERE id = $1`, jobs[3].id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordAttempt(ctx, c, jobs[3].delivery, true, ok200, sched.Decide(1, ok200),
		event.Held{Slot: slot, Job: jobs[3].id, HandOver: time.Minute, Claimed: true}); err != nil {
		t.Fatal(err)
	}
	var kept bool
	if err := s.DB().QueryRowContext(ctx, `SELECT EXISTS (SELECT FROM river_job WHERE id = $1)`,
		jobs[3].id).Scan(&kept); err != nil || kept {
		t.Errorf("a claimed job delivered: still in River's table %v, %v; want deleted", kept, err)
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
