package delivery_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/delivery"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/webhook"
)

// dying is the store of a process that dies once it has sent a delivery claimed mid-chain:
// that delivery's record never reaches the database, nor does anything after it.
type dying struct {
	*postgres.Store
	dead atomic.Bool
}

var errDead = errors.New("the process died")

func (s *dying) RecordAttempt(ctx context.Context, companyID, deliveryID uuid.UUID, attempted bool, r event.Result, o event.Outcome, h event.Held) (event.Claimed, error) {
	if h.Claimed {
		s.dead.Store(true)
	}
	if s.dead.Load() {
		return event.Claimed{}, errDead
	}
	return s.Store.RecordAttempt(ctx, companyID, deliveryID, attempted, r, o, h)
}

func (s *dying) TakeSlotFor(ctx context.Context, companyID, deliveryID uuid.UUID, job int64, n int, lease time.Duration) (int, bool, int, *event.Delivery, error) {
	if s.dead.Load() {
		return 0, false, 0, nil, errDead
	}
	return s.Store.TakeSlotFor(ctx, companyID, deliveryID, job, n, lease)
}

func (s *dying) FreeSlot(ctx context.Context, companyID uuid.UUID, slot int, job int64, hold time.Duration) error {
	if s.dead.Load() {
		return errDead
	}
	return s.Store.FreeSlot(ctx, companyID, slot, job, hold)
}

func (s *dying) ReleaseClaimed(ctx context.Context, companyID uuid.UUID, slot int, job int64, hold time.Duration, done bool) error {
	if s.dead.Load() {
		return errDead
	}
	return s.Store.ReleaseClaimed(ctx, companyID, slot, job, hold, done)
}

// A worker that dies mid-chain, after sending a delivery it claimed from its company's line and
// before recording it, loses nothing: once the claim's lease has passed, another instance sends
// that delivery again (at least once) and the rest of the line after it.
func TestWorkerKilledMidChainLosesNothing(t *testing.T) {
	e := newEnv(t)
	rc := newReceiver(t, status(http.StatusNoContent))
	ep := e.endpoint(rc.srv.URL)
	// The company's one slot made (and left free), so the second and third wait in its line.
	if _, _, _, err := e.store.TakeSlot(context.Background(), e.company, 0, 1, 0); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		e.lead()
	}
	run := func(work delivery.Store) *delivery.Runner {
		db, err := postgres.OpenPlain(e.dsn, 4)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		r, err := delivery.New(delivery.Config{DB: db, Store: e.store, Work: work, Schedule: event.Schedule{time.Minute},
			Webhooks:     webhook.NewSender(webhook.Options{AllowPrivate: true, Timeout: 300 * time.Millisecond}),
			PollInterval: 50 * time.Millisecond, Workers: 2, InFlight: 1, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		return r
	}
	stop := func(r *delivery.Runner) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = r.Stop(ctx)
	}
	work := &dying{Store: e.store}
	first := run(work)
	for deadline := time.Now().Add(15 * time.Second); !work.dead.Load(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			stop(first)
			t.Fatal("no delivery was claimed mid-chain")
		}
	}
	stop(first)
	sent := len(rc.got())
	// Its claim's lease passes (rescueAfter, half a minute, without the wait).
	if _, err := e.store.DB().Exec(`UPDATE delivery_slots SET held_until = now() - interval '1 second'
		WHERE company_id = $1 AND delivery_id IS NOT NULL`, e.company); err != nil {
		t.Fatal(err)
	}
	second := run(e.store)
	t.Cleanup(func() { stop(second) })
	deadline := time.Now().Add(20 * time.Second)
	for {
		ds, err := e.store.Deliveries(context.Background(), e.company, ep.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		done := len(ds) == 3
		for _, d := range ds {
			done = done && d.State == event.Delivered
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the worker died mid-chain (%d sent): deliveries %+v; want all 3 delivered", sent, ds)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ids := map[string]int{}
	for _, h := range rc.got() {
		ids[h.header.Get("webhook-id")]++
	}
	if len(ids) != 3 {
		t.Errorf("the receiver got %d distinct events (%v), want 3", len(ids), ids)
	}
}
