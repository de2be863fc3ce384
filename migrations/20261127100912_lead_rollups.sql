-- +goose Up

-- Leads received per company, Budapest day and source, and per referral value (utm_source,
-- landing_page), kept by the statement that stores leads: the overview reads a row per day
-- instead of scanning the period's leads. A count keeps a lead that is later erased, as the
-- month's count does: it was received. value_key is the value's MD5, which keeps the key short
-- whatever the value's length.
CREATE TABLE lead_daily (
    company_id uuid NOT NULL,
    day        date NOT NULL,
    source     text NOT NULL,
    count      integer NOT NULL,
    PRIMARY KEY (company_id, day, source)
);
CREATE TABLE lead_referral_daily (
    company_id uuid NOT NULL,
    day        date NOT NULL,
    key        text NOT NULL,
    value_key  uuid NOT NULL,
    value      text NOT NULL,
    count      integer NOT NULL,
    PRIMARY KEY (company_id, day, key, value_key)
);
INSERT INTO lead_daily (company_id, day, source, count)
SELECT company_id, (created_at AT TIME ZONE 'Europe/Budapest')::date, source, count(*)
FROM leads GROUP BY 1, 2, 3;
INSERT INTO lead_referral_daily (company_id, day, key, value_key, value, count)
SELECT l.company_id, (l.created_at AT TIME ZONE 'Europe/Budapest')::date, k, md5(l.referral_data->>k)::uuid,
       l.referral_data->>k, count(*)
FROM leads l, unnest(ARRAY['utm_source', 'landing_page']) AS k
WHERE l.referral_data->>k <> ''
GROUP BY 1, 2, 3, 4, 5;

-- +goose Down
DROP TABLE lead_referral_daily;
DROP TABLE lead_daily;
