package delivery_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/delivery"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/webhook"
)

// readCounting is the store, counting the deliveries read on their own (Delivery).
type readCounting struct {
	*postgres.Store
	reads atomic.Int32
}

func (s *readCounting) Delivery(ctx context.Context, companyID, deliveryID uuid.UUID) (event.Delivery, error) {
	s.reads.Add(1)
	return s.Store.Delivery(ctx, companyID, deliveryID)
}

// A job River fetched reads its delivery, lead included, in the statement that takes its slot:
// no read of its own (a round trip and a statement fewer a fetched job), and the receiver gets
// the lead as it is.
func TestTakingTheSlotReadsTheDelivery(t *testing.T) {
	e := newEnv(t)
	var bodies atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies.Store(string(b))
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	ep := e.endpoint(srv.URL)
	id := e.lead()
	work := &readCounting{Store: e.store}
	db, err := postgres.OpenPlain(e.dsn, 4)
	if err != nil {
		t.Fatal(err)
	}
	r, err := delivery.New(delivery.Config{DB: db, Store: e.store, Work: work, Schedule: event.Schedule{time.Minute},
		Webhooks:     webhook.NewSender(webhook.Options{AllowPrivate: true, Timeout: 300 * time.Millisecond}),
		PollInterval: 50 * time.Millisecond, Workers: 2, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r.Stop(ctx)
		db.Close()
	})
	if d := e.settled(ep); d.State != event.Delivered || d.Attempts != 1 {
		t.Fatalf("delivery %+v; want delivered after 1 attempt", d)
	}
	if n := work.reads.Load(); n != 0 {
		t.Errorf("%d deliveries read on their own; want none: the slot's statement reads it", n)
	}
	if b, _ := bodies.Load().(string); !strings.Contains(b, id.String()) || !strings.Contains(b, "Kovács Anna") {
		t.Errorf("the receiver got %q; want the lead %s with its name", b, id)
	}
}
