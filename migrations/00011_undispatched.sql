-- +goose Up

-- The events whose deliveries are still to be made. A lead change enqueues a dispatch job only
-- when none is already waiting, and a dispatch job takes every event not yet dispatched, so it
-- finds them here rather than by a range of ids. An event leaves the index when it is
-- dispatched (vacuum drops the entry), so the index stays as small as the backlog.
CREATE INDEX lead_events_undispatched ON lead_events (id) WHERE NOT dispatched;

-- +goose Down
DROP INDEX lead_events_undispatched;
