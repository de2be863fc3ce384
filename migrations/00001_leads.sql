-- +goose Up

-- A company receives leads; its plan sets the default monthly lead limit.
-- has_limit_override distinguishes "plan default" from an explicit override,
-- where a NULL lead_limit_override means "no limit at all".
CREATE TABLE companies (
    id                  uuid PRIMARY KEY,
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    plan                text NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'business', 'enterprise')),
    has_limit_override  boolean NOT NULL DEFAULT false,
    lead_limit_override integer CHECK (lead_limit_override >= 0),
    created_at          timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 hash of a key is stored; prefix is the first characters, shown in listings.
CREATE TABLE api_keys (
    id              uuid PRIMARY KEY,
    company_id      uuid NOT NULL REFERENCES companies (id),
    kind            text NOT NULL CHECK (kind IN ('public', 'private')),
    prefix          text NOT NULL,
    hash            bytea NOT NULL UNIQUE,
    allowed_domains text[] NOT NULL DEFAULT '{}',
    hostname_check  boolean NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now(),
    revoked_at      timestamptz
);
CREATE INDEX api_keys_company ON api_keys (company_id, created_at);

CREATE TABLE leads (
    id            uuid PRIMARY KEY,
    company_id    uuid NOT NULL REFERENCES companies (id),
    first_name    text,
    last_name     text,
    email         text,
    phone         text,
    phone_e164    text,
    service       text,
    details       jsonb,
    source        text NOT NULL CHECK (source IN ('form', 'api', 'chat', 'manual')),
    referral_data jsonb,
    status        text NOT NULL CHECK (status IN ('new', 'over_limit')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX leads_company_created ON leads (company_id, created_at DESC);

-- One row per company and calendar month (UTC). Incrementing it takes the row lock, which is
-- what makes the over-limit decision exact under concurrency.
CREATE TABLE lead_counters (
    company_id uuid NOT NULL REFERENCES companies (id),
    month      date NOT NULL,
    count      integer NOT NULL,
    PRIMARY KEY (company_id, month)
);

-- The first response to an Idempotency-Key, kept 24 hours, written in the same transaction
-- as the lead it describes.
CREATE TABLE idempotency_keys (
    company_id   uuid NOT NULL REFERENCES companies (id),
    key          text NOT NULL,
    request_hash bytea NOT NULL,
    lead_id      uuid NOT NULL,
    over_limit   boolean NOT NULL,
    lead_limit   integer,
    lead_count   integer NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (company_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE lead_counters;
DROP TABLE leads;
DROP TABLE api_keys;
DROP TABLE companies;
