// Package delivery works the outbox: River (a PostgreSQL job queue, here on database/sql and
// lib/pq, polling) runs the jobs that the store enqueued with a lead change, on whichever
// instance takes each first: a dispatch job makes the events' deliveries, one job each, and
// this package's worker makes a delivery's attempt, records it and, when the delivery rules
// say try again, snoozes the job until then. A job whose process
// died mid-attempt is rescued by River and tried again, and a delivery a chain claimed (whose
// job went with the claim) by the claim sweep, so a delivery may arrive twice; a receiver
// deduplicates on webhook-id.
package delivery

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/limits"
)

// Store makes the deliveries of recorded events, reads a delivery for its attempt and records
// the outcome.
type Store interface {
	DispatchEvents(ctx context.Context) (int, error)
	Delivery(ctx context.Context, companyID, deliveryID uuid.UUID) (event.Delivery, error)
	RecordAttempt(ctx context.Context, companyID, deliveryID uuid.UUID, attempted bool, r event.Result, o event.Outcome, h event.Held) (event.Claimed, error)
	PurgeEvents(ctx context.Context, age time.Duration) (int64, error)
	EraseExpired(ctx context.Context, now time.Time) (leads, chats int, err error)
	// TakeSlotFor holds one of a company's n delivery slots for job until lease passes or
	// FreeSlot, reading the job's delivery when it takes one (nil when Delivery must read it);
	// ok false when all n are held, and then the job waits in the company's line, ahead the
	// jobs before it, for FreeSlot to hand it one.
	TakeSlotFor(ctx context.Context, companyID, deliveryID uuid.UUID, job int64, n int, lease time.Duration) (slot int, ok bool, ahead int, read *event.Delivery, err error)
	FreeSlot(ctx context.Context, companyID uuid.UUID, slot int, job int64, hold time.Duration) error
	ReleaseClaimed(ctx context.Context, companyID uuid.UUID, slot int, job int64, hold time.Duration, done bool) error
	// SweepClaims gives a job back to each delivery claimed from its company's line whose
	// claim outlived its lease (its worker died mid-chain), returning how many.
	SweepClaims(ctx context.Context) (int, error)
	IssueConfirmToken(ctx context.Context, companyID uuid.UUID, email string, hash []byte) (company string, err error)
	CountLeadMail(ctx context.Context, companyID uuid.UUID, day time.Time, limit int, address string) (bool, error)
	TakeDigest(ctx context.Context, today time.Time) (event.Unmailed, bool, error)
	ReleaseDigest(ctx context.Context, companyID uuid.UUID, day time.Time, email string) error
}

// Notices sends the service's own messages about the new-lead e-mail: an address's
// confirmation link, and the daily digest of the leads past the cap.
type Notices interface {
	Confirm(ctx context.Context, to, company, token string) error
	Digest(ctx context.Context, sk event.Unmailed, limit int) error
}

// Sender makes one attempt of a delivery: a webhook or an e-mail.
type Sender interface {
	Send(ctx context.Context, d event.Delivery) event.Result
}

// Config is what the runner works with.
type Config struct {
	// DB is a pool for River's own queries (postgres.OpenPlain).
	DB    *sql.DB
	Store Store
	// Work, when set, runs the statements of the dispatches and of the attempts (slots, the
	// delivery, its record): a store whose commits do not wait for the disk. A commit lost in
	// a crash only repeats work: River's own commits, which follow in the log, are flushed
	// with it, so a job whose record was lost is run again, its delivery sent again (at least
	// once, as promised). nil means Store.
	Work     Store
	Webhooks Sender
	// Mail sends the e-mails; nil when no SMTP server is configured, and then an e-mail
	// delivery fails its attempts, saying so, until one is.
	Mail     Sender
	Schedule event.Schedule
	// Workers is how many attempts one instance makes at once; 0 means 64.
	Workers int
	// PollInterval is how often an idle instance looks for new deliveries and for those
	// handed a slot (a job woken by a hand-over waits for it, so it paces a company with a
	// backlog); 0 means 20 ms.
	PollInterval time.Duration
	Log          *slog.Logger
	// Now is the clock the retention job measures age by; nil means time.Now.
	Now func() time.Time
	// InFlight is how many deliveries of one company are attempted at once, across
	// instances; 0 means limits.DeliveriesInFlight.
	InFlight int
	// Notices sends confirmation links and digests; nil when no SMTP server is configured,
	// and then they wait (the confirmations retrying) until one is.
	Notices Notices
	// LeadMailsPerDay is a company's new-lead e-mails a day (UTC, by Now); 0 means
	// limits.LeadEmailsPerDay.
	LeadMailsPerDay int
	// DigestInterval is how often River's leader looks for digests due; 0 means an hour.
	DigestInterval time.Duration
}

