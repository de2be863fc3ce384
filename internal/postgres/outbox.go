package postgres

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/event"
)

// The outbox. A statement that changes leads records their events in the same statement, so
// the change and its event commit together, and a group of leads stays one round trip: it ends
// its WITH list with recordEvents over a CTE of the leads it changed. Each event goes to the
// company's enabled webhook endpoints that take its type and, for lead.created of a lead with
// an email or a phone, to each notify address; an event with no target is not recorded. Each
// target gets a delivery row and a River job (insertDeliveryJobs) that makes its attempts.

// recordEvents is the WITH entries that record the events of source, a SELECT of (company_id,
// lead_id, type, lead): lead the lead's row as to_jsonb makes it, NULL for lead.erased. It
// leaves the CTE names ev_* to the statement's other entries.
func recordEvents(source string) string {
	return `ev_source AS (` + source + `
), ev_target AS (
    SELECT s.company_id, s.lead_id, s.type, s.lead, w.id AS endpoint_id, NULL::text AS email
    FROM ev_source s JOIN webhook_endpoints w ON w.company_id = s.company_id
        AND w.disabled_at IS NULL AND (w.events = '{}' OR s.type = ANY (w.events))
    UNION ALL
    SELECT s.company_id, s.lead_id, s.type, s.lead, NULL, n.email
    FROM ev_source s JOIN notify_emails n ON n.company_id = s.company_id
    WHERE s.type = '` + string(event.LeadCreated) + `'
        AND (s.lead->>'email' IS NOT NULL OR s.lead->>'phone' IS NOT NULL)
), ev_event AS (
    INSERT INTO lead_events (id, company_id, lead_id, type, lead)
    SELECT DISTINCT ON (lead_id) gen_random_uuid(), company_id, lead_id, type, lead FROM ev_target
    RETURNING id, company_id, lead_id
), ev_delivery AS (
    INSERT INTO event_deliveries (id, company_id, event_id, endpoint_id, email)
    SELECT gen_random_uuid(), e.company_id, e.id, t.endpoint_id, t.email
    FROM ev_event e JOIN ev_target t USING (company_id, lead_id)
    RETURNING id, company_id
), ev_job AS (
    ` + insertDeliveryJobs("ev_delivery") + `
)`
}

// insertDeliveryJobs enqueues a River job for each delivery of from (id, company_id). River's
// table is a documented interface (its clients in other languages insert into it the same
// way); the columns left out take River's defaults: available now, priority 1.
func insertDeliveryJobs(from string) string {
	return `INSERT INTO river_job (kind, queue, max_attempts, args)
    SELECT '` + event.DeliveryJobKind + `', '` + event.DeliveryQueue + `', ` + fmt.Sprint(event.DeliveryJobMaxAttempts) + `,
           jsonb_build_object('delivery_id', id, 'company_id', company_id)
    FROM ` + from
}

// eraseEvents records lead.erased for each lead of $2 (uuid[]) of company $1, and empties the
// payloads of the events recorded about them before, delivered or not: a pending delivery of an
// emptied event is then failed, not sent.
var eraseEvents = `
WITH scrubbed AS (
    UPDATE lead_events SET lead = NULL
    WHERE company_id = $1 AND lead_id = ANY ($2::uuid[]) AND lead IS NOT NULL
), ` + recordEvents(`SELECT $1::uuid AS company_id, id AS lead_id, '`+string(event.LeadErased)+`' AS type, NULL::jsonb AS lead
    FROM unnest($2::uuid[]) AS id`) + `
SELECT count(*) FROM ev_event`

// recordErased is what an erasure runs in its transaction, after deleting the leads: it
// records lead.erased for each of them and empties the payloads of their earlier events.
func recordErased(ctx context.Context, q runner, companyID uuid.UUID, leadIDs []uuid.UUID) error {
	ids := make(pq.StringArray, len(leadIDs))
	for i, id := range leadIDs {
		ids[i] = id.String()
	}
	var n int
	return q.get(ctx, &n, eraseEvents, companyID, ids)
}
