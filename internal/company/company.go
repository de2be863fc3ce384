// Package company holds what a customer company is to leadchat: a name and a plan, whose
// monthly lead limit the company may override.
package company

import (
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/plan"
)

// Company is one customer; its keys, leads and settings all belong to it.
type Company struct {
	ID       uuid.UUID     `json:"id"`
	Name     string        `json:"name"`
	Plan     plan.Plan     `json:"plan"`
	Override plan.Override `json:"-"`
	// LeadLimit is the monthly lead limit in force, the override's or else the plan's; nil is none.
	LeadLimit *int      `json:"lead_limit"`
	CreatedAt time.Time `json:"created_at"`
}

// New is a company as stored, with its lead limit worked out from its plan and override.
func New(id uuid.UUID, name string, p plan.Plan, o plan.Override, createdAt time.Time) Company {
	return Company{ID: id, Name: name, Plan: p, Override: o, LeadLimit: plan.LeadLimit(p, o), CreatedAt: createdAt}
}
