package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/plan"
)

// Company is a company as the admin commands show it.
type Company struct {
	ID        uuid.UUID     `db:"id" json:"id"`
	Name      string        `db:"name" json:"name"`
	Plan      plan.Plan     `db:"plan" json:"plan"`
	Override  plan.Override `db:"-" json:"-"`
	LeadLimit *int          `db:"-" json:"lead_limit"`
	CreatedAt time.Time     `db:"created_at" json:"created_at"`

	HasLimitOverride  bool `db:"has_limit_override" json:"-"`
	LeadLimitOverride *int `db:"lead_limit_override" json:"-"`
}

func (c *Company) fill() {
	c.Override = plan.Override{Set: c.HasLimitOverride, Limit: c.LeadLimitOverride}
	c.LeadLimit = plan.LeadLimit(c.Plan, c.Override)
}

const insertCompany = `
INSERT INTO companies (id, name, plan, has_limit_override, lead_limit_override)
VALUES ($1, $2, $3, $4, $5)
RETURNING id, name, plan, has_limit_override, lead_limit_override, created_at`

// CreateCompany stores a new company.
func (s *Store) CreateCompany(ctx context.Context, name string, p plan.Plan, o plan.Override) (Company, error) {
	var c Company
	err := s.db.GetContext(ctx, &c, insertCompany, uuid.New(), name, p, o.Set, o.Limit)
	if err != nil {
		return Company{}, translate(err)
	}
	c.fill()
	return c, nil
}

const selectCompany = `
SELECT id, name, plan, has_limit_override, lead_limit_override, created_at
FROM companies WHERE id = $1`

// Company returns one company; errs.NotFound when there is none.
func (s *Store) Company(ctx context.Context, companyID uuid.UUID) (Company, error) {
	var c Company
	if err := s.db.GetContext(ctx, &c, selectCompany, companyID); err != nil {
		return Company{}, translate(err)
	}
	c.fill()
	return c, nil
}

const selectCompanyByName = `
SELECT id, name, plan, has_limit_override, lead_limit_override, created_at
FROM companies WHERE name = $1 ORDER BY created_at LIMIT 1`

// CompanyByName returns the oldest company with that name; errs.NotFound when there is none.
// `leadchat dev` uses it to find its demo company again.
func (s *Store) CompanyByName(ctx context.Context, name string) (Company, error) {
	var c Company
	if err := s.db.GetContext(ctx, &c, selectCompanyByName, name); err != nil {
		return Company{}, translate(err)
	}
	c.fill()
	return c, nil
}
