package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
)

// selectDelivery reads a delivery with its event and its endpoint and secrets; the lead comes
// from the store's one lead query (selectLead), as it is now.
const selectDelivery = `
SELECT d.id, d.company_id, d.state, d.attempts, d.email,
       e.id AS event_id, e.type, e.lead_id, e.created_at AS event_at,
       w.id AS endpoint_id, w.url, w.secret, w.previous_secret, w.previous_secret_until,
       w.disabled_at
FROM event_deliveries d
JOIN lead_events e ON e.id = d.event_id
LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.company_id = d.company_id
WHERE d.company_id = $1 AND d.id = $2`

// deliveryLeadColumns are selectDelivery's columns and the event's lead's, selectLead's (its
// times in binary, as the list reads them), from deliveryLeadFrom.
const deliveryLeadColumns = `d.id, d.company_id, d.state, d.attempts, d.email,
       e.id AS event_id, e.type, e.lead_id, e.created_at AS event_at,
       w.id AS endpoint_id, w.url, w.secret, w.previous_secret, w.previous_secret_until,
       w.disabled_at, ` + leadColumns

// deliveryLeadFrom is the FROM and WHERE of a read of company $1's delivery id (an SQL
// expression) with its event's lead: no row when the event names no lead to send (lead.erased)
// or the lead is gone.
func deliveryLeadFrom(id string) string {
	return `
FROM event_deliveries d
JOIN lead_events e ON e.id = d.event_id
LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.company_id = d.company_id
JOIN leads l ON l.company_id = $1 AND l.id = e.lead_id AND e.type <> '` + string(event.LeadErased) + `'
WHERE d.company_id = $1 AND d.id = ` + id
}

// selectDeliveryLead is selectDelivery with the event's lead in the same round trip (one
// statement fewer for each attempt). No row when there is no lead to send: Delivery then reads
// the delivery alone.
var selectDeliveryLead = `SELECT ` + deliveryLeadColumns + deliveryLeadFrom("$2")

// deliveryRow is a row of selectDelivery.
type deliveryRow struct {
	ID         uuid.UUID
	CompanyID  uuid.UUID
	State      event.State
	Attempts   int
	Email      sql.NullString
	EventID    uuid.UUID
	Type       event.Type
	LeadID     uuid.UUID
	EventAt    time.Time
	EndpointID *uuid.UUID
	URL        sql.NullString
	Secret     sql.NullString
	PrevSecret sql.NullString
	PrevUntil  *time.Time
	DisabledAt *time.Time
}

// dest is where Scan puts selectDelivery's columns.
func (r *deliveryRow) dest() []any {
	return []any{&r.ID, &r.CompanyID, &r.State, &r.Attempts, &r.Email, &r.EventID, &r.Type, &r.LeadID, &r.EventAt,
		&r.EndpointID, &r.URL, &r.Secret, &r.PrevSecret, &r.PrevUntil, &r.DisabledAt}
}

// delivery is the row as an event.Delivery, without the lead.
func (r *deliveryRow) delivery() event.Delivery {
	d := event.Delivery{ID: r.ID, CompanyID: r.CompanyID, State: r.State, Attempts: r.Attempts, Email: r.Email.String,
		Event: event.Event{ID: r.EventID, Type: r.Type, CompanyID: r.CompanyID, LeadID: r.LeadID, At: r.EventAt}}
	if r.EndpointID != nil {
		d.Endpoint = &event.Endpoint{ID: *r.EndpointID, CompanyID: r.CompanyID, URL: r.URL.String,
			Secret: r.Secret.String, PreviousSecret: r.PrevSecret.String, PreviousUntil: r.PrevUntil,
			DisabledAt: r.DisabledAt}
	}
	return d
}

