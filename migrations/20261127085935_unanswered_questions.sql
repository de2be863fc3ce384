-- +goose Up

-- A visitor message the assistant could not answer from the company's profile and handed over
-- to a colleague. Only visitor messages are flagged; the flag is what a report of the questions
-- the profile lacks counts.
ALTER TABLE chat_messages ADD COLUMN handed_over boolean NOT NULL DEFAULT false;

-- What a conversation showed of the visitor's needs (wishes, topics, the questions answered and
-- those handed over), from which each turn writes the lead's details.note and
-- details.unanswered_questions. It goes with the session, and so with the lead's erasure.
ALTER TABLE chat_sessions ADD COLUMN summary jsonb;

-- +goose Down
ALTER TABLE chat_sessions DROP COLUMN summary;
ALTER TABLE chat_messages DROP COLUMN handed_over;