// dispatchWorkers is how many dispatch jobs one instance runs at once: they skip each other's
// events, so a second one helps only with a backlog.
const dispatchWorkers = 2

// sweepInterval is how often River's leader enqueues a dispatch job whatever happened: a lead
// change enqueues one only when none is waiting, and an event whose statement committed just
// after the waiting job was fetched (and ran without seeing it) waits at most this long when
// no later change enqueues another.
const sweepInterval = 2 * time.Second

// claimSweepInterval is how often River's leader looks for claims whose worker died mid-chain
// (SweepClaims): a lease is rescueAfter, so such a delivery waits at most twice that, as long
// as a job River rescues (its lease, then the rescuer's pass). The next job to take the slot
// rescues it sooner.
const claimSweepInterval = rescueAfter

// Retention is how long an event and its delivery log are kept once nothing is pending.
const Retention = 30 * 24 * time.Hour

// attemptTimeout bounds a job: an attempt (an e-mail's 15 s at most) and its two statements.
// River rescues a job still marked running after rescueAfter, the mark of a process that died
// mid-attempt.
const (
	attemptTimeout = 25 * time.Second
	rescueAfter    = 30 * time.Second
)

// Runner runs the delivery workers of this instance.
type Runner struct {
	client *river.Client[*sql.Tx]
	// stopping is set by Stop: a worker then claims no more of its company's line, as River
	// starts no more jobs.
	stopping *atomic.Bool
}

