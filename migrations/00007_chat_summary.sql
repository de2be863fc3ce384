-- +goose Up

-- `auto`: the assistant answers each visitor in the language they write (Hungarian or English).
ALTER TABLE widget_settings DROP CONSTRAINT widget_settings_language_check;
ALTER TABLE widget_settings ADD CONSTRAINT widget_settings_language_check
    CHECK (language IN ('hu', 'en', 'auto'));

-- What a conversation is about, kept with the session and written to its lead by the same
-- turn: the profile's service the visitor asked about, a summary of their questions and needs
-- (the lead's details.note), and the language the conversation is in (for `auto`).
ALTER TABLE chat_sessions ADD COLUMN service text;
ALTER TABLE chat_sessions ADD COLUMN note text;
ALTER TABLE chat_sessions ADD COLUMN language text;

-- A chat lead's service changes are history too; its note is not: the note only sums up the
-- conversation, whose messages are kept in full.
ALTER TABLE lead_history DROP CONSTRAINT lead_history_field_check;
ALTER TABLE lead_history ADD CONSTRAINT lead_history_field_check
    CHECK (field IN ('first_name', 'last_name', 'email', 'phone', 'status', 'service'));

-- +goose Down
DELETE FROM lead_history WHERE field = 'service';
ALTER TABLE lead_history DROP CONSTRAINT lead_history_field_check;
ALTER TABLE lead_history ADD CONSTRAINT lead_history_field_check
    CHECK (field IN ('first_name', 'last_name', 'email', 'phone', 'status'));
ALTER TABLE chat_sessions DROP COLUMN language;
ALTER TABLE chat_sessions DROP COLUMN note;
ALTER TABLE chat_sessions DROP COLUMN service;
UPDATE widget_settings SET language = 'hu' WHERE language = 'auto';
ALTER TABLE widget_settings DROP CONSTRAINT widget_settings_language_check;
ALTER TABLE widget_settings ADD CONSTRAINT widget_settings_language_check
    CHECK (language IN ('hu', 'en'));
