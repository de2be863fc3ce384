package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/plan"
)

// companyRow is a row of companies.
type companyRow struct {
	ID                uuid.UUID `db:"id"`
	Name              string    `db:"name"`
	Plan              plan.Plan `db:"plan"`
	HasLimitOverride  bool      `db:"has_limit_override"`
	LeadLimitOverride *int      `db:"lead_limit_override"`
	RetentionMonths   *int      `db:"retention_months"`
	RoundRobin        bool      `db:"round_robin"`
	CreatedAt         time.Time `db:"created_at"`
}

func (r companyRow) company() company.Company {
	c := company.New(r.ID, r.Name, r.Plan, plan.Override{Set: r.HasLimitOverride, Limit: r.LeadLimitOverride}, r.CreatedAt)
	c.RetentionMonths = r.RetentionMonths
	c.RoundRobin = r.RoundRobin
	return c
}

const companyColumns = `id, name, plan, has_limit_override, lead_limit_override, retention_months, round_robin, created_at`

const insertCompany = `
INSERT INTO companies (id, name, plan, has_limit_override, lead_limit_override)
VALUES ($1, $2, $3, $4, $5)
RETURNING ` + companyColumns

// CreateCompany stores a new company.
func (s *Store) CreateCompany(ctx context.Context, name string, p plan.Plan, o plan.Override) (company.Company, error) {
	var r companyRow
	if err := s.db.GetContext(ctx, &r, insertCompany, uuid.New(), name, p, o.Set, o.Limit); err != nil {
		return company.Company{}, translate(err)
	}
	return r.company(), nil
}

const selectCompany = `
SELECT ` + companyColumns + `
FROM companies WHERE id = $1`

// Company returns one company; errs.NotFound when there is none.
func (s *Store) Company(ctx context.Context, companyID uuid.UUID) (company.Company, error) {
	var r companyRow
	if err := (runner{s: s}).get(ctx, &r, selectCompany, companyID); err != nil {
		return company.Company{}, translate(err)
	}
	return r.company(), nil
}

const selectCompanyByName = `
SELECT ` + companyColumns + `
FROM companies WHERE name = $1 ORDER BY created_at LIMIT 1`

// CompanyByName returns the oldest company with that name; errs.NotFound when there is none.
// `leadchat dev` uses it to find its demo company again.
func (s *Store) CompanyByName(ctx context.Context, name string) (company.Company, error) {
	var r companyRow
	if err := s.db.GetContext(ctx, &r, selectCompanyByName, name); err != nil {
		return company.Company{}, translate(err)
	}
	return r.company(), nil
}

const selectCompanies = `SELECT ` + companyColumns + ` FROM companies ORDER BY created_at, id`

// Companies lists every company, oldest first (the operator's `company list`).
func (s *Store) Companies(ctx context.Context) ([]company.Company, error) {
	var rows []companyRow
	if err := s.db.SelectContext(ctx, &rows, selectCompanies); err != nil {
		return nil, translate(err)
	}
	out := make([]company.Company, len(rows))
	for i, r := range rows {
		out[i] = r.company()
	}
	return out, nil
}

// The update and its notification commit together: a key's cached principal carries the
// company's plan and lead limit, so every instance drops its cached keys at once.
const updateCompany = `
WITH updated AS (
    UPDATE companies SET
        name = coalesce($2, name),
        plan = coalesce($3, plan),
        has_limit_override = CASE WHEN $4 THEN $5 ELSE has_limit_override END,
        lead_limit_override = CASE WHEN $4 THEN $6::int ELSE lead_limit_override END,
        retention_months = CASE WHEN $7 THEN $8::int ELSE retention_months END,
        round_robin = coalesce($9, round_robin)
    WHERE id = $1
    RETURNING ` + companyColumns + `
)
SELECT updated.*, pg_notify('` + cacheChannel + `', 'keys') IS NULL AS notified FROM updated`

// UpdateCompany applies changes to a company; errs.NotFound when there is none.
func (s *Store) UpdateCompany(ctx context.Context, companyID uuid.UUID, ch company.Changes) (company.Company, error) {
	var o plan.Override
	if ch.Override != nil {
		o = *ch.Override
	}
	var months *int
	if ch.Retention != nil {
		months = ch.Retention.Months
	}
	var row struct {
		companyRow
		Notified bool `db:"notified"`
	}
	err := s.db.GetContext(ctx, &row, updateCompany, companyID, ch.Name, ch.Plan, ch.Override != nil, o.Set, o.Limit,
		ch.Retention != nil, months, ch.RoundRobin)
	if err != nil {
		return company.Company{}, translate(err)
	}
	return row.company(), nil
}

const selectUsage = `
SELECT coalesce((SELECT count FROM lead_counters
                 WHERE company_id = $1 AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0) AS leads,
       coalesce((SELECT replies FROM model_usage
                 WHERE company_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date), 0) AS replies`

// CompanyUsage returns a company's usage.
func (s *Store) CompanyUsage(ctx context.Context, companyID uuid.UUID) (company.Usage, error) {
	var u struct {
		Leads   int `db:"leads"`
		Replies int `db:"replies"`
	}
	err := s.db.GetContext(ctx, &u, selectUsage, companyID)
	return company.Usage{LeadsThisMonth: u.Leads, ModelRepliesToday: u.Replies}, translate(err)
}
