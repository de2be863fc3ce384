-- +goose Up

-- The deliveries waiting for one of their company's slots: a delivery job that found every
-- slot held puts itself here before River snoozes it, and a job freeing a slot hands it to
-- the company's oldest waiter, making that job available at once. So a company at its bound
-- has its backlog set aside, not fetched again and again, and each slot goes to the next in
-- line as soon as it is free.
CREATE TABLE delivery_waits (
    company_id uuid NOT NULL,
    job_id     bigint NOT NULL,
    PRIMARY KEY (company_id, job_id)
);

-- Every attempt updates a slot row twice, and 64 workers at once would queue for the few pages
-- that hold every company's slots: rows spread a dozen to a page, each update staying on its
-- page (HOT), let them work side by side. (Rows written before take the spread when the table
-- is next rewritten.)
ALTER TABLE delivery_slots SET (fillfactor = 10);

-- +goose Down
ALTER TABLE delivery_slots RESET (fillfactor);
DROP TABLE delivery_waits;
