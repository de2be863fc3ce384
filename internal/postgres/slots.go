package postgres

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
)

// takeSlot gives job $2 one of company $1's free delivery slots until $3 ms from now: the one
// it holds already (handed to it, or held by an earlier run of it) before any other. A slot
// another worker is taking is skipped, not waited for. A job that gets no slot joins the
// company's waiting line (delivery_waits) and learns how many are ahead of it; one that gets a
// slot leaves the line. made is false when the company has fewer than $4 slots yet. The jobs
// ahead are counted up to $5, as far as the wait they set grows (a longer line was counted
// again at each look). A slot whose lease passed with a delivery claimed in it (handOver: its
// worker died mid-chain) gives that delivery a job again, available now, as it is taken.
var takeSlot = `
WITH free AS (
    SELECT slot, delivery_id FROM delivery_slots
    WHERE company_id = $1 AND (held_until IS NULL OR held_until < now() OR job_id = $2)
    ORDER BY job_id IS NOT DISTINCT FROM $2 DESC, slot LIMIT 1 FOR UPDATE SKIP LOCKED
), taken AS (
    UPDATE delivery_slots s SET job_id = $2, held_until = now() + $3 * interval '1 millisecond',
        delivery_id = NULL
    FROM free WHERE s.company_id = $1 AND s.slot = free.slot
    RETURNING s.slot, free.delivery_id AS lost
), rescued AS (
    ` + insertDeliveryJobs(`SELECT d.id AS delivery_id, d.company_id, now() AS at
        FROM taken JOIN event_deliveries d ON d.company_id = $1 AND d.id = taken.lost
        WHERE d.state = 'pending'`) + `
), left_line AS (
    DELETE FROM delivery_waits WHERE company_id = $1 AND job_id = $2 AND EXISTS (SELECT FROM taken)
), joined_line AS (
    INSERT INTO delivery_waits (company_id, job_id)
    SELECT $1, $2 WHERE NOT EXISTS (SELECT FROM taken)
    ON CONFLICT DO NOTHING
)
SELECT (SELECT slot FROM taken) AS slot,
    CASE WHEN EXISTS (SELECT FROM taken) THEN 0
        ELSE (SELECT count(*) FROM (SELECT FROM delivery_waits WHERE company_id = $1 AND job_id < $2
            LIMIT $5) w) END AS ahead,
    (SELECT count(*) FROM delivery_slots WHERE company_id = $1) >= $4 AS made`

// takeSlotRead is takeSlot that, when it takes a slot, also reads the job's delivery $6 with its
// lead, as Delivery reads it (a round trip and a statement fewer for each job River fetches):
// the columns after made are NULL when it took none, or when the delivery has no lead to send
// (Delivery then reads it alone).
var takeSlotRead = takeSlot + `, n.*
FROM (SELECT) one
LEFT JOIN LATERAL (SELECT true AS found, ` + deliveryLeadColumns + deliveryLeadFrom("$6") + `
    AND EXISTS (SELECT FROM taken)) n ON true`

// makeSlots gives company $1 its $2 slots, numbered from 0, the first time it needs them (and
// more, should the number grow).
const makeSlots = `
INSERT INTO delivery_slots (company_id, slot)
SELECT $1, generate_series(0, $2 - 1)
ON CONFLICT DO NOTHING`

// TakeSlot holds one of a company's n delivery slots for job until lease passes or FreeSlot;
// ok false when all n are held, and then the job waits in the company's line, ahead the jobs
// in it before this one, for FreeSlot to hand it one. Slots are rows, so the bound holds
// across instances. It is TakeSlotFor with no delivery to read.
func (s *Store) TakeSlot(ctx context.Context, companyID uuid.UUID, job int64, n int, lease time.Duration) (slot int, ok bool, ahead int, err error) {
	slot, ok, ahead, _, err = s.TakeSlotFor(ctx, companyID, uuid.Nil, job, n, lease)
	return slot, ok, ahead, err
}