// Delivery reads a company's delivery for an attempt, with its event's lead unless the lead is
// gone (erased: the event is then not sent); errs.NotFound when the delivery is gone (its
// endpoint was removed).
func (s *Store) Delivery(ctx context.Context, companyID, deliveryID uuid.UUID) (event.Delivery, error) {
	st, err := s.stmt(ctx, selectDeliveryLead)
	if err != nil {
		return event.Delivery{}, err
	}
	var r deliveryRow
	var l leadRecord
	err = st.QueryRowContext(ctx, companyID, deliveryID).Scan(append(r.dest(), l.dest()...)...)
	if err == nil {
		return withLead(&r, &l)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return event.Delivery{}, translate(err)
	}
	st, err = s.stmt(ctx, selectDelivery)
	if err != nil {
		return event.Delivery{}, err
	}
	if err := st.QueryRowContext(ctx, companyID, deliveryID).Scan(r.dest()...); err != nil {
		return event.Delivery{}, translate(err)
	}
	return r.delivery(), nil
}

// withLead is the delivery of a row of deliveryLeadColumns.
func withLead(r *deliveryRow, l *leadRecord) (event.Delivery, error) {
	stored, err := l.stored()
	if err != nil {
		return event.Delivery{}, err
	}
	d := r.delivery()
	d.Event.Lead = &stored
	return d, nil
}

// recordAttempt stores an attempt's outcome on a delivery still pending, and disables its
// endpoint when the outcome says so ($9 the reason), in one statement. A delivery no longer
// pending (another attempt settled it) is left as it is.
//
// The receiver's answer and the error ($6, $7) are kept only while the event's lead exists (or
// for a lead.erased event, which carries no one's details): an attempt that read the lead before
// an erasure and got its answer after it would otherwise store, after the erasure, what a
// receiver echoed of the person. The lead is locked (KEY SHARE) for the statement, so an
// erasure running at the same time either waits for this and then clears the answer, or
// finishes first and this finds no lead. An attempt with neither (a 2xx with an empty body,
// most deliveries) has nothing to keep or clear: it reads and locks no lead (a lock is a WAL
// record and a dirtied page of the lead's), and waits for no erasure.
//
// The job that made the attempt lets its delivery slot go in the same statement ($10 the slot,
// $11 the job, $12 the hand-over's hold; job 0 holds none), or, when $13, claims the company's
// next waiting delivery for the same worker, keeping the slot (handOver). A job that was itself
// claimed so ($14), whose River job went with its claim (handOver), is settled here: given a job
// anew, due at its next attempt (dueState), as River would have snoozed it, while its claim is
// still held (else its lease passed and the claim's rescue gave it one); with nothing left to
// attempt, none. River would keep a job it completed for a day before its cleaner deletes it;
// a claimed one is gone at once, since River never ran it and the delivery's own row is its
// record.
//
// The delivery it claims is read in the same statement, as Delivery reads it (a round trip
// and a statement fewer a delivery of a chain): the statement's row is the claimed job, its
// delivery and, when found (the event has a lead to send), the delivery's columns with its
// lead's. No row when it claimed none.
var recordAttempt = `
WITH keep AS (
    SELECT e.type = 'lead.erased' OR EXISTS (
        SELECT 1 FROM leads l WHERE l.company_id = $1 AND l.id = e.lead_id FOR KEY SHARE
    ) AS answer
    FROM event_deliveries dd
    JOIN lead_events e ON e.company_id = $1 AND e.id = dd.event_id
    WHERE dd.company_id = $1 AND dd.id = $2 AND ($6::text IS NOT NULL OR $7::text IS NOT NULL)
), d AS (
    UPDATE event_deliveries SET attempts = attempts + $3, state = $4, last_status = $5,
        last_error = CASE WHEN (SELECT answer FROM keep) OR $4 = 'skipped' THEN $6 END,
        last_response = CASE WHEN (SELECT answer FROM keep) THEN $7 END, last_attempt_at = now(),
        next_attempt_at = CASE WHEN $4 = 'pending' THEN now() + $8 * interval '1 millisecond' END,
        delivered_at = CASE WHEN $4 = 'delivered' THEN now() END
    WHERE company_id = $1 AND id = $2 AND state = 'pending'
    RETURNING endpoint_id
), disabled AS (
    UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = $9
    WHERE company_id = $1 AND id = (SELECT endpoint_id FROM d) AND $9 <> '' AND disabled_at IS NULL
), ` + handOver("$10", "$11", "$12", "$13") + `, own AS (
    ` + insertDeliveryJobs(`SELECT $2::uuid AS delivery_id, $1::uuid AS company_id,
            now() + $8 * interval '1 millisecond' AS at
        WHERE $14 AND $4 = 'pending' AND EXISTS (SELECT FROM d) AND EXISTS (SELECT FROM ho_freed)`) + `
)
SELECT h.id AS next_job, (h.args->>'delivery_id')::uuid AS next_delivery, n.*
FROM ho_claimed h
LEFT JOIN LATERAL (SELECT true AS found, ` + deliveryLeadColumns +
	deliveryLeadFrom(`(h.args->>'delivery_id')::uuid`) + `) n ON true
WHERE $13`

