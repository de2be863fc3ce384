-- +goose Up

-- One person's leads (the same address, case aside, or the same E.164 number in a company) are
-- found through leads_email_prefix and leads_phone_prefix: a B-tree with text_pattern_ops
-- answers equality as well as a prefix, and holds every lead the partial indexes held. The
-- partial copies only cost each create two more index entries to write.
DROP INDEX leads_company_email;
DROP INDEX leads_company_phone;

-- +goose Down
CREATE INDEX leads_company_email ON leads (company_id, lower(email)) WHERE email IS NOT NULL;
CREATE INDEX leads_company_phone ON leads (company_id, phone_e164) WHERE phone_e164 IS NOT NULL;