// TakeSlotFor is TakeSlot for job's delivery deliveryID, which it reads when it takes a slot, as
// Delivery would (nil when the delivery has no lead to send or is gone: Delivery then reads it).
func (s *Store) TakeSlotFor(ctx context.Context, companyID, deliveryID uuid.UUID, job int64, n int, lease time.Duration) (slot int, ok bool, ahead int, read *event.Delivery, err error) {
	for range 2 {
		read = nil
		var sl sql.NullInt32
		var made bool
		var found sql.NullBool
		var dr deliveryRow
		var l leadRecord
		dest := append(append([]any{&sl, &ahead, &made, &found}, dr.dest()...), l.dest()...)
		head := make([]any, len(dest))
		copy(head, dest[:4])
		for i := 4; i < len(head); i++ {
			head[i] = skip{}
		}
		// Scanned twice, as RecordAttempt's row: its head, then whole when the delivery was read.
		err := func() error {
			rows, err := (runner{s: s}).query(ctx, takeSlotRead, companyID, job, lease.Milliseconds(), n, n*event.LineRounds, deliveryID)
			if err != nil {
				return err
			}
			defer rows.Close()
			if !rows.Next() {
				return translate(rows.Err())
			}
			if err := rows.Scan(head...); err != nil {
				return translate(err)
			}
			if found.Valid {
				if err := rows.Scan(dest...); err != nil {
					return translate(err)
				}
				d, err := withLead(&dr, &l)
				if err != nil {
					return err
				}
				read = &d
			}
			return nil
		}()
		if err != nil {
			return 0, false, 0, nil, err
		}
		slot, ok = int(sl.Int32), sl.Valid
		if made {
			break
		}
		if _, err := s.db.ExecContext(ctx, makeSlots, companyID, n); err != nil {
			return 0, false, 0, nil, translate(err)
		}
	}
	return slot, ok, ahead, read, nil
}

// handOver is the WITH entries that let slot $slot of company $1 go that job $job held, handing
// it to the company's oldest waiting delivery job for $hold ms: that job is made available now
// (as River's JobRetry does), and the slot is kept for it until it runs. A waiter whose job is
// still running (River has not recorded its snooze yet) is passed over; it comes back when its
// snooze ends. With no one waiting the slot is left free; a slot the job no longer holds (its
// lease passed) is left alone. The entries' names begin with ho_.
//
// When $claim (an SQL boolean) is true the oldest waiter is claimed rather than woken: its job
// is deleted (River fetches it no more) and the slot keeps its delivery (delivery_id) for the
// claimed job's id, which holds the slot for $hold ms, its lease, while the caller runs it at
// once. The claim is the delivery's only mark until its record (which lets it go with the slot
// and, should the delivery be tried again, gives it a job anew): one that outlives its lease,
// its worker gone, gives its delivery a job again (takeSlot, sweepClaims), as River rescues a
// job left running. Marking the job running instead, and deleting it with the record, was a
// second row version of it with two index entries (River's key and its fetch index: the state
// is in it), for each delivery a chain ran. ho_woken returns the job and its args; ho_freed the
// slot when the job held it.
//
// The line is walked in its index's order and each waiter's job looked up by its key, in a
// subquery that locks it (the planner cannot turn that into a join: a join let it read every
// available and scheduled job of River's table, thousands with a backlog, for each hand-over,
// which made a backlog's drain cost grow with its size). A job another transaction holds is
// passed over, not waited for: River's scheduler makes due jobs available a thousand at once,
// holding them for as long as that takes, and every hand-over stalled behind it.
func handOver(slot, job, hold, claim string) string {
	return `ho_next AS (
    SELECT w.job_id FROM delivery_waits w
    WHERE w.company_id = $1
        AND EXISTS (SELECT FROM delivery_slots WHERE company_id = $1 AND slot = ` + slot + ` AND job_id = ` + job + `)
        AND EXISTS (SELECT FROM river_job j WHERE j.id = w.job_id AND j.state IN ('available', 'scheduled')
            FOR UPDATE SKIP LOCKED)
    ORDER BY w.job_id LIMIT 1
    FOR UPDATE OF w SKIP LOCKED
), ho_available AS (
    UPDATE river_job SET state = 'available', scheduled_at = least(scheduled_at, now())
    WHERE NOT ` + claim + ` AND id = (SELECT job_id FROM ho_next) AND state IN ('available', 'scheduled')
    RETURNING id, args
), ho_claimed AS (
    DELETE FROM river_job
    WHERE ` + claim + ` AND id = (SELECT job_id FROM ho_next) AND state IN ('available', 'scheduled')
    RETURNING id, args
), ho_woken AS (
    SELECT id, args FROM ho_available UNION ALL SELECT id, args FROM ho_claimed
), ho_handed AS (
    DELETE FROM delivery_waits
    WHERE company_id = $1 AND job_id = (SELECT job_id FROM ho_next) AND EXISTS (SELECT FROM ho_woken)
), ho_freed AS (
    UPDATE delivery_slots SET job_id = (SELECT id FROM ho_woken),
        delivery_id = (SELECT (args->>'delivery_id')::uuid FROM ho_claimed),
        held_until = CASE WHEN EXISTS (SELECT FROM ho_woken) THEN now() + ` + hold + ` * interval '1 millisecond' END
    WHERE company_id = $1 AND slot = ` + slot + ` AND job_id = ` + job + `
    RETURNING slot
)`
}

