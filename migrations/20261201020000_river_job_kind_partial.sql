-- +goose Up

-- River's index on a job's kind serves listings by kind (River's UI); River itself fetches,
-- schedules and cleans jobs through its other indexes, and nothing of leadchat's asks for the
-- delivery or dispatch jobs by kind. A delivery job's row is written three to five times (the
-- dispatch's insert, a fetch or a claim, its completion or deletion, a snooze), never as a HOT
-- update (its state is in River's fetch index), so each write added an entry to this index: a
-- WAL record and a descent of the index a write. The delivery and dispatch jobs are left out,
-- as of the GIN indexes (20261128120000); River's other jobs stay in. The name stays River's.
DROP INDEX river_job_kind;
CREATE INDEX river_job_kind ON river_job (kind)
    WHERE kind NOT IN ('event_delivery', 'dispatch_events');

-- +goose Down
DROP INDEX river_job_kind;
CREATE INDEX river_job_kind ON river_job (kind);
