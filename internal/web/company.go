package web

import (
	"net/http"

	"github.com/leadchat/leadchat/internal/company"
)

// usageData is the usage figures against the plan's limits (nil: no limit).
type usageData struct {
	Company          company.Company
	Leads            int
	LeadLimit        *int
	LeadsOver        bool
	ModelReplies     int
	ModelBudget      *int
	ModelBudgetSpent bool
}

func (d *dashboard) usageOf(r *http.Request, v viewer) (usageData, error) {
	u, err := d.store.CompanyUsage(r.Context(), v.CompanyID)
	if err != nil {
		return usageData{}, err
	}
	data := usageData{Company: v.Company, Leads: u.LeadsThisMonth, LeadLimit: v.Company.LeadLimit, ModelReplies: u.ModelRepliesToday}
	if b, ok := v.Company.Plan.ModelBudget(); ok {
		data.ModelBudget = &b
		data.ModelBudgetSpent = u.ModelRepliesToday >= b
	}
	data.LeadsOver = data.LeadLimit != nil && data.Leads > *data.LeadLimit
	return data, nil
}

// usagePage serves a page of the usage figures.
func (d *dashboard) usagePage(name string) func(http.ResponseWriter, *http.Request, viewer) {
	return func(w http.ResponseWriter, r *http.Request, v viewer) {
		data, err := d.usageOf(r, v)
		if err != nil {
			d.serverError(w, r, err)
			return
		}
		d.render(w, r, http.StatusOK, name, &v, data)
	}
}
