-- +goose Up

-- The widget's funnel counts per company and day (UTC): bubbles shown and panels opened.
-- Nothing of a visitor is kept: no address, cookie or session, a number per day only.
CREATE TABLE widget_events (
    company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    day        date NOT NULL,
    shown      bigint NOT NULL DEFAULT 0 CHECK (shown >= 0),
    opened     bigint NOT NULL DEFAULT 0 CHECK (opened >= 0),
    PRIMARY KEY (company_id, day)
);

-- +goose Down
DROP TABLE widget_events;
