-- +goose Up

-- A lead keeps the id of the chat session that made it, so that reading leads (a list page of
-- fifty, one lead) needs no probe of chat_sessions_lead per lead, a good part of PostgreSQL's
-- work for a list page. chat_sessions.lead_id stays the link every
-- writer sets; the triggers below copy it onto the lead whoever writes it (a chat turn, a
-- test, a bench seed), and clear it when the session goes or names another lead, so the two
-- never disagree. A lead has at most one session (chat_sessions_lead).
ALTER TABLE leads ADD COLUMN session_id text;

UPDATE leads l SET session_id = s.session_id
FROM chat_sessions s
WHERE s.lead_id IS NOT NULL AND l.company_id = s.company_id AND l.id = s.lead_id;

-- +goose StatementBegin
CREATE FUNCTION chat_session_lead() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE leads SET session_id = NULL
        WHERE company_id = OLD.company_id AND id = OLD.lead_id AND session_id = OLD.session_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        UPDATE leads SET session_id = NEW.session_id
        WHERE company_id = NEW.company_id AND id = NEW.lead_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- Only a change of the link runs the function: a chat turn's update of its session, which
-- sets lead_id to what it was, does not.
CREATE TRIGGER chat_sessions_lead_insert AFTER INSERT ON chat_sessions
    FOR EACH ROW WHEN (NEW.lead_id IS NOT NULL) EXECUTE FUNCTION chat_session_lead();
CREATE TRIGGER chat_sessions_lead_update AFTER UPDATE OF lead_id ON chat_sessions
    FOR EACH ROW WHEN (OLD.lead_id IS DISTINCT FROM NEW.lead_id) EXECUTE FUNCTION chat_session_lead();
CREATE TRIGGER chat_sessions_lead_delete AFTER DELETE ON chat_sessions
    FOR EACH ROW WHEN (OLD.lead_id IS NOT NULL) EXECUTE FUNCTION chat_session_lead();

-- +goose Down

DROP TRIGGER chat_sessions_lead_delete ON chat_sessions;
DROP TRIGGER chat_sessions_lead_update ON chat_sessions;
DROP TRIGGER chat_sessions_lead_insert ON chat_sessions;
DROP FUNCTION chat_session_lead();
ALTER TABLE leads DROP COLUMN session_id;
