-- +goose Up

-- The outbox proper: an event as the change that reports it records it, in its transaction, and
-- nothing more. A row here is a heap tuple with no index, so a lead change pays for one tuple
-- per event (before, an event was a lead_events row with two index entries, and the dispatch
-- rewrote it to mark it done). The dispatch job takes rows from here (skipping those another
-- dispatcher holds), deletes them, and in the same statement writes them to lead_events, with
-- their deliveries and jobs. The table stays as small as the backlog; it is read only by the
-- dispatch, which takes whichever rows it finds first.
CREATE TABLE event_outbox (
    id         uuid NOT NULL,
    company_id uuid NOT NULL,
    lead_id    uuid NOT NULL,
    type       text NOT NULL CHECK (type IN ('lead.created', 'lead.updated', 'lead.erased')),
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO event_outbox (id, company_id, lead_id, type, created_at)
SELECT id, company_id, lead_id, type, created_at FROM lead_events WHERE NOT dispatched;
DELETE FROM lead_events WHERE NOT dispatched;

-- lead_events is now the events whose deliveries are made, what the delivery log and the purge
-- read.
DROP INDEX lead_events_undispatched;
ALTER TABLE lead_events DROP COLUMN dispatched;

-- +goose Down
ALTER TABLE lead_events ADD COLUMN dispatched boolean NOT NULL DEFAULT true;
INSERT INTO lead_events (id, company_id, lead_id, type, dispatched, created_at)
SELECT id, company_id, lead_id, type, false, created_at FROM event_outbox;
ALTER TABLE lead_events ALTER COLUMN dispatched SET DEFAULT false;
DROP TABLE event_outbox;
CREATE INDEX lead_events_undispatched ON lead_events (id) WHERE NOT dispatched;
