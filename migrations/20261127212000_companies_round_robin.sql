-- +goose Up

-- Every statement that stores leads asks which of its companies give leads in turn. Without an
-- index the planner answered by reading the whole companies table on each statement (a few
-- round-robin companies estimated among many); this index holds just the companies with
-- round_robin on, so the question costs a look at them, however many companies there are.
CREATE INDEX companies_round_robin ON companies (id) WHERE round_robin;

-- +goose Down
DROP INDEX companies_round_robin;