// skip is a Scan destination that keeps nothing: a column read on a later Scan of the row.
type skip struct{}

func (skip) Scan(any) error { return nil }

// RecordAttempt stores the outcome of a delivery's attempt (counted unless attempted is false:
// a delivery settled without sending), on a 410 disables the endpoint, and lets the delivery
// slot go that the attempt held (as FreeSlot; the zero Held holds none), or with h.Chain claims
// the company's next waiting delivery, returned (read, with its lead, when it has one to send),
// to be run at once in the same slot.
func (s *Store) RecordAttempt(ctx context.Context, companyID, deliveryID uuid.UUID, attempted bool, r event.Result, o event.Outcome, h event.Held) (event.Claimed, error) {
	var status *int
	if r.Status != 0 {
		status = &r.Status
	}
	reason := ""
	if o.Disable {
		reason = fmt.Sprintf("answered %d", r.Status)
	}
	n := 0
	if attempted {
		n = 1
	}
	rows, err := (runner{s: s}).query(ctx, recordAttempt, companyID, deliveryID, n, o.State, status,
		null(r.Err), null(r.Response), o.RetryIn.Milliseconds(), reason, h.Slot, h.Job, h.HandOver.Milliseconds(),
		h.Chain, h.Claimed)
	if err != nil {
		return event.Claimed{}, err
	}
	defer rows.Close()
	if !rows.Next() {
		return event.Claimed{}, translate(rows.Err())
	}
	var c event.Claimed
	var found sql.NullBool
	var dr deliveryRow
	var l leadRecord
	// The row is scanned twice: its head, and then, when the delivery was found, whole (its
	// columns are NULL otherwise, which deliveryRow's and leadRecord's fields do not take).
	dest := append(append([]any{&c.Job, &c.DeliveryID, &found}, dr.dest()...), l.dest()...)
	head := make([]any, len(dest))
	copy(head, dest[:3])
	for i := 3; i < len(head); i++ {
		head[i] = skip{}
	}
	if err := rows.Scan(head...); err != nil {
		return event.Claimed{}, translate(err)
	}
	if !found.Valid {
		return c, nil // read on its own
	}
	if err := rows.Scan(dest...); err != nil {
		return event.Claimed{}, translate(err)
	}
	d, err := withLead(&dr, &l)
	if err != nil {
		return event.Claimed{}, err
	}
	c.Delivery = &d
	return c, nil
}

const selectDeliveries = `
SELECT d.id, d.event_id, e.type, e.lead_id, d.endpoint_id, coalesce(d.email, '') AS email, d.state,
       d.attempts, d.last_status, coalesce(d.last_error, '') AS last_error,
       coalesce(d.last_response, '') AS last_response, d.last_attempt_at, d.next_attempt_at,
       d.delivered_at, d.created_at
FROM event_deliveries d JOIN lead_events e ON e.id = d.event_id
WHERE d.company_id = $1 AND d.endpoint_id = $2
    AND ($4::timestamptz IS NULL OR (d.created_at, d.id) < ($4, $5::uuid))
ORDER BY d.created_at DESC, d.id DESC
LIMIT $3`

