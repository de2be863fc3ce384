-- +goose Up

-- A company's delivery slots: at most as many of its deliveries are attempted at once, across
-- instances, as it has rows here (made on first use). A worker holds a slot for one attempt,
-- until it frees it or, should its process die, until held_until passes.
CREATE TABLE delivery_slots (
    company_id uuid NOT NULL,
    slot       smallint NOT NULL,
    job_id     bigint,
    held_until timestamptz,
    PRIMARY KEY (company_id, slot)
);

-- A new-lead address gets lead e-mails only once confirmed (an owner's own login address is
-- confirmed when it is set). The confirmation link's token is kept only as its SHA-256.
ALTER TABLE notify_emails
    ADD COLUMN confirmed_at timestamptz,
    ADD COLUMN token_hash bytea UNIQUE,
    ADD COLUMN token_sent_at timestamptz;
-- An address stored before confirmations existed is sent its link now (River's table exists
-- already wherever addresses do); until it follows it, it gets no lead e-mail.
-- +goose StatementBegin
DO $$
BEGIN
    IF to_regclass('river_job') IS NOT NULL THEN
        INSERT INTO river_job (kind, queue, max_attempts, args)
        SELECT 'notify_confirm', 'events', 25, jsonb_build_object('company_id', company_id, 'email', email)
        FROM notify_emails;
    END IF;
END $$;
-- +goose StatementEnd

-- New-lead e-mails per company and day (UTC): sent counts against the daily cap; skipped, per
-- address, the leads that address was not mailed about past it, told in the day's digest.
CREATE TABLE lead_mail_days (
    company_id uuid NOT NULL REFERENCES companies (id),
    day        date NOT NULL,
    sent       integer NOT NULL DEFAULT 0,
    PRIMARY KEY (company_id, day)
);
CREATE TABLE lead_mail_skipped (
    company_id   uuid NOT NULL REFERENCES companies (id),
    day          date NOT NULL,
    email        text NOT NULL,
    leads        integer NOT NULL DEFAULT 0,
    digest_at    timestamptz,
    PRIMARY KEY (company_id, day, email)
);
CREATE INDEX lead_mail_skipped_due ON lead_mail_skipped (day) WHERE digest_at IS NULL;

-- +goose Down
DROP TABLE lead_mail_skipped;
DROP TABLE lead_mail_days;
ALTER TABLE notify_emails DROP COLUMN confirmed_at, DROP COLUMN token_hash, DROP COLUMN token_sent_at;
DROP TABLE delivery_slots;