// New builds a runner; Start starts it.
func New(cfg Config) (*Runner, error) {
	if cfg.Workers == 0 {
		cfg.Workers = 64
	}
	if cfg.InFlight == 0 {
		cfg.InFlight = limits.DeliveriesInFlight
	}
	if cfg.LeadMailsPerDay == 0 {
		cfg.LeadMailsPerDay = limits.LeadEmailsPerDay
	}
	if cfg.DigestInterval == 0 {
		cfg.DigestInterval = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Work == nil {
		cfg.Work = cfg.Store
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 20 * time.Millisecond
	}
	if len(cfg.Schedule) == 0 {
		cfg.Schedule = event.DefaultSchedule
	}
	workers := river.NewWorkers()
	stopping := new(atomic.Bool)
	river.AddWorker[event.DispatchJob](workers, &dispatcher{store: cfg.Work})
	river.AddWorker[event.DeliveryJob](workers, &worker{cfg: cfg, stopping: stopping})
	river.AddWorker[purgeJob](workers, &purger{store: cfg.Store, log: cfg.Log})
	river.AddWorker[retentionJob](workers, &retainer{store: cfg.Store, log: cfg.Log, now: cfg.Now})
	river.AddWorker[event.ConfirmJob](workers, &confirmer{cfg: cfg})
	river.AddWorker[digestJob](workers, &digester{cfg: cfg})
	river.AddWorker[claimSweepJob](workers, &claimSweeper{store: cfg.Store, log: cfg.Log})
	client, err := river.NewClient(riverdatabasesql.New(cfg.DB), &river.Config{
		Queues: map[string]river.QueueConfig{event.DeliveryQueue: {MaxWorkers: cfg.Workers},
			event.DispatchQueue: {MaxWorkers: dispatchWorkers}},
		Workers:              workers,
		PollOnly:             true, // lib/pq through database/sql: no LISTEN for River
		FetchPollInterval:    cfg.PollInterval,
		FetchCooldown:        min(10*time.Millisecond, cfg.PollInterval),
		JobTimeout:           attemptTimeout,
		RescueStuckJobsAfter: rescueAfter,
		Logger:               riverLogger(cfg.Log),
		PeriodicJobs: []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(24*time.Hour),
			func() (river.JobArgs, *river.InsertOpts) {
				return purgeJob{}, &river.InsertOpts{Queue: event.DeliveryQueue}
			}, &river.PeriodicJobOpts{RunOnStart: true}),
			// Only River's elected leader enqueues periodic jobs, and one job per day at most
			// (unique by period), so one instance at a time enforces retention.
			river.NewPeriodicJob(river.PeriodicInterval(24*time.Hour), func() (river.JobArgs, *river.InsertOpts) {
				return retentionJob{}, &river.InsertOpts{Queue: event.DeliveryQueue,
					UniqueOpts: river.UniqueOpts{ByPeriod: 24 * time.Hour}}
			}, &river.PeriodicJobOpts{RunOnStart: true}),
			river.NewPeriodicJob(river.PeriodicInterval(cfg.DigestInterval), func() (river.JobArgs, *river.InsertOpts) {
				return digestJob{}, &river.InsertOpts{Queue: event.DeliveryQueue}
			}, &river.PeriodicJobOpts{RunOnStart: true}),
			// A claimed delivery has no River job for River to rescue should its worker die:
			// the leader gives one back to those whose claims outlived their leases.
			river.NewPeriodicJob(river.PeriodicInterval(claimSweepInterval), func() (river.JobArgs, *river.InsertOpts) {
				return claimSweepJob{}, &river.InsertOpts{Queue: event.DeliveryQueue}
			}, &river.PeriodicJobOpts{RunOnStart: true}),
			river.NewPeriodicJob(river.PeriodicInterval(sweepInterval), func() (river.JobArgs, *river.InsertOpts) {
				return event.DispatchJob{}, &river.InsertOpts{Queue: event.DispatchQueue, MaxAttempts: event.DeliveryJobMaxAttempts}
			}, &river.PeriodicJobOpts{RunOnStart: true})},
	})
	if err != nil {
		return nil, fmt.Errorf("delivery workers: %w", err)
	}
	return &Runner{client: client, stopping: stopping}, nil
}

// Start starts working deliveries until Stop.
func (r *Runner) Start(ctx context.Context) error { return r.client.Start(ctx) }

// Stop lets the attempts in hand finish (their jobs' own timeouts bound them) until ctx ends,
// then cancels them; a cancelled attempt is tried again later.
func (r *Runner) Stop(ctx context.Context) error {
	r.stopping.Store(true)
	return r.client.Stop(ctx)
}

// dispatcher makes the deliveries of every event not yet dispatched.
type dispatcher struct {
	river.WorkerDefaults[event.DispatchJob]
	store Store
}

func (d *dispatcher) Work(ctx context.Context, _ *river.Job[event.DispatchJob]) error {
	_, err := d.store.DispatchEvents(ctx)
	return err
}

func (d *dispatcher) NextRetry(job *river.Job[event.DispatchJob]) time.Time {
	return time.Now().Add(retryAfter(job.Attempt))
}

// worker makes one attempt of a delivery.
type worker struct {
	river.WorkerDefaults[event.DeliveryJob]
	cfg      Config
	stopping *atomic.Bool
}

func (w *worker) Timeout(*river.Job[event.DeliveryJob]) time.Duration { return attemptTimeout }

// NextRetry is when a job whose run failed (the database did not answer: no attempt was
// recorded) runs again.
func (w *worker) NextRetry(job *river.Job[event.DeliveryJob]) time.Time {
	return time.Now().Add(retryAfter(job.Attempt))
}

// retryAfter is the wait after a job's run failed: 2 s, 4 s, 8 s… up to 5 minutes, sooner than
// River's default so that a database restart delays deliveries by seconds.
func retryAfter(attempt int) time.Duration {
	return time.Duration(min(1<<min(attempt, 9), 300)) * time.Second
}

