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

-- The outbox: a lead event, recorded in the transaction of the change it reports, only when
-- the company has somewhere to send it. lead is the lead's row as the change left it (NULL for
-- lead.erased, and emptied when the lead is erased). No foreign key to leads: lead.erased
-- outlives its lead.
CREATE TABLE lead_events (
    id         uuid PRIMARY KEY,
    company_id uuid NOT NULL REFERENCES companies (id),
    lead_id    uuid NOT NULL,
    type       text NOT NULL CHECK (type IN ('lead.created', 'lead.updated', 'lead.erased')),
    lead       jsonb,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_events_lead ON lead_events (company_id, lead_id);
CREATE INDEX lead_events_created ON lead_events (created_at);

-- One event to one target: a webhook endpoint or an e-mail address. Its id is the webhook-id
-- of every attempt. A River job (kind event_delivery) carries the id and makes the attempts;
-- this row keeps what a person reads: the state, the attempts so far and the last answer.
CREATE TABLE event_deliveries (
    id              uuid PRIMARY KEY,
    company_id      uuid NOT NULL REFERENCES companies (id),
    event_id        uuid NOT NULL REFERENCES lead_events (id) ON DELETE CASCADE,
    endpoint_id     uuid REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
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

-- +goose Down
DROP TABLE event_deliveries;
DROP TABLE lead_events;
DROP TABLE notify_emails;
DROP TABLE webhook_endpoints;
