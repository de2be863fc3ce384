// Package plan holds the subscription plans, their monthly lead limits and which widget theme
// fields each may use.
package plan

import "fmt"

// Plan is a company's subscription plan.
type Plan string

// The plans, cheapest first.
const (
	Free       Plan = "free"
	Starter    Plan = "starter"
	Pro        Plan = "pro"
	Business   Plan = "business"
	Enterprise Plan = "enterprise"
)

// All lists every plan, cheapest first.
func All() []Plan { return []Plan{Free, Starter, Pro, Business, Enterprise} }

// Parse checks a plan name.
func Parse(s string) (Plan, error) {
	for _, p := range All() {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown plan %q: want one of free, starter, pro, business, enterprise", s)
}

// DefaultLimit is the plan's monthly lead limit; ok is false when the plan has none.
func (p Plan) DefaultLimit() (limit int, ok bool) {
	switch p {
	case Free:
		return 50, true
	case Starter:
		return 250, true
	case Pro:
		return 1000, true
	case Business:
		return 5000, true
	}
	return 0, false
}

// Override is a company's own lead limit, which replaces its plan's when Set.
// Set with a nil Limit means "no limit at all".
type Override struct {
	Set   bool
	Limit *int
}

// LeadLimit is the monthly lead limit that applies to a company, nil when none does.
func LeadLimit(p Plan, o Override) *int {
	if o.Set {
		return o.Limit
	}
	if l, ok := p.DefaultLimit(); ok {
		return &l
	}
	return nil
}

// Theme reports which widget theme fields the plan may use: the primary colour, and the
// white-label fields (accent colour, header title, corner radius, hiding "powered by").
func (p Plan) Theme() (primary, whiteLabel bool) {
	switch p {
	case Pro:
		return true, false
	case Business, Enterprise:
		return true, true
	}
	return false, false
}

// ModelBudget is how many AI model replies a company on the plan gets per UTC day; ok is false
// when there is no cap. Past it the built-in assistant answers.
func (p Plan) ModelBudget() (replies int, ok bool) {
	switch p {
	case Free:
		return 100, true
	case Starter:
		return 500, true
	case Pro:
		return 2000, true
	case Business:
		return 10000, true
	}
	return 0, false
}
