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
	CreatedAt         time.Time `db:"created_at"`
}

func (r companyRow) company() company.Company {
	return company.New(r.ID, r.Name, r.Plan, plan.Override{Set: r.HasLimitOverride, Limit: r.LeadLimitOverride}, r.CreatedAt)
}

const insertCompany = `
INSERT INTO companies (id, name, plan, has_limit_override, lead_limit_override)
VALUES ($1, $2, $3, $4, $5)
RETURNING id, name, plan, has_limit_override, lead_limit_override, created_at`

// CreateCompany stores a new company.
func (s *Store) CreateCompany(ctx context.Context, name string, p plan.Plan, o plan.Override) (company.Company, error) {
	var r companyRow
	if err := s.db.GetContext(ctx, &r, insertCompany, uuid.New(), name, p, o.Set, o.Limit); err != nil {
		return company.Company{}, translate(err)
	}
	return r.company(), nil
}

const selectCompany = `
SELECT id, name, plan, has_limit_override, lead_limit_override, created_at
FROM companies WHERE id = $1`

// Company returns one company; errs.NotFound when there is none.
func (s *Store) Company(ctx context.Context, companyID uuid.UUID) (company.Company, error) {
	var r companyRow
	if err := s.db.GetContext(ctx, &r, selectCompany, companyID); err != nil {
		return company.Company{}, translate(err)
	}
	return r.company(), nil
}

const selectCompanyByName = `
SELECT id, name, plan, has_limit_override, lead_limit_override, created_at
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