// Work makes the attempt once it holds one of the company's delivery slots. While they are all
// held (its endpoints are slow, or it has a backlog) the job waits in the company's line,
// snoozed, and frees its worker for other companies' deliveries: a job freeing a slot hands
// it to the oldest in line and makes that job available at once, so a waiting job is not
// fetched again and again while its company is at its bound, and a burst drains at the pace
// of its company's slots.
//
// While its attempts are quick (for chainFor), the worker keeps the slot and runs the next in
// line itself, claimed by the record of the attempt before: a backlog then costs no fetch, no
// slot taken anew and no wait for River's next poll a delivery, which had set the pace of a
// company's deliveries and most of their cost. Other companies lose nothing by it: a company
// has no more workers than slots whichever way its deliveries reach them, and a chain ends
// within chainFor (plus one attempt), its slot then handed on as usual, or at once when the
// runner is stopping. (The fetched job's own
// retry, should its attempt fail, is snoozed when the chain ends: that much later.)
func (w *worker) Work(ctx context.Context, job *river.Job[event.DeliveryJob]) error {
	args := job.Args
	// read is the delivery to attempt when the slot's taking or its claim read it.
	slot, ok, ahead, read, err := w.cfg.Work.TakeSlotFor(ctx, args.CompanyID, args.DeliveryID, job.ID, w.cfg.InFlight, rescueAfter)
	if err != nil {
		return err
	}
	if !ok {
		return river.JobSnooze(turnWait(snoozes(job.Metadata), ahead, w.cfg.InFlight))
	}
	began := time.Now()
	h := event.Held{Slot: slot, Job: job.ID}
	deliveryID := args.DeliveryID
	var first error // the fetched job's own result, which River records
	for {
		h.Chain = time.Since(began) < chainFor && !w.stopping.Load()
		h.HandOver = handoverHold
		if h.Chain {
			h.HandOver = rescueAfter
		}
		next, recorded, err := w.work(ctx, args.CompanyID, deliveryID, read, h)
		if !h.Claimed {
			first = err
		}
		if !recorded {
			// Freed even when the attempt's context ended; should this fail, the lease ends it
			// (and River's rescue a claimed job's run).
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if h.Claimed {
				_ = w.cfg.Work.ReleaseClaimed(ctx, args.CompanyID, slot, h.Job, handoverHold, err == nil)
			} else {
				_ = w.cfg.Work.FreeSlot(ctx, args.CompanyID, slot, h.Job, handoverHold)
			}
			return first
		}
		if next.Job == 0 {
			return first
		}
		h = event.Held{Slot: slot, Job: next.Job, Claimed: true}
		deliveryID, read = next.DeliveryID, next.Delivery
	}
}

// chainFor is how long a worker keeps running its company's waiting deliveries in the slot it
// holds before it hands the slot on (Work). Each hand-on costs a River fetch and completion, a
// slot taken anew and a delivery read; at 250 ms a busy bench's chains were ~3 deliveries long
// and those statements a third of the deliveries' (make bench's deliverer: 64 workers beside
// a hundred companies' backlogs, ~80 ms an attempt). A company's other deliveries wait their
// turn either way (its slots bound them); another company's wait for a free worker grows with
// it only while every worker is chaining, a second at most.
const chainFor = time.Second

// handoverHold is how long a slot handed to a waiting job is kept for it: the time River takes
// to fetch the job made available, with room for a busy instance; past it the slot is free.
const handoverHold = 5 * time.Second

// turnWait is how long a delivery in its company's line sleeps should no slot be handed to it,
// with ahead jobs before it in the line and n slots. The hand-over wakes it sooner, except
// when a slot was freed in the moment between its joining the line and River recording its
// snooze; so a job near the head of the line looks again soon (a tenth of a second), one far
// back, whose turn is far, rarely: the wait grows with the rounds of n ahead of it and doubles
// with each wait, up to half a minute, spread by chance so that a large backlog behind
// never-answering endpoints is not looked at in step, nor fetched again and again.
func turnWait(waited, ahead, n int) time.Duration {
	rounds := time.Duration(1 + ahead/max(n, 1))
	d := min(100*time.Millisecond<<min(waited, 9)*min(rounds, event.LineRounds), 30*time.Second)
	return d/2 + rand.N(d/2+1)
}

