package insight

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Counts are one company's widget events not yet written.
type Counts struct {
	Shown, Opened int64
}

// Sink stores counted widget events, adding them to each company's count of the day.
type Sink interface {
	AddWidgetEvents(ctx context.Context, counts map[uuid.UUID]Counts) error
}

// Tally adds up widget events in memory and writes them to its sink in one statement a flush.
// The widget sends an event on every page view of every customer's site: written one by one,
// each would wait for its own durable commit. A crash loses at most the events since the last
// flush, a second's worth of a funnel's figures. It holds one entry per company, which only a
// valid key reaches.
type Tally struct {
	sink   Sink
	mu     sync.Mutex
	counts map[uuid.UUID]Counts
}

// NewTally returns a Tally that writes to sink.
func NewTally(sink Sink) *Tally { return &Tally{sink: sink, counts: map[uuid.UUID]Counts{}} }

// CountWidgetEvent counts one event of a company; the next flush writes it.
func (t *Tally) CountWidgetEvent(_ context.Context, companyID uuid.UUID, typ EventType) error {
	t.mu.Lock()
	c := t.counts[companyID]
	if typ == Opened {
		c.Opened++
	} else {
		c.Shown++
	}
	t.counts[companyID] = c
	t.mu.Unlock()
	return nil
}

// Flush writes the events counted so far. Counts a failed write could not store are kept for
// the next flush.
func (t *Tally) Flush(ctx context.Context) error {
	t.mu.Lock()
	counts := t.counts
	t.counts = map[uuid.UUID]Counts{}
	t.mu.Unlock()
	if len(counts) == 0 {
		return nil
	}
	err := t.sink.AddWidgetEvents(ctx, counts)
	if err != nil {
		t.mu.Lock()
		for id, c := range counts {
			n := t.counts[id]
			n.Shown += c.Shown
			n.Opened += c.Opened
			t.counts[id] = n
		}
		t.mu.Unlock()
	}
	return err
}

// Run flushes every period until ctx ends, and reports a failed flush to fail.
func (t *Tally) Run(ctx context.Context, every time.Duration, fail func(error)) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if err := t.Flush(ctx); err != nil && ctx.Err() == nil {
				fail(err)
			}
		}
	}
}
