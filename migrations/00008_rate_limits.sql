-- +goose Up

-- Rate-limit buckets shared by every instance (LEADCHAT_RATE_LIMIT_STORE=postgres): one row per
-- limit and client (or key), holding the tokens left when it was last used. UNLOGGED: a bucket
-- is worth nothing after a crash or on a promoted standby, where it starts full again, so it
-- writes no WAL and is not replicated. No index but the key, so an update can stay on its page
-- (HOT), which the fill factor leaves room for. A row untouched for a minute is a full bucket,
-- the same as no row: the instances delete those every minute.
CREATE UNLOGGED TABLE rate_limit_buckets (
    bucket     bytea PRIMARY KEY,
    tokens     double precision NOT NULL,
    allowed    boolean NOT NULL, -- the last decision, for RETURNING to report
    updated_at timestamptz NOT NULL
) WITH (fillfactor = 70);

-- +goose Down
DROP TABLE rate_limit_buckets;