// snoozes is how many times River has snoozed a job, from its metadata.
func snoozes(metadata []byte) int {
	var m struct {
		Snoozes int `json:"snoozes"`
	}
	_ = json.Unmarshal(metadata, &m)
	return m.Snoozes
}

// work makes the attempt of a delivery, read unless the claim read it (read), and records it,
// letting the slot h go with the record or claiming the next in line (h.Chain), returned;
// recorded says whether it did (else the caller frees the slot). A pending delivery's job is
// snoozed until its next attempt.
func (w *worker) work(ctx context.Context, companyID, deliveryID uuid.UUID, read *event.Delivery, h event.Held) (next event.Claimed, recorded bool, err error) {
	var d event.Delivery
	if read != nil {
		d = *read
	} else {
		d, err = w.cfg.Work.Delivery(ctx, companyID, deliveryID)
	}
	switch {
	case errs.Is(err, errs.NotFound):
		return next, false, nil // removed with its endpoint
	case err != nil:
		return next, false, err // River tries again
	case d.State != event.Pending:
		return next, false, nil // settled by an earlier run of this job
	}
	res, attempted := w.attempt(ctx, d)
	o := w.cfg.Schedule.Decide(d.Attempts+1, res)
	switch {
	case d.Event.Lead == nil && d.Event.Type != event.LeadErased:
		o = event.Outcome{State: event.Skipped}
	case !attempted:
		o = event.Outcome{State: event.Failed}
	}
	next, err = w.cfg.Work.RecordAttempt(ctx, d.CompanyID, d.ID, attempted, res, o, h)
	if err != nil {
		return next, false, err
	}
	if o.Disable && w.cfg.Log != nil {
		w.cfg.Log.Warn("webhook endpoint disabled: it answered 410", "endpoint", d.Endpoint.ID.String(),
			"company", d.CompanyID.String())
	}
	if o.State == event.Pending {
		return next, true, river.JobSnooze(o.RetryIn)
	}
	return next, true, nil
}

// attempt sends d, or settles it without sending (attempted false) when there is nothing left
// to send it to or with.
func (w *worker) attempt(ctx context.Context, d event.Delivery) (res event.Result, attempted bool) {
	switch {
	case d.Event.Lead == nil && d.Event.Type != event.LeadErased:
		return event.Result{Err: "the lead was erased before this event was delivered"}, false
	case d.Endpoint != nil && d.Endpoint.DisabledAt != nil:
		return event.Result{Err: "the endpoint is disabled"}, false
	case d.Endpoint != nil:
		return w.cfg.Webhooks.Send(ctx, d), true
	case w.cfg.Mail == nil:
		return event.Result{Err: "no SMTP server is configured (LEADCHAT_SMTP_URL)"}, true
	}
	if d.Attempts == 0 {
		// Counted once, at its first attempt: its retries are the same e-mail.
		ok, err := w.cfg.Store.CountLeadMail(ctx, d.CompanyID, w.cfg.Now(), w.cfg.LeadMailsPerDay, d.Email)
		if err != nil {
			return event.Result{Err: "counting the day's e-mails: " + err.Error()}, true
		}
		if !ok {
			return event.Result{Err: fmt.Sprintf("not sent: the company's %d new-lead e-mails of the day (UTC) are spent; "+
				"the day's digest counts this lead", w.cfg.LeadMailsPerDay)}, false
		}
	}
	return w.cfg.Mail.Send(ctx, d), true
}

// confirmer sends an address added to the new-lead e-mail the link that confirms it.
type confirmer struct {
	river.WorkerDefaults[event.ConfirmJob]
	cfg Config
}

func (c *confirmer) NextRetry(job *river.Job[event.ConfirmJob]) time.Time {
	return time.Now().Add(retryAfter(job.Attempt))
}

