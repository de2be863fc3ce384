-- +goose Up

-- River's GIN indexes over every job's args and metadata serve lookups by their contents (River's
-- UI, a listing filtered by args); River itself finds jobs by id, kind, state and queue, and reads
-- metadata only of jobs it found by id. A delivery's job is written four to five times (inserted
-- by the dispatch, fetched or claimed, completed, snoozed on a retry), and a state change is never
-- a HOT update, so each write added entries to both indexes, through the pending list of each,
-- which every writer appends to under its one metapage lock. The delivery and dispatch jobs are
-- left out of both; River's other jobs (a few a day) stay in. The names stay River's, so that its
-- later migrations find them. River's migrations run before these (postgres.Migrate).
DROP INDEX river_job_args_index;
CREATE INDEX river_job_args_index ON river_job USING GIN (args)
    WHERE kind NOT IN ('event_delivery', 'dispatch_events');
DROP INDEX river_job_metadata_index;
CREATE INDEX river_job_metadata_index ON river_job USING GIN (metadata)
    WHERE kind NOT IN ('event_delivery', 'dispatch_events');

-- +goose Down
DROP INDEX river_job_args_index;
CREATE INDEX river_job_args_index ON river_job USING GIN (args);
DROP INDEX river_job_metadata_index;
CREATE INDEX river_job_metadata_index ON river_job USING GIN (metadata);
