-- +goose Up

-- The dashboard's search finds an e-mail address, or its start, and a phone number written from
-- its country code through B-trees on the start of the address (lower case, as the search
-- compares it) and of the E.164 number: a range of either holds just the leads that match, where
-- the trigram index leads_search read every lead's trigrams of "lead", "@ex" or "+3630". The
-- pattern operators let LIKE 'prefix%' use them whatever the database's collation.
CREATE INDEX leads_email_prefix ON leads (company_id, lower(email) text_pattern_ops);
CREATE INDEX leads_phone_prefix ON leads (company_id, phone_e164 text_pattern_ops);

-- +goose Down
DROP INDEX leads_phone_prefix;
DROP INDEX leads_email_prefix;