type recordRow struct {
	ID            uuid.UUID   `db:"id"`
	EventID       uuid.UUID   `db:"event_id"`
	Type          event.Type  `db:"type"`
	LeadID        uuid.UUID   `db:"lead_id"`
	EndpointID    *uuid.UUID  `db:"endpoint_id"`
	Email         string      `db:"email"`
	State         event.State `db:"state"`
	Attempts      int         `db:"attempts"`
	LastStatus    *int        `db:"last_status"`
	LastError     string      `db:"last_error"`
	LastResponse  string      `db:"last_response"`
	LastAttemptAt *time.Time  `db:"last_attempt_at"`
	NextAttemptAt *time.Time  `db:"next_attempt_at"`
	DeliveredAt   *time.Time  `db:"delivered_at"`
	CreatedAt     time.Time   `db:"created_at"`
}

// Deliveries lists the newest limit deliveries to a company's endpoint, newest first.
func (s *Store) Deliveries(ctx context.Context, companyID, endpointID uuid.UUID, limit int) ([]event.Record, error) {
	return s.DeliveriesBefore(ctx, companyID, endpointID, event.Cursor{}, limit)
}

// DeliveriesBefore lists limit deliveries to a company's endpoint, newest first, that come
// after the cursor in that order (a keyset page: the one-endpoint index on created_at finds
// the page's start, never skipping rows one by one); a zero cursor starts at the newest.
func (s *Store) DeliveriesBefore(ctx context.Context, companyID, endpointID uuid.UUID, before event.Cursor, limit int) ([]event.Record, error) {
	var at *time.Time
	if !before.IsZero() {
		at = &before.CreatedAt
	}
	var rows []recordRow
	if err := s.db.SelectContext(ctx, &rows, selectDeliveries, companyID, endpointID, limit, at, before.ID); err != nil {
		return nil, translate(err)
	}
	out := make([]event.Record, len(rows))
	for i, r := range rows {
		out[i] = event.Record(r)
	}
	return out, nil
}

// redeliver puts a settled delivery back to pending with a fresh schedule and enqueues its job,
// in one statement. No row back: no such delivery of the company, or one still pending.
var redeliver = `
WITH d AS (
    UPDATE event_deliveries SET state = 'pending', attempts = 0, next_attempt_at = NULL,
        delivered_at = NULL
    WHERE company_id = $1 AND id = $2 AND state <> 'pending'
    RETURNING id, company_id
), ` + deliveryJobs("d") + `
SELECT count(*) FROM d`

// Redeliver sends a delivered or failed delivery again, with the same webhook-id;
// event.ErrPending when it is still on its way, errs.NotFound when the company has no such
// delivery.
func (s *Store) Redeliver(ctx context.Context, companyID, deliveryID uuid.UUID) error {
	var n int
	if err := s.db.GetContext(ctx, &n, redeliver, companyID, deliveryID); err != nil {
		return translate(err)
	}
	if n == 1 {
		return nil
	}
	var state event.State
	if err := s.db.GetContext(ctx, &state, selectDeliveryState, companyID, deliveryID); err != nil {
		return translate(err)
	}
	return event.ErrPending
}

const selectDeliveryState = `SELECT state FROM event_deliveries WHERE company_id = $1 AND id = $2`

// deleteOldEvents deletes the events older than $1 ms that nothing is still delivering, with
// their delivery logs. It runs daily, so it scans rather than keep an index on every row. It
// also clears the slot waiting lines of jobs River has finished or deleted without their
// taking a slot (cancelled, or discarded after failing runs), which no hand-over would reach.
const deleteOldEvents = `
WITH gone_waiters AS (
    DELETE FROM delivery_waits w
    WHERE NOT EXISTS (SELECT FROM river_job j
        WHERE j.id = w.job_id AND j.state NOT IN ('completed', 'cancelled', 'discarded'))
), old AS (
    DELETE FROM lead_events e
    WHERE e.created_at < now() - $1 * interval '1 millisecond'
        AND NOT EXISTS (SELECT FROM event_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
    RETURNING id
), deliveries AS (
    DELETE FROM event_deliveries WHERE event_id IN (SELECT id FROM old)
)
SELECT count(*) FROM old`

// PurgeEvents deletes, for every company at once, the events older than age whose deliveries
// are all settled, and the places in the slot waiting lines of jobs that are gone.
func (s *Store) PurgeEvents(ctx context.Context, age time.Duration) (int64, error) {
	var n int64
	return n, translate(s.db.GetContext(ctx, &n, deleteOldEvents, age.Milliseconds()))
}
