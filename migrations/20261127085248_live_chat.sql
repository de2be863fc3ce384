-- +goose Up

-- A person of the company may write in a conversation: their messages are chat messages that
-- name the user (agent_id, NULL once the user is deleted) and carry the name the visitor was
-- shown (agent_name), which also marks the row as a person's rather than the assistant's.
ALTER TABLE chat_messages ADD COLUMN agent_id uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE chat_messages ADD COLUMN agent_name text;
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_agent_check
    CHECK (agent_name IS NULL OR NOT visitor);

-- Who has taken the conversation over from the assistant (NULL: the assistant answers), since
-- when the oldest visitor message has waited for that person, and the newest message the
-- company's people have seen (for unread counts).
ALTER TABLE chat_sessions ADD COLUMN agent_id uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE chat_sessions ADD COLUMN waiting_since timestamptz;
ALTER TABLE chat_sessions ADD COLUMN seen_id bigint NOT NULL DEFAULT 0;
-- The job that gives waiting conversations back to the assistant reads only these.
CREATE INDEX chat_sessions_waiting ON chat_sessions (waiting_since) WHERE waiting_since IS NOT NULL;
-- The dashboard lists a company's conversations of the last day, newest first.
CREATE INDEX chat_sessions_active ON chat_sessions (company_id, updated_at);

-- The people of a company who have the dashboard's conversations open, on any instance, each
-- until a moment their page renews while it stays open: the visitor is told someone is online.
CREATE TABLE chat_presence (
    company_id uuid NOT NULL REFERENCES companies (id),
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    until      timestamptz NOT NULL,
    PRIMARY KEY (company_id, user_id)
);

-- Every instance learns of every new chat message: the payload is the message id, the company
-- id and the session id, and a stream reads the row itself. NOTIFY is sent at commit, so a
-- message is announced only once it can be read.
-- +goose StatementBegin
CREATE FUNCTION chat_message_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('leadchat_chat', NEW.id || ' ' || NEW.company_id || ' ' || NEW.session_id);
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER chat_messages_notify AFTER INSERT ON chat_messages
    FOR EACH ROW EXECUTE FUNCTION chat_message_notify();

-- +goose Down
DROP TABLE chat_presence;
DROP TRIGGER chat_messages_notify ON chat_messages;
DROP FUNCTION chat_message_notify();
DROP INDEX chat_sessions_active;
DROP INDEX chat_sessions_waiting;
ALTER TABLE chat_sessions DROP COLUMN seen_id;
ALTER TABLE chat_sessions DROP COLUMN waiting_since;
ALTER TABLE chat_sessions DROP COLUMN agent_id;
DELETE FROM chat_messages WHERE agent_name IS NOT NULL;
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_agent_check;
ALTER TABLE chat_messages DROP COLUMN agent_name;
ALTER TABLE chat_messages DROP COLUMN agent_id;
