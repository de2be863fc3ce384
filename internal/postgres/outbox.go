package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/limits"
)

// The outbox. A statement that changes leads records their events in the same statement, so
// the change and its event commit together, and a group of leads stays one round trip: it ends
// its WITH list with recordEvents over a CTE of the leads it changed. An event is recorded only
// when its company has somewhere to send it: an enabled webhook endpoint that takes its type,
// or, for lead.created of a lead with an email or a phone, a confirmed notify address. It is
// recorded in event_outbox, a table without indexes, so the change pays for one tuple per event. The
// statement also enqueues a River job (kind dispatch_events, queue event_dispatch) unless one
// is already waiting there: that job, run moments later, takes the events from the outbox,
// moves them to lead_events, gives each a delivery row per target and each delivery its own
// River job (dispatchEvents). So the change pays for one tuple per event, and for a job row
// only when the queue has none waiting; the per-target rows and jobs are written off the
// request's path.
//
// Skipping the job is safe because a waiting job has not read the events yet. One that is
// fetched between the statement's check and its commit may miss them; the next statement
// (which finds no job waiting) or the dispatch job River's leader enqueues every few seconds
// takes them.

// What an event s goes to, written once for the two places that ask: the statement that records
// an event (which records it only if something takes it) and the dispatch (which makes a
// delivery for each). An enabled webhook endpoint w takes the types it subscribed to (all when
// none); a confirmed new-lead address n takes lead.created of a lead with an email or a phone;
// the member a change gave a reachable lead to (s.assignee) takes that change's event, which is
// a lead.created or the lead.updated of an assignment by hand.
const (
	endpointTakes = `w.company_id = s.company_id AND w.disabled_at IS NULL AND (w.events = '{}' OR s.type = ANY (w.events))`
	addressTakes  = `n.company_id = s.company_id AND n.confirmed_at IS NOT NULL`
	mailedType    = `s.type = '` + string(event.LeadCreated) + `'`
)

// targets is the join of events (a CTE of id, company_id, lead_id, type, assignee) with their
// targets: the webhooks that take the type; for lead.created of a reachable lead, the confirmed
// notify addresses; and the member the event gave the lead to, while the lead is still theirs
// (a lead passed on before the dispatch mails only its new assignee), once when a lead.created
// also goes to them as a notify address. An assignment by hand mails the assignee even when
// they are a notify address: the address got the lead's creation, not that it is now theirs.
func targets(events string) string {
	return `
    SELECT s.company_id, s.id AS event_id, w.id AS endpoint_id, NULL::text AS email
    FROM ` + events + ` s JOIN webhook_endpoints w ON ` + endpointTakes + `
    UNION ALL
    SELECT s.company_id, s.id, NULL, n.email
    FROM ` + events + ` s JOIN notify_emails n ON ` + addressTakes + `
    WHERE ` + mailedType + ` AND EXISTS (SELECT FROM leads l
        WHERE l.company_id = s.company_id AND l.id = s.lead_id AND (l.email IS NOT NULL OR l.phone IS NOT NULL))
    UNION ALL
    SELECT s.company_id, s.id, NULL, u.email
    FROM ` + events + ` s JOIN leads l ON l.company_id = s.company_id AND l.id = s.lead_id
        AND l.assignee_id = s.assignee AND (l.email IS NOT NULL OR l.phone IS NOT NULL)
    JOIN memberships m ON m.company_id = s.company_id AND m.user_id = s.assignee
    JOIN users u ON u.id = m.user_id
    WHERE NOT (` + mailedType + ` AND EXISTS (SELECT FROM notify_emails n
        WHERE ` + addressTakes + ` AND lower(n.email) = u.email))`
}

// recordEvents is the WITH entries that record the events of source, a SELECT of (company_id,
// lead_id, type, reachable, assignee): reachable whether the lead has an email or a phone
// (false for lead.erased), assignee the user the change gave the lead to (a new lead given
// round-robin, or an assignment by hand; NULL otherwise), who gets the new-lead e-mail of it.
// It leaves the CTE names ev_* to the statement's other entries.
//
// Whether an endpoint or an address takes an event is asked of the event's company alone, by
// its index, in a lateral subquery: written as EXISTS beside an OR, the planner hashed every
// enabled endpoint and confirmed address of every company instead, on each statement, a cost
// that grows with the number of companies.
func recordEvents(source string) string { return recordEventsAs(source, "outbox_id()") }

