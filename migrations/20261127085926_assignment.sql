-- +goose Up

-- A lead may be given to a user of its company; removing the user leaves it unassigned. The
-- partial index serves both the "mine" list (a user's leads, newest first) and the foreign
-- key's lookup when a user is removed, and costs a create only when the lead is assigned.
ALTER TABLE leads ADD COLUMN assignee_id uuid REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX leads_assignee ON leads (assignee_id, company_id, created_at DESC, id DESC)
    WHERE assignee_id IS NOT NULL;

-- A company may give its new leads to its users in turn.
ALTER TABLE companies ADD COLUMN round_robin boolean NOT NULL DEFAULT false;

-- One person's leads are found by address or phone number within the company, case aside for
-- the address.
CREATE INDEX leads_company_email ON leads (company_id, lower(email)) WHERE email IS NOT NULL;
CREATE INDEX leads_company_phone ON leads (company_id, phone_e164) WHERE phone_e164 IS NOT NULL;

ALTER TABLE lead_history DROP CONSTRAINT lead_history_field_check;
ALTER TABLE lead_history ADD CONSTRAINT lead_history_field_check
    CHECK (field IN ('first_name', 'last_name', 'email', 'phone', 'status', 'service', 'consent', 'assignee'));

-- +goose Down
DELETE FROM lead_history WHERE field = 'assignee';
ALTER TABLE lead_history DROP CONSTRAINT lead_history_field_check;
ALTER TABLE lead_history ADD CONSTRAINT lead_history_field_check
    CHECK (field IN ('first_name', 'last_name', 'email', 'phone', 'status', 'service', 'consent'));
DROP INDEX leads_company_phone;
DROP INDEX leads_company_email;
ALTER TABLE companies DROP COLUMN round_robin;
DROP INDEX leads_assignee;
ALTER TABLE leads DROP COLUMN assignee_id;
