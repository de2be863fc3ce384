-- +goose Up

-- Internal notes on a lead, kept with it and erased with it. The author's address is kept as
-- it was, so a note still says who wrote it after the user is removed.
CREATE TABLE lead_notes (
    id           bigserial PRIMARY KEY,
    company_id   uuid NOT NULL,
    lead_id      uuid NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
    author_id    uuid REFERENCES users (id) ON DELETE SET NULL,
    author_email text NOT NULL,
    body         text NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_notes_lead ON lead_notes (company_id, lead_id, id);
CREATE INDEX lead_notes_author ON lead_notes (author_id) WHERE author_id IS NOT NULL;

-- +goose Down
DROP TABLE lead_notes;