// recordEventsAs is recordEvents with each event's id given by id, an expression over the
// source's row s: a statement whose source carries ids made by the caller (time-ordered, as
// outbox_id makes them) saves PostgreSQL drawing random bits for each event.
func recordEventsAs(source, id string) string {
	return `ev_source AS (` + source + `
), ev_event AS (
    INSERT INTO event_outbox (id, company_id, lead_id, type, assignee)
    SELECT ` + id + `, s.company_id, s.lead_id, s.type, CASE WHEN s.reachable THEN s.assignee END
    FROM ev_source s
    LEFT JOIN LATERAL (SELECT true AS takes FROM webhook_endpoints w WHERE ` + endpointTakes + ` LIMIT 1) w ON true
    LEFT JOIN LATERAL (SELECT true AS takes FROM notify_emails n
        WHERE ` + mailedType + ` AND s.reachable AND ` + addressTakes + ` LIMIT 1) n ON true
    WHERE w.takes OR (s.reachable AND s.assignee IS NOT NULL) OR n.takes
    RETURNING id
), ev_dispatch AS (
    INSERT INTO river_job (kind, queue, max_attempts, args)
    SELECT '` + event.DispatchJobKind + `', '` + event.DispatchQueue + `', ` + fmt.Sprint(event.DeliveryJobMaxAttempts) + `, '{}'
    WHERE EXISTS (SELECT FROM ev_event)
        AND NOT EXISTS (SELECT FROM river_job WHERE state = 'available' AND queue = '` + event.DispatchQueue + `')
)`
}

// dispatchEvents takes up to $1 events from the outbox, moves them to lead_events, gives each a
// delivery per target and each delivery its job, in one statement. Rows another dispatcher
// holds are skipped, not waited for, so dispatchers of several instances share the backlog; an
// event taken is gone from the outbox, so a second run does not find it. It reads across
// companies, as the purge does: the events were recorded by statements that held each one's
// company. The outbox has no index: the rows are found by a scan that stops at $1, by their
// physical place (ctid), which is as the backlog came in.
var dispatchEvents = `
WITH picked AS (
    DELETE FROM event_outbox
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM event_outbox LIMIT $1 FOR UPDATE SKIP LOCKED))
    RETURNING id, company_id, lead_id, type, assignee, created_at
), event AS (
    INSERT INTO lead_events (id, company_id, lead_id, type, created_at)
    SELECT id, company_id, lead_id, type, created_at FROM picked
), target AS (` + targets("picked") + `
), delivery AS (
    INSERT INTO event_deliveries (id, company_id, event_id, endpoint_id, email)
    SELECT outbox_id(), company_id, event_id, endpoint_id, email FROM target
    RETURNING id, company_id
), ` + deliveryJobs("delivery") + `
SELECT (SELECT count(*) FROM picked) AS events, (SELECT count(*) FROM delivery) AS deliveries`

// dispatchBatch bounds the events one statement of DispatchEvents takes.
const dispatchBatch = 1000

// DispatchEvents makes the deliveries of every event not yet dispatched, a batch at a time,
// and returns how many it made.
func (s *Store) DispatchEvents(ctx context.Context) (int, error) {
	total := 0
	for {
		var n struct {
			Events     int `db:"events"`
			Deliveries int `db:"deliveries"`
		}
		if err := (runner{s: s}).get(ctx, &n, dispatchEvents, dispatchBatch); err != nil {
			return total, err
		}
		total += n.Deliveries
		if n.Events < dispatchBatch {
			return total, nil
		}
	}
}

func uuidArray(ids []uuid.UUID) pq.StringArray {
	a := make(pq.StringArray, len(ids))
	for i, id := range ids {
		a[i] = id.String()
	}
	return a
}

