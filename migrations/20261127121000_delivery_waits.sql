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

-- +goose Down
DROP TABLE delivery_waits;
