-- +goose Up

-- Where a company's lead events go: webhook endpoints, and the addresses that get an e-mail
-- for each new lead. River's own tables (river_job and the rest) are created by rivermigrate in
-- the same migration step, after these.

-- A webhook endpoint. events lists the event types it receives, empty for all. The secret is
-- the Standard Webhooks whsec_ string; after a rotation the previous secret keeps signing
-- beside the new one until previous_secret_until. A 410 answer disables the endpoint.
CREATE TABLE webhook_endpoints (
    id                    uuid PRIMARY KEY,
    company_id            uuid NOT NULL REFERENCES companies (id),
    url                   text NOT NULL,
    events                text[] NOT NULL DEFAULT '{}',
    secret                text NOT NULL,
    previous_secret       text,
    previous_secret_until timestamptz,
    disabled_at           timestamptz,
    disabled_reason       text,
    created_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_company ON webhook_endpoints (company_id, created_at);

-- The addresses that get the new-lead e-mail.
CREATE TABLE notify_emails (
    company_id uuid NOT NULL REFERENCES companies (id),
    email      text NOT NULL,
    PRIMARY KEY (company_id, email)
);

-- A time-ordered UUID (version 7: milliseconds since 1970, then random bits) for the outbox's
-- rows, so their index entries land at the end of the index instead of on random pages (which
-- after each checkpoint would write each touched page whole to the WAL).
CREATE FUNCTION outbox_id() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING
        substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;

-- The outbox: a lead event, recorded in the transaction of the change it reports, only when
-- the company has somewhere to send it. It holds no copy of the lead: a delivery sends the lead
-- as it is then, so an erased lead leaves nothing personal behind in the outbox. No foreign key
-- to leads: lead.erased outlives its lead. The outbox's rows are written with every lead
-- change, so they carry no foreign keys at all (each would cost a lookup and a row lock per row
-- written) and no index but their time-ordered key: the statements that write them take every
-- id from the rows they reference, and removing an endpoint or purging old events deletes the
-- rows that refer to them.
CREATE TABLE lead_events (
    id         uuid PRIMARY KEY,
    company_id uuid NOT NULL,
    lead_id    uuid NOT NULL,
    type       text NOT NULL CHECK (type IN ('lead.created', 'lead.updated', 'lead.erased')),
    dispatched boolean NOT NULL DEFAULT false, -- its deliveries are made
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One event to one target: a webhook endpoint or an e-mail address. Its id is the webhook-id
-- of every attempt. A River job (kind event_delivery) carries the id and makes the attempts;
-- this row keeps what a person reads: the state, the attempts so far and the last answer.
CREATE TABLE event_deliveries (
    id              uuid PRIMARY KEY,
    company_id      uuid NOT NULL,
    event_id        uuid NOT NULL,
    endpoint_id     uuid,
    email           text,
    state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    last_status     integer,
    last_error      text,
    last_response   text,
    last_attempt_at timestamptz,
    next_attempt_at timestamptz,
    delivered_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((endpoint_id IS NULL) <> (email IS NULL))
);
CREATE INDEX event_deliveries_endpoint ON event_deliveries (company_id, endpoint_id, created_at DESC)
    WHERE endpoint_id IS NOT NULL;
CREATE INDEX event_deliveries_event ON event_deliveries (event_id);

-- A delivery reads the chat session of its event's lead through chat_sessions_lead (00004).

-- +goose Down
DROP TABLE event_deliveries;
DROP TABLE lead_events;
DROP TABLE notify_emails;
DROP TABLE webhook_endpoints;
DROP FUNCTION outbox_id;
