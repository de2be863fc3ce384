-- +goose Up

-- The widget links the company's privacy notice beside its contact form and, when a marketing
-- consent text is set, shows it as an unticked checkbox.
ALTER TABLE widget_settings ADD COLUMN privacy_url text;
ALTER TABLE widget_settings ADD COLUMN marketing_consent_text text;

-- What the visitor agreed to when leaving the details: the text shown, whether the marketing
-- box was ticked, the notice linked, and the server's time and the source of the record.
ALTER TABLE leads ADD COLUMN consent jsonb;

-- A later consent (a chat turn that sends a new one) replaces the earlier one; the change is
-- kept in the lead's history.
ALTER TABLE lead_history DROP CONSTRAINT lead_history_field_check;
ALTER TABLE lead_history ADD CONSTRAINT lead_history_field_check
    CHECK (field IN ('first_name', 'last_name', 'email', 'phone', 'status', 'service', 'consent'));

-- +goose Down
DELETE FROM lead_history WHERE field = 'consent';
ALTER TABLE lead_history DROP CONSTRAINT lead_history_field_check;
ALTER TABLE lead_history ADD CONSTRAINT lead_history_field_check
    CHECK (field IN ('first_name', 'last_name', 'email', 'phone', 'status', 'service'));
ALTER TABLE leads DROP COLUMN consent;
ALTER TABLE widget_settings DROP COLUMN marketing_consent_text;
ALTER TABLE widget_settings DROP COLUMN privacy_url;
