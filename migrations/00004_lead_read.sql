-- +goose Up

-- A company's leads are listed newest first and paged by position: (created_at, id) of the
-- last lead seen, never an offset. With id in the index the next page starts where the index
-- says, however deep, and leads created at the same microsecond keep one order. It replaces
-- leads_company_created, whose every use it serves, so a lead create maintains no more indexes.
CREATE INDEX leads_company_created_id ON leads (company_id, created_at DESC, id DESC);
DROP INDEX leads_company_created;

-- A lead's chat is the session whose lead_id is it: reading a lead, its transcript and erasing
-- it look the session up by the lead. The chat makes a new lead for a session, so a lead has at
-- most one session, which the index holds true and a join of leads to sessions relies on. Most
-- sessions never make a lead, hence partial.
CREATE UNIQUE INDEX chat_sessions_lead ON chat_sessions (company_id, lead_id) WHERE lead_id IS NOT NULL;

-- +goose Down
DROP INDEX chat_sessions_lead;
CREATE INDEX leads_company_created ON leads (company_id, created_at DESC);
DROP INDEX leads_company_created_id;
