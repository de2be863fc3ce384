-- +goose Up

-- The lifecycle: a company moves a lead between new, contacted, qualified, won and lost. A lead
-- that came in past the monthly limit starts as over_limit and keeps the over_limit flag
-- whatever its status becomes.
ALTER TABLE leads ADD COLUMN over_limit boolean NOT NULL DEFAULT false;
UPDATE leads SET over_limit = true WHERE status = 'over_limit';
ALTER TABLE leads DROP CONSTRAINT leads_status_check;
ALTER TABLE leads ADD CONSTRAINT leads_status_check
    CHECK (status IN ('new', 'over_limit', 'contacted', 'qualified', 'won', 'lost'));

-- What changed on a lead after it was created: a contact detail (its old and new value) or the
-- status, with the time and where the change came from. Nothing about a lead is overwritten
-- without a row here.
CREATE TABLE lead_history (
    id         bigserial PRIMARY KEY,
    company_id uuid NOT NULL,
    lead_id    uuid NOT NULL,
    field      text NOT NULL CHECK (field IN ('first_name', 'last_name', 'email', 'phone', 'status')),
    old_value  text,
    new_value  text,
    origin     text NOT NULL CHECK (origin IN ('form', 'text', 'model', 'api', 'dashboard', 'cli')),
    created_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (lead_id) REFERENCES leads (id) ON DELETE CASCADE
);
CREATE INDEX lead_history_lead ON lead_history (company_id, lead_id, id);

-- A chat turn reads the session, answers outside any transaction, then writes everything in
-- one statement that only applies while the session is still at the version it read: version
-- is what tells a racing turn that it must read again.
ALTER TABLE chat_sessions ADD COLUMN version integer NOT NULL DEFAULT 0;

-- A visitor message may carry the widget's message_id; its retry returns the first answer.
-- The reply row carries the same id, and request_contact as it was answered.
ALTER TABLE chat_messages ADD COLUMN message_id text;
ALTER TABLE chat_messages ADD COLUMN request_contact boolean;
CREATE UNIQUE INDEX chat_messages_message_id ON chat_messages (company_id, session_id, message_id)
    WHERE visitor AND message_id IS NOT NULL;

-- +goose Down
DROP INDEX chat_messages_message_id;
ALTER TABLE chat_messages DROP COLUMN request_contact;
ALTER TABLE chat_messages DROP COLUMN message_id;
ALTER TABLE chat_sessions DROP COLUMN version;
DROP TABLE lead_history;
UPDATE leads SET status = CASE WHEN over_limit THEN 'over_limit' ELSE 'new' END
WHERE status NOT IN ('new', 'over_limit');
ALTER TABLE leads DROP CONSTRAINT leads_status_check;
ALTER TABLE leads ADD CONSTRAINT leads_status_check CHECK (status IN ('new', 'over_limit'));
ALTER TABLE leads DROP COLUMN over_limit;
