-- +goose Up

-- A delivery's row is written by the dispatch and then by each attempt's record, whose changes
-- (state, attempts, the last answer) touch none of its three indexes: with room left on its
-- page the record is a HOT update, a new row version and no index entry. With pages filled by
-- the dispatch a third of the records found none in make bench and added an entry to each
-- index. A fifth of each page is kept for them (several records' worth: a row is ~200 bytes
-- unless an answer is kept).
ALTER TABLE event_deliveries SET (fillfactor = 80);

-- +goose Down

ALTER TABLE event_deliveries RESET (fillfactor);