// Work makes a new link (a retry replaces the link of an attempt whose message may not have
// gone) and sends it; an address removed or confirmed meanwhile needs none.
func (c *confirmer) Work(ctx context.Context, job *river.Job[event.ConfirmJob]) error {
	if c.cfg.Notices == nil {
		return errors.New("no SMTP server is configured (LEADCHAT_SMTP_URL)")
	}
	token, err := event.NewConfirmToken()
	if err != nil {
		return err
	}
	company, err := c.cfg.Store.IssueConfirmToken(ctx, job.Args.CompanyID, job.Args.Email, event.ConfirmHash(token))
	if errs.Is(err, errs.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return c.cfg.Notices.Confirm(ctx, job.Args.Email, company, token)
}

// digestJob sends the digests of the days past: River's leader enqueues it periodically.
type digestJob struct{}

func (digestJob) Kind() string { return "lead_mail_digest" }

type digester struct {
	river.WorkerDefaults[digestJob]
	cfg Config
}

// Timeout lets a run send every digest due; each is claimed before it is sent, so a run cut
// short leaves the rest for the next.
func (g *digester) Timeout(*river.Job[digestJob]) time.Duration { return time.Hour }

func (g *digester) Work(ctx context.Context, _ *river.Job[digestJob]) error {
	if g.cfg.Notices == nil {
		return nil
	}
	for {
		sk, ok, err := g.cfg.Store.TakeDigest(ctx, g.cfg.Now())
		if err != nil || !ok {
			return err
		}
		if err := g.cfg.Notices.Digest(ctx, sk, g.cfg.LeadMailsPerDay); err != nil {
			if rerr := g.cfg.Store.ReleaseDigest(context.WithoutCancel(ctx), sk.CompanyID, sk.Day, sk.Email); rerr != nil {
				return errors.Join(err, rerr)
			}
			return err
		}
	}
}

// retentionJob erases the leads and conversations older than their company's retention;
// River's leader enqueues it daily, so one instance runs it.
type retentionJob struct{}

func (retentionJob) Kind() string { return "retention" }

type retainer struct {
	river.WorkerDefaults[retentionJob]
	store Store
	log   *slog.Logger
	now   func() time.Time
}

// Timeout lets a large backlog be worked through in one run; its batches are short
// transactions, and a run cut short leaves the rest for the next.
func (r *retainer) Timeout(*river.Job[retentionJob]) time.Duration { return time.Hour }

func (r *retainer) Work(ctx context.Context, _ *river.Job[retentionJob]) error {
	leads, chats, err := r.store.EraseExpired(ctx, r.now())
	if (leads > 0 || chats > 0) && r.log != nil {
		r.log.Info("retention: erased old leads and conversations", "leads", leads, "conversations", chats)
	}
	return err
}

// claimSweepJob gives their jobs back to the deliveries claimed by workers that died
// mid-chain; River's leader enqueues it periodically.
type claimSweepJob struct{}

func (claimSweepJob) Kind() string { return "delivery_claim_sweep" }

type claimSweeper struct {
	river.WorkerDefaults[claimSweepJob]
	store Store
	log   *slog.Logger
}

func (c *claimSweeper) Work(ctx context.Context, _ *river.Job[claimSweepJob]) error {
	n, err := c.store.SweepClaims(ctx)
	if err == nil && n > 0 && c.log != nil {
		c.log.Info("deliveries whose worker stopped mid-chain are queued again", "count", n)
	}
	return err
}

// purgeJob deletes old events; River's leader enqueues it daily, so one instance runs it.
type purgeJob struct{}

func (purgeJob) Kind() string { return "purge_events" }

type purger struct {
	river.WorkerDefaults[purgeJob]
	store Store
	log   *slog.Logger
}

func (p *purger) Work(ctx context.Context, _ *river.Job[purgeJob]) error {
	n, err := p.store.PurgeEvents(ctx, Retention)
	if err == nil && n > 0 && p.log != nil {
		p.log.Info("purged old lead events", "count", n)
	}
	return err
}
