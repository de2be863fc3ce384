-- +goose Up

-- The dashboard finds a text anywhere in a lead's names, email, phone, service and note. Walking a
-- company's leads and matching each took seconds on a large company when the text was rare; a
-- trigram index finds the leads that hold it at once. lead_search_text is the one definition of
-- the searched text: the index is built on it and the list's query calls it, so the two match
-- and the planner can use the index. A plain SQL expression of immutable parts, it is inlined
-- into both. (pg_trgm is a trusted extension: the database's owner may create it.)
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- +goose StatementBegin
CREATE FUNCTION lead_search_text(first_name text, last_name text, email text, phone text,
                                 phone_e164 text, service text, details jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '')
        || ' ' || coalesce(phone, '') || ' ' || coalesce(phone_e164, '') || ' ' || coalesce(service, '')
        || ' ' || coalesce(details->>'note', '')
$$;
-- +goose StatementEnd

-- New entries wait in the index's pending list until it is merged in, and every search reads the
-- whole list: 512 kB (the default is 4 MB) keeps a burst of creates from slowing the searches
-- after it, and merging more often costs the creates no more in all.
CREATE INDEX leads_search ON leads USING gin
    (lead_search_text(first_name, last_name, email, phone, phone_e164, service, details) gin_trgm_ops)
    WITH (gin_pending_list_limit = 512);

-- +goose Down
DROP INDEX leads_search;
DROP FUNCTION lead_search_text(text, text, text, text, text, text, jsonb);
DROP EXTENSION pg_trgm;
