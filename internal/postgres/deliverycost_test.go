package postgres_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// BenchmarkDeliveryChainCPU measures what PostgreSQL's backend spends on a delivery of a
// backlog, as make bench's deliverer drains one: the dispatch that makes the events'
// deliveries and jobs, and the statements of the attempts a worker chains in its company's
// slot (its delivery read, unless the statement that took the slot or claimed the job read
// it, and its record, which claims the next in line). CPU time an event, read from the backend's scheduler statistics, and this process's
// (the driver's) CPU time. Each iteration drains a backlog of perCompany events for each of 10
// companies, on one connection, made by the lead creates of the bench's companies (one webhook
// endpoint each).
func BenchmarkDeliveryChainCPU(b *testing.B) {
	const companies, perCompany = 10, 50
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.NewDSN(b), postgres.Options{MaxOpenConns: 1, AsyncCommit: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if err := s.Prepare(ctx); err != nil {
		b.Fatal(err)
	}
	var ids []uuid.UUID
	for i := range companies {
		c, err := s.CreateCompany(ctx, fmt.Sprintf("bench webhook %d", i+1), plan.Enterprise, plan.Override{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.CreateEndpoint(ctx, c.ID, "https://hooks.example.com/"+c.ID.String(), nil,
			"whsec_MDEyMzQ1Njc4OWFiY2RlZg=="); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	var pid int
	if err := s.DB().QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		b.Fatal(err)
	}
	var dispatchCPU, chainCPU, driverCPU, readCPU, dispatchWAL, chainWAL int64
	// wal is where PostgreSQL's WAL ends: what it wrote between two looks, in bytes (this
	// connection's alone, on the test's own cluster), a count that does not depend on load.
	wal := func() int64 {
		var at int64
		if err := s.DB().QueryRowContext(ctx, `SELECT pg_current_wal_insert_lsn() - '0/0'`).Scan(&at); err != nil {
			b.Fatal(err)
		}
		return at
	}
	round := func(measure bool) {
		for _, c := range ids {
			for range perCompany {
				if _, err := s.CreateLead(ctx, c, newLead("Béla"), nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
		w0, before := wal(), onCPU(b, pid)
		if _, err := s.DispatchEvents(ctx); err != nil {
			b.Fatal(err)
		}
		if measure {
			dispatchCPU += onCPU(b, pid) - before
			dispatchWAL += wal() - w0
		}
		for _, c := range ids {
			var first int64
			var deliveryID uuid.UUID
			// The company's job River would fetch: due now, not in line.
			if err := s.DB().QueryRowContext(ctx, `SELECT id, (args->>'delivery_id')::uuid FROM river_job
				WHERE kind = 'event_delivery' AND state = 'available' AND args->>'company_id' = $1::text
				AND NOT EXISTS (SELECT FROM delivery_waits w WHERE w.company_id = $1::uuid AND w.job_id = river_job.id)
				ORDER BY id LIMIT 1`, c).Scan(&first, &deliveryID); err != nil {
				b.Fatal(err)
			}
			if _, err := s.DB().ExecContext(ctx, `UPDATE river_job SET state = 'running', attempted_at = now() WHERE id = $1`, first); err != nil {
				b.Fatal(err)
			}
			w0 := wal()
			before, self := onCPU(b, pid), processCPU()
			// As the worker does: the statement that takes the slot reads the delivery.
			slot, ok, _, read, err := s.TakeSlotFor(ctx, c, deliveryID, first, 4, time.Minute)
			if err != nil || !ok {
				b.Fatalf("a slot: %v, %v", ok, err)
			}
			h := event.Held{Slot: slot, Job: first}
			for {
				h.Chain, h.HandOver = true, time.Minute
				d := read // as the worker does: the claim read it
				if d == nil {
					r0 := onCPU(b, pid)
					got, err := s.Delivery(ctx, c, deliveryID)
					if err != nil {
						b.Fatal(err)
					}
					if measure {
						readCPU += onCPU(b, pid) - r0
					}
					d = &got
				}
				ok := event.Result{Status: 204}
				next, err := s.RecordAttempt(ctx, c, d.ID, true, ok, event.DefaultSchedule.Decide(1, ok), h)
				if err != nil {
					b.Fatal(err)
				}
				if next.Job == 0 {
					break
				}
				h = event.Held{Slot: slot, Job: next.Job, Claimed: true}
				deliveryID, read = next.DeliveryID, next.Delivery
			}
			if measure {
				chainCPU += onCPU(b, pid) - before
				driverCPU += int64(processCPU() - self)
				chainWAL += wal() - w0
			}
			// What River does with the fetched job, and the rest of the company's jobs due now
			// (fetched by River in the bench, each then chaining nothing), out of the measure.
			if _, err := s.DB().ExecContext(ctx, `UPDATE river_job SET state = 'completed', finalized_at = now()
				WHERE kind = 'event_delivery' AND state IN ('running', 'available') AND args->>'company_id' = $1::text`, c); err != nil {
				b.Fatal(err)
			}
			if _, err := s.DB().ExecContext(ctx, `UPDATE event_deliveries SET state = 'delivered' WHERE company_id = $1 AND state = 'pending'`, c); err != nil {
				b.Fatal(err)
			}
			if _, err := s.DB().ExecContext(ctx, `UPDATE delivery_slots SET job_id = NULL, held_until = NULL WHERE company_id = $1`, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	round(false) // the slots made, the plans settled
	b.ResetTimer()
	for range b.N {
		round(true)
	}
	b.StopTimer()
	events := float64(b.N * companies * perCompany)
	b.ReportMetric(float64(dispatchCPU)/1e3/events, "pg-µs/event-dispatch")
	b.ReportMetric(float64(chainCPU)/1e3/events, "pg-µs/event-chain")
	b.ReportMetric(float64(readCPU)/1e3/events, "pg-µs/event-read") // reads not made with a claim
	b.ReportMetric(float64(driverCPU)/1e3/events, "driver-µs/event-chain")
	b.ReportMetric(float64(dispatchWAL)/events, "wal-B/event-dispatch")
	b.ReportMetric(float64(chainWAL)/events, "wal-B/event-chain")
}

// processCPU is this process's user and system time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
