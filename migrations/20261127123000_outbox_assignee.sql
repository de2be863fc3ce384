-- +goose Up

-- The user a change gave the lead to (a new lead given round-robin, or a lead assigned by hand),
-- kept with the change's event until it is dispatched: that user gets the lead's new-lead e-mail.
-- The dispatch reads it from the outbox only, so lead_events needs no copy.
ALTER TABLE event_outbox ADD COLUMN assignee uuid;

-- +goose Down
ALTER TABLE event_outbox DROP COLUMN assignee;
