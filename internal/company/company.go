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
	LeadLimit *int `json:"lead_limit"`
	// RetentionMonths is how many months leads and chats are kept; nil keeps them.
	RetentionMonths *int `json:"retention_months"`
	// RoundRobin gives each new lead to the company's users in turn.
	RoundRobin bool      `json:"round_robin"`
	CreatedAt  time.Time `json:"created_at"`
}

// Changes are what an update of a company sets; nil fields stay as they are.
type Changes struct {
	Name     *string
	Plan     *plan.Plan
	Override *plan.Override
	// Retention, when not nil, sets RetentionMonths.
	Retention *Retention
	// RoundRobin, when not nil, turns the round-robin assignment of new leads on or off.
	RoundRobin *bool
}

// Retention is a change of RetentionMonths: a nil Months keeps everything.
type Retention struct {
	Months *int
}

// MaxRetentionMonths bounds RetentionMonths (a hundred years).
const MaxRetentionMonths = 1200

// New is a company as stored, with its lead limit worked out from its plan and override.
func New(id uuid.UUID, name string, p plan.Plan, o plan.Override, createdAt time.Time) Company {
	return Company{ID: id, Name: name, Plan: p, Override: o, LeadLimit: plan.LeadLimit(p, o), CreatedAt: createdAt}
}

// Usage is what a company used of its plan: leads this calendar month and AI model replies
// today, both in UTC, as the lead limit and the model budget count them.
type Usage struct {
	LeadsThisMonth    int
	ModelRepliesToday int
}
