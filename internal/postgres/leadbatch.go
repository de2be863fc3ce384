package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// Lead creates without an idempotency key commit in groups: a writer (one by default,
// Options.LeadWriters) takes every create waiting at that moment and stores them with one
// statement in one transaction, so concurrent creates share one round trip, one commit and one
// WAL flush (group commit). A writer never waits for a group to fill: a create that finds it
// free goes alone, with the single-lead statement, so a quiet service answers as fast as
// before. A group that fails for a reason other than an unavailable database is retried one
// lead at a time, so one bad lead cannot fail the others, and each create sees only its own
// outcome. Measured by make bench: lead creates spread over 100 companies at 16 connections
// went from 44% of the single-transaction database ceiling to 79%, and PostgreSQL's CPU time
// per lead fell to about a third (internal/bench/results/20261123T08*).

// insertLeadBatch stores a group of leads ($1: a JSON array of leadRow, ord giving the order of
// arrival). Each company's counter goes up by its number of leads in one upsert, the counter
// rows taken in company id order so that concurrent groups cannot deadlock; each lead gets the
// count it would have got alone, in arrival order, and its status from it.
const insertLeadBatch = `
WITH batch AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
        ord int, company_id uuid, id uuid, first_name text, last_name text, email text,
        phone text, phone_e164 text, service text, details jsonb, source text,
        referral_data jsonb, lead_limit int)
), counter AS (
    INSERT INTO lead_counters AS lc (company_id, month, count)
    SELECT company_id, date_trunc('month', now() AT TIME ZONE 'UTC')::date, count(*)
    FROM batch GROUP BY company_id ORDER BY company_id
    ON CONFLICT (company_id, month) DO UPDATE SET count = lc.count + excluded.count
    RETURNING company_id, count
), numbered AS (
    SELECT b.*, c.count - count(*) OVER w + row_number() OVER (w ORDER BY b.ord) AS n
    FROM batch b JOIN counter c USING (company_id)
    WINDOW w AS (PARTITION BY b.company_id)
), statused AS (
    SELECT numbered.*,
           CASE WHEN lead_limit IS NOT NULL AND n > lead_limit THEN 'over_limit' ELSE 'new' END AS status
    FROM numbered
), inserted AS (
    INSERT INTO leads (company_id, id, first_name, last_name, email, phone, phone_e164, service,
                       details, source, referral_data, status)
    SELECT company_id, id, first_name, last_name, email, phone, phone_e164, service,
           details, source, referral_data, status
    FROM statused
    RETURNING id
)
SELECT s.ord, s.status, s.n AS count FROM statused s JOIN inserted i USING (id)`

// leadRow is one lead of insertLeadBatch's JSON; an omitted field is NULL, as null() stores it.
type leadRow struct {
	Ord          int               `json:"ord"`
	CompanyID    uuid.UUID         `json:"company_id"`
	ID           uuid.UUID         `json:"id"`
	FirstName    string            `json:"first_name,omitempty"`
	LastName     string            `json:"last_name,omitempty"`
	Email        string            `json:"email,omitempty"`
	Phone        string            `json:"phone,omitempty"`
	PhoneE164    string            `json:"phone_e164,omitempty"`
	Service      string            `json:"service,omitempty"`
	Details      map[string]string `json:"details,omitempty"`
	Source       string            `json:"source"`
	ReferralData map[string]string `json:"referral_data,omitempty"`
	LeadLimit    *int              `json:"lead_limit"`
}

// pendingLead is a create waiting for a writer; done is buffered so a writer never blocks on a
// create that stopped waiting.
type pendingLead struct {
	ctx       context.Context
	companyID uuid.UUID
	lead      lead.Lead
	limit     *int
	done      chan leadResult
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
func (w *leadWriters) submit(ctx context.Context, companyID uuid.UUID, l lead.Lead, limit *int) (lead.Created, error) {
	p := &pendingLead{ctx: ctx, companyID: companyID, lead: l, limit: limit, done: make(chan leadResult, 1)}
	select {
	case w.queue <- p:
	case <-ctx.Done():
		return lead.Created{}, translate(ctx.Err())
	case <-w.stop:
		return lead.Created{}, errs.E(errs.Unavailable, errs.CodeUnavailable)
	}
	select {
	case r := <-p.done:
		return r.created, r.err
	case <-ctx.Done():
		return lead.Created{}, translate(ctx.Err())
	case <-w.stop:
		return lead.Created{}, errs.E(errs.Unavailable, errs.CodeUnavailable)
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
	if len(live) > 1 {
		results, err := insertLeads(ctx, w.s, live)
		if err == nil {
			for i, p := range live {
				p.done <- results[i]
			}
			return
		}
		if errs.Is(err, errs.Unavailable) {
			for _, p := range live {
				p.done <- leadResult{err: err}
			}
			return
		}
		// Which lead failed the group is unknown: store each alone.
	}
	for _, p := range live {
		created, err := insertLeadWith(ctx, runner{s: w.s}, p.companyID, p.lead, p.limit)
		p.done <- leadResult{created, err}
	}
}

// insertLeads stores a group of two or more leads with insertLeadBatch.
func insertLeads(ctx context.Context, s *Store, group []*pendingLead) ([]leadResult, error) {
	rows := make([]leadRow, len(group))
	for i, p := range group {
		l := p.lead
		rows[i] = leadRow{Ord: i, CompanyID: p.companyID, ID: l.ID, FirstName: l.FirstName,
			LastName: l.LastName, Email: l.Email, Phone: l.Phone, PhoneE164: l.PhoneE164,
			Service: l.Service, Details: leadDetails(l), Source: string(l.Source), ReferralData: l.ReferralData,
			LeadLimit: p.limit}
	}
	arg, err := json.Marshal(rows)
	if err != nil {
		return nil, fmt.Errorf("encoding a group of leads: %w", err)
	}
	var out []struct {
		Ord    int         `db:"ord"`
		Status lead.Status `db:"status"`
		Count  int         `db:"count"`
	}
	if err := (runner{s: s}).selectAll(ctx, &out, insertLeadBatch, string(arg)); err != nil {
		return nil, err
	}
	if len(out) != len(group) {
		return nil, fmt.Errorf("a group of %d leads stored %d", len(group), len(out))
	}
	results := make([]leadResult, len(group))
	for _, r := range out {
		p := group[r.Ord]
		results[r.Ord] = leadResult{created: lead.Created{ID: p.lead.ID, OverLimit: r.Status == lead.StatusOverLimit,
			Limit: p.limit, Count: r.Count}}
	}
	return results, nil
}
