package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
)

// Writes that many requests make at once (lead creates without an idempotency key, chat turns
// that change no lead) commit in groups: a writer takes every write waiting at that moment and
// stores them with one statement, so concurrent requests share one round trip, one commit and one
// WAL flush (group commit). A writer never waits for a group to fill: a write that finds it free
// goes alone, as a group of one, so a quiet service answers at once.
//
// Several writers split the companies between them: each company's writes always go to the
// same writer, through a queue of that writer's own. A group holds each of its companies'
// counter rows until it commits, so two writers sharing a queue would often find the other's
// group holding a row theirs needs and wait for its commit; split by company, groups in flight
// at once share no company, never wait for each other, and can share a WAL flush. A company's
// writes are still stored one group after another, in the order they came. A group that fails for a
// reason other than an unavailable database is retried one write at a time, so one bad write
// cannot fail the others, and each request sees only its own outcome. Figures in the commit
// history and make bench's results.

// pending is a write waiting for a writer; done is buffered so a writer never blocks on a
// request that stopped waiting.
type pending[In, Out any] struct {
	ctx  context.Context
	in   In
	done chan result[Out]
}

type result[Out any] struct {
	out Out
	err error
}

// groupWriter groups writes of one kind; store writes a group with one statement and returns
// each write's outcome in order. company says whose a write is: queues[writerOf(company, n)]
// takes it.
type groupWriter[In, Out any] struct {
	store    func(ctx context.Context, group []In) ([]Out, error)
	company  func(In) uuid.UUID
	queues   []chan *pending[In, Out]
	maxBatch int
	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// batchTimeout bounds a group's work, which no single request's context governs: waiting for a
// connection and the statement (which statement_timeout bounds on the server as well).
const batchTimeout = 10 * time.Second

func startGroupWriter[In, Out any](writers, maxBatch int, company func(In) uuid.UUID,
	store func(context.Context, []In) ([]Out, error)) *groupWriter[In, Out] {
	w := &groupWriter[In, Out]{store: store, company: company, queues: make([]chan *pending[In, Out], writers),
		maxBatch: maxBatch, stop: make(chan struct{})}
	w.wg.Add(writers)
	for i := range w.queues {
		w.queues[i] = make(chan *pending[In, Out], 4*maxBatch)
		go w.run(w.queues[i])
	}
	return w
}

// writerOf is the writer, of n, that stores a company's writes: FNV-1a of its id, so that ids
// with the same high or low bits (UUIDv7 made at the same time) still spread.
func writerOf(company uuid.UUID, n int) int {
	h := uint64(14695981039346656037)
	for _, b := range company {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return int(h % uint64(n))
}

// close stops the writers once their groups in hand are stored; writes still queued are told
// the database is unavailable by submit.
func (w *groupWriter[In, Out]) close() {
	w.stopOnce.Do(func() { close(w.stop) })
	w.wg.Wait()
}

// submit queues a write and waits for its outcome. A write whose context ends while its group
// is being stored may still have been stored: the client retries with its idempotency key or
// message id.
func (w *groupWriter[In, Out]) submit(ctx context.Context, in In) (Out, error) {
	p := &pending[In, Out]{ctx: ctx, in: in, done: make(chan result[Out], 1)}
	var zero Out
	select {
	case w.queues[writerOf(w.company(in), len(w.queues))] <- p:
	case <-ctx.Done():
		return zero, translate(ctx.Err())
	case <-w.stop:
		return zero, errs.E(errs.Unavailable, errs.CodeUnavailable)
	}
	select {
	case r := <-p.done:
		return r.out, r.err
	case <-ctx.Done():
		return zero, translate(ctx.Err())
	case <-w.stop:
		return zero, errs.E(errs.Unavailable, errs.CodeUnavailable)
	}
}

func (w *groupWriter[In, Out]) run(queue chan *pending[In, Out]) {
	defer w.wg.Done()
	group := make([]*pending[In, Out], 0, w.maxBatch)
	for {
		select {
		case p := <-queue:
			group = append(group[:0], p)
		case <-w.stop:
			return
		}
	more:
		for len(group) < w.maxBatch {
			select {
			case p := <-queue:
				group = append(group, p)
			default:
				break more
			}
		}
		w.write(group)
		clear(group)
	}
}

// write stores a group, dropping the writes whose request has gone.
func (w *groupWriter[In, Out]) write(group []*pending[In, Out]) {
	live := make([]*pending[In, Out], 0, len(group))
	for _, p := range group {
		if err := p.ctx.Err(); err != nil {
			p.done <- result[Out]{err: translate(err)}
			continue
		}
		live = append(live, p)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	ins := make([]In, len(live))
	for i, p := range live {
		ins[i] = p.in
	}
	outs, err := w.store(ctx, ins)
	switch {
	case err == nil:
		for i, p := range live {
			p.done <- result[Out]{out: outs[i]}
		}
		return
	case len(live) == 1 || errs.Is(err, errs.Unavailable):
		for _, p := range live {
			p.done <- result[Out]{err: err}
		}
		return
	}
	// Which write failed the group is unknown: store each alone.
	for _, p := range live {
		outs, err := w.store(ctx, []In{p.in})
		if err != nil {
			p.done <- result[Out]{err: err}
			continue
		}
		p.done <- result[Out]{out: outs[0]}
	}
}
