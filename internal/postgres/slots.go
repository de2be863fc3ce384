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
// again at each look).
const takeSlot = `
WITH free AS (
    SELECT slot FROM delivery_slots
    WHERE company_id = $1 AND (held_until IS NULL OR held_until < now() OR job_id = $2)
    ORDER BY job_id IS NOT DISTINCT FROM $2 DESC, slot LIMIT 1 FOR UPDATE SKIP LOCKED
), taken AS (
    UPDATE delivery_slots s SET job_id = $2, held_until = now() + $3 * interval '1 millisecond'
    FROM free WHERE s.company_id = $1 AND s.slot = free.slot
    RETURNING s.slot
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
// is marked running as River marks a job it fetched (so that River fetches it no more, and
// rescues it should this process die before its record), and the caller runs it at once in the
// slot, which the claimed job holds for $hold ms, its lease. ho_woken returns the job and its
// args.
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
), ho_woken AS (
    UPDATE river_job SET state = CASE WHEN ` + claim + ` THEN 'running' ELSE 'available' END::river_job_state,
        scheduled_at = least(scheduled_at, now()),
        attempted_at = CASE WHEN ` + claim + ` THEN now() ELSE attempted_at END
    WHERE id = (SELECT job_id FROM ho_next) AND state IN ('available', 'scheduled')
    RETURNING id, args
), ho_handed AS (
    DELETE FROM delivery_waits WHERE company_id = $1 AND job_id IN (SELECT id FROM ho_woken)
), ho_freed AS (
    UPDATE delivery_slots SET job_id = (SELECT id FROM ho_woken),
        held_until = CASE WHEN EXISTS (SELECT FROM ho_woken) THEN now() + ` + hold + ` * interval '1 millisecond' END
    WHERE company_id = $1 AND slot = ` + slot + ` AND job_id = ` + job + `
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

// releaseClaimed settles job $3 of company $1, claimed from the line (River did not fetch it),
// that ran without its attempt being recorded: deleted when $5 (its delivery needed no
// attempt), as a claimed job is once its delivery is settled (recordAttempt), else made
// available for River to run again; and lets its slot $2 go, handing it on for $4 ms.
var releaseClaimed = `WITH own AS (
    UPDATE river_job SET state = 'available', scheduled_at = now()
    WHERE id = $3 AND state = 'running' AND (args->>'company_id')::uuid = $1 AND NOT $5
), own_done AS (
    DELETE FROM river_job WHERE id = $3 AND state = 'running' AND (args->>'company_id')::uuid = $1 AND $5
), ` + handOver("$2", "$3", "$4", "false") + `
SELECT 1`

// ReleaseClaimed lets the slot go that a job claimed from the line held (RecordAttempt with
// Held.Chain) and settles the job, which ran without recording an attempt: done when there was
// nothing to attempt, else it runs again.
func (s *Store) ReleaseClaimed(ctx context.Context, companyID uuid.UUID, slot int, job int64, hold time.Duration, done bool) error {
	_, err := s.db.ExecContext(ctx, releaseClaimed, companyID, slot, job, hold.Milliseconds(), done)
	return translate(err)
}