// freeSlot lets slot $2 of company $1 go that job $3 held, handing it on for $4 ms.
var freeSlot = `WITH ` + handOver("$2", "$3", "$4", "false") + `
SELECT 1`

// FreeSlot lets a company's slot go that job held, handing it to the company's next waiting
// delivery, which keeps it for hold at most.
func (s *Store) FreeSlot(ctx context.Context, companyID uuid.UUID, slot int, job int64, hold time.Duration) error {
	_, err := s.db.ExecContext(ctx, freeSlot, companyID, slot, job, hold.Milliseconds())
	return translate(err)
}

// releaseClaimed lets slot $2 of company $1 go that job $3, claimed from the line (River did not
// fetch it, and its row is gone), held while it ran without its attempt being recorded, handing
// it on for $4 ms; unless $5 (its delivery needed no attempt), the delivery the slot kept for it
// gets a job again, available now, for River to run. A claim no longer held (its lease passed
// and the slot was taken, or swept) is left alone: its delivery has its job already.
var releaseClaimed = `WITH claim AS (
    SELECT delivery_id FROM delivery_slots
    WHERE company_id = $1 AND slot = $2 AND job_id = $3 AND delivery_id IS NOT NULL
), ` + handOver("$2", "$3", "$4", "false") + `, own AS (
    ` + insertDeliveryJobs(`SELECT delivery_id, $1::uuid AS company_id, now() AS at FROM claim
        WHERE NOT $5 AND EXISTS (SELECT FROM ho_freed)`) + `
)
SELECT 1`

// ReleaseClaimed lets the slot go that a job claimed from the line held (RecordAttempt with
// Held.Chain) and settles its delivery, which ran without an attempt recorded: nothing more
// when done (there was nothing to attempt), else it runs again.
func (s *Store) ReleaseClaimed(ctx context.Context, companyID uuid.UUID, slot int, job int64, hold time.Duration, done bool) error {
	_, err := s.db.ExecContext(ctx, releaseClaimed, companyID, slot, job, hold.Milliseconds(), done)
	return translate(err)
}

// sweepClaims gives a job again, available now, to each pending delivery claimed from its
// company's line whose claim's lease passed (its worker died, or lost the database, mid-chain)
// and lets the slot go. It reads every company's slots at once, as the purge reads every
// company's events (each claim was made by a statement that held its company); River's leader
// runs it every rescueAfter.
var sweepClaims = `WITH lost AS (
    SELECT company_id, slot, delivery_id FROM delivery_slots
    WHERE delivery_id IS NOT NULL AND held_until < now()
    FOR UPDATE SKIP LOCKED
), freed AS (
    UPDATE delivery_slots s SET job_id = NULL, held_until = NULL, delivery_id = NULL
    FROM lost WHERE s.company_id = lost.company_id AND s.slot = lost.slot
    RETURNING lost.company_id, lost.delivery_id
), job AS (
    ` + insertDeliveryJobs(`SELECT d.id AS delivery_id, d.company_id, now() AS at
        FROM freed JOIN event_deliveries d ON d.company_id = freed.company_id AND d.id = freed.delivery_id
        WHERE d.state = 'pending'`) + `
    RETURNING id
)
SELECT count(*) FROM job`

// SweepClaims gives their jobs back to the deliveries whose claims outlived their leases (their
// workers gone) and frees the slots they held; it returns how many it gave a job.
func (s *Store) SweepClaims(ctx context.Context) (int, error) {
	var n int
	return n, translate(s.db.GetContext(ctx, &n, sweepClaims))
}
