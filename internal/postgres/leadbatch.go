package postgres

import (
	"context"
	"sync"
	"time"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// Lead creates without an idempotency key commit in groups: a writer (one by default,
// Options.LeadWriters) takes every create waiting at that moment and stores them with
// insertLeads in one transaction, so concurrent creates share one round trip, one commit and one
// WAL flush (group commit). A writer never waits for a group to fill: a create that finds it
// free goes alone, as a group of one, so a quiet service answers at once. A group that fails for
// a reason other than an unavailable database is retried one lead at a time, so one bad lead
// cannot fail the others, and each create sees only its own outcome. Figures in the commit
// history and make bench's results.

// pendingLead is a create waiting for a writer; done is buffered so a writer never blocks on a
// create that stopped waiting.
type pendingLead struct {
	ctx    context.Context
	create leadCreate
	done   chan leadResult
}

type leadResult struct {
	created lead.Created
	err     error
}

// leadWriters groups lead creates; see above.
type leadWriters struct {
	s        *Store
	queue    chan *pendingLead
	maxBatch int
	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// batchTimeout bounds a group's work, which no single request's context governs: waiting for a
// connection and the statement (which statement_timeout bounds on the server as well).
const batchTimeout = 10 * time.Second

func startLeadWriters(s *Store, writers, maxBatch int) *leadWriters {
	w := &leadWriters{s: s, queue: make(chan *pendingLead, 4*maxBatch*writers), maxBatch: maxBatch,
		stop: make(chan struct{})}
	w.wg.Add(writers)
	for range writers {
		go w.run()
	}
	return w
}

// close stops the writers once their groups in hand are stored; creates still queued are told
// the database is unavailable by submit.
func (w *leadWriters) close() {
	w.stopOnce.Do(func() { close(w.stop) })
	w.wg.Wait()
}

// submit queues a create and waits for its outcome. A create whose context ends while its group
// is being stored may still have been stored (the API answers 503 and the client retries with
// an Idempotency-Key, see DECISIONS.md).
func (w *leadWriters) submit(ctx context.Context, c leadCreate) (lead.Created, error) {
	p := &pendingLead{ctx: ctx, create: c, done: make(chan leadResult, 1)}
	select {
	case w.queue <- p:
	case <-ctx.Done():
		return lead.Created{}, translate(ctx.Err())
	case <-w.stop:
		return lead.Created{}, errs.E(errs.Unavailable, "unavailable")
	}
	select {
	case r := <-p.done:
		return r.created, r.err
	case <-ctx.Done():
		return lead.Created{}, translate(ctx.Err())
	case <-w.stop:
		return lead.Created{}, errs.E(errs.Unavailable, "unavailable")
	}
}

func (w *leadWriters) run() {
	defer w.wg.Done()
	group := make([]*pendingLead, 0, w.maxBatch)
	for {
		select {
		case p := <-w.queue:
			group = append(group[:0], p)
		case <-w.stop:
			return
		}
	more:
		for len(group) < w.maxBatch {
			select {
			case p := <-w.queue:
				group = append(group, p)
			default:
				break more
			}
		}
		w.store(group)
		clear(group)
	}
}

// store stores a group, dropping the creates whose request has gone.
func (w *leadWriters) store(group []*pendingLead) {
	live := make([]*pendingLead, 0, len(group))
	for _, p := range group {
		if err := p.ctx.Err(); err != nil {
			p.done <- leadResult{err: translate(err)}
			continue
		}
		live = append(live, p)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	creates := make([]leadCreate, len(live))
	for i, p := range live {
		creates[i] = p.create
	}
	created, err := storeLeads(ctx, runner{s: w.s}, creates)
	switch {
	case err == nil:
		for i, p := range live {
			p.done <- leadResult{created: created[i]}
		}
		return
	case len(live) == 1 || errs.Is(err, errs.Unavailable):
		for _, p := range live {
			p.done <- leadResult{err: err}
		}
		return
	}
	// Which lead failed the group is unknown: store each alone.
	for _, p := range live {
		created, err := storeLeads(ctx, runner{s: w.s}, []leadCreate{p.create})
		if err != nil {
			p.done <- leadResult{err: err}
			continue
		}
		p.done <- leadResult{created: created[0]}
	}
}
