-- +goose Up

-- A delivery can be skipped: settled without an attempt because there is nothing to send, as
-- when its lead was erased before the event went out. It is neither delivered nor failed, so it
-- says nothing about the endpoint's health. The new check is added NOT VALID and validated
-- apart, so that the table is not locked against deliveries while its rows are read.
ALTER TABLE event_deliveries DROP CONSTRAINT event_deliveries_state_check;
ALTER TABLE event_deliveries ADD CONSTRAINT event_deliveries_state_check
    CHECK (state IN ('pending', 'delivered', 'failed', 'skipped')) NOT VALID;
ALTER TABLE event_deliveries VALIDATE CONSTRAINT event_deliveries_state_check;

-- +goose Down
ALTER TABLE event_deliveries DROP CONSTRAINT event_deliveries_state_check;
UPDATE event_deliveries SET state = 'failed' WHERE state = 'skipped';
ALTER TABLE event_deliveries ADD CONSTRAINT event_deliveries_state_check
    CHECK (state IN ('pending', 'delivered', 'failed'));