// deliveryJobs is the WITH entries (named dj_*) that enqueue a River job for each delivery of
// from (id, company_id). River's table is a documented interface (its clients in other
// languages insert into it the same way); the columns left out take River's defaults,
// priority 1. A delivery whose company has no slot free for it (its slots are held, or others
// wait in its line already) joins the company's line at once: its job is inserted due later,
// not now, so River does not fetch it only to find every slot held; the job freeing a
// slot hands it on (FreeSlot). Should that hand-over miss it (a slot freed while this
// statement ran), it looks for itself once its time comes: sooner the nearer it is to the
// head of the line, at most half a minute on (dueState). The time grows with the square of the rounds of
// the company's slots ahead of it: a company's turn comes more slowly the more companies have a
// backlog, and a job that looks before its turn is fetched, finds the slots held and is
// snoozed for nothing (three times a delivery, with a hundred companies' backlogs, when the
// time grew in proportion); only the head of the line needs to look soon, since a hand-over
// reaches it before the others. A company
// whose slots are not made yet (its first deliveries) counts as having the default number
// free: its deliveries past them wait in line from the start rather than being fetched only
// to find the slots taken (the bound itself is TakeSlot's, whatever the number). The
// companies' slots and lines are counted once a company (MATERIALIZED): inlined, the planner
// joined the deliveries first and counted them again for each delivery, a thousand times a
// batch for ten companies.
func deliveryJobs(from string) string {
	return `dj_company AS MATERIALIZED (
    SELECT c.company_id, f.slots, f.free, f.line
    FROM (SELECT DISTINCT company_id FROM ` + from + `) c
    CROSS JOIN LATERAL (
        SELECT CASE WHEN count(*) = 0 THEN ` + fmt.Sprint(limits.DeliveriesInFlight) + ` ELSE count(*) END AS slots,
            CASE WHEN count(*) = 0 THEN ` + fmt.Sprint(limits.DeliveriesInFlight) + `
                ELSE count(*) FILTER (WHERE s.held_until IS NULL OR s.held_until < now()) END AS free,
            (SELECT count(*) FROM (SELECT FROM delivery_waits w WHERE w.company_id = c.company_id
                LIMIT ` + fmt.Sprint(limits.DeliveriesInFlight*event.LineRounds) + `) w) AS line
        FROM delivery_slots s WHERE s.company_id = c.company_id
    ) f
), dj_placed AS (
    SELECT d.id, d.company_id, f.line > 0
            OR row_number() OVER (PARTITION BY d.company_id ORDER BY d.id) > f.free AS waits,
        f.line + row_number() OVER (PARTITION BY d.company_id ORDER BY d.id) - f.free AS place,
        f.slots
    FROM ` + from + ` d JOIN dj_company f ON f.company_id = d.company_id
), dj_job AS (
    INSERT INTO river_job (kind, queue, max_attempts, args, state, scheduled_at)
    SELECT '` + event.DeliveryJobKind + `', '` + event.DeliveryQueue + `', ` + fmt.Sprint(event.DeliveryJobMaxAttempts) + `,
           jsonb_build_object('delivery_id', id, 'company_id', company_id), ` + dueState("at") + `, at
    FROM (SELECT *, CASE WHEN waits THEN now() + least(interval '30 seconds',
            interval '250 milliseconds' * (1 + (place / slots) ^ 2)) ELSE now() END AS at
        FROM dj_placed) p
    RETURNING id, args, scheduled_at
), dj_waits AS (
    INSERT INTO delivery_waits (company_id, job_id)
    SELECT (args->>'company_id')::uuid, id FROM dj_job WHERE scheduled_at > now()
)`
}

// insertDeliveryJobs is an INSERT of a delivery job, as deliveryJobs makes them, for each row of
// sel, a SELECT of (delivery_id, company_id, at): due at at, an SQL timestamptz.
func insertDeliveryJobs(sel string) string {
	return `INSERT INTO river_job (kind, queue, max_attempts, args, state, scheduled_at)
    SELECT '` + event.DeliveryJobKind + `', '` + event.DeliveryQueue + `', ` + fmt.Sprint(event.DeliveryJobMaxAttempts) + `,
        jsonb_build_object('delivery_id', j.delivery_id, 'company_id', j.company_id), ` + dueState("j.at") + `, j.at
    FROM (` + sel + `) j`
}

// schedulerInterval is how often River's scheduler makes the jobs due that wait in state
// scheduled (its default, which the runner keeps).
const schedulerInterval = 5 * time.Second

// dueState is the state of a delivery job due at at (an SQL timestamptz), as River gives a job
// it snoozes: available when due within schedulerInterval (River fetches an available job once
// its scheduled_at passes, so it runs on time), else scheduled, for the scheduler. A job put
// scheduled for a moment would run only at the scheduler's next pass, seconds late.
func dueState(at string) string {
	return `CASE WHEN ` + at + ` <= now() + interval '` + fmt.Sprint(schedulerInterval.Milliseconds()) +
		` milliseconds' THEN 'available' ELSE 'scheduled' END::river_job_state`
}

// eraseEvents records lead.erased for each lead of $2 (uuid[]) of company $1. The outbox holds
// nothing else about the leads: a pending delivery of an earlier event finds no lead to send
// and fails without sending.
var eraseEvents = `
WITH ` + recordEvents(`SELECT $1::uuid AS company_id, id AS lead_id, '`+string(event.LeadErased)+`' AS type, false AS reachable, NULL::uuid AS assignee
    FROM unnest($2::uuid[]) AS id`) + `
SELECT count(*) FROM ev_event`

// recordErased is what an erasure runs in its transaction, after deleting the leads: it
// records lead.erased for each of them.
func recordErased(ctx context.Context, q runner, companyID uuid.UUID, leadIDs []uuid.UUID) error {
	var n int
	return q.get(ctx, &n, eraseEvents, companyID, uuidArray(leadIDs))
}
