-- +goose Up

-- The delivery a slot's holder claimed from its company's line (RecordAttempt chaining), while
-- the claim lasts: a claimed delivery's River job is deleted with the claim, not marked running
-- and deleted again with the record (a row version and its two index entries fewer a delivery
-- of a backlog), and this is what is left of it until its record. A claim whose lease passed
-- (its worker died mid-chain) gives its delivery a job again: the next job to take the slot
-- does so, and River's leader sweeps for the rest (SweepClaims). The column is in no index, so
-- a slot's updates stay HOT.
ALTER TABLE delivery_slots ADD COLUMN delivery_id uuid;

-- +goose Down

-- Claims still held become jobs again, as the sweep would make them.
INSERT INTO river_job (kind, queue, max_attempts, args)
SELECT 'event_delivery', 'events', 25, jsonb_build_object('delivery_id', d.id, 'company_id', d.company_id)
FROM delivery_slots s JOIN event_deliveries d ON d.company_id = s.company_id AND d.id = s.delivery_id
WHERE d.state = 'pending';
ALTER TABLE delivery_slots DROP COLUMN delivery_id;
