-- +goose Up

-- A lead's company is checked by the statement that stores it, not by a foreign key of its own.
-- insertLeads, the one statement that stores leads, counts each lead in its company's row of
-- lead_counters in the same statement; that row's foreign key refuses a company that does not
-- exist when the month's first lead inserts it, and, kept without a cascade and never deleted,
-- it keeps any company that ever had a lead from being deleted. The key of leads itself checked
-- the same company again for every lead of a group, locking the company's row each time.
ALTER TABLE leads DROP CONSTRAINT leads_company_id_fkey;

-- +goose Down
ALTER TABLE leads ADD CONSTRAINT leads_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies (id);
