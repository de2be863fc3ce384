package httpapi

import (
	"context"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// The paths of one lead, by gorilla path template; the list is pathLeads with GET.
const (
	pathLead         = "/api/v1/leads/{lead_id}"
	pathLeadMessages = "/api/v1/leads/{lead_id}/messages"
)

// readsLeads reports whether a request reads or changes stored leads: the calls that take a
// private key only, and count against the key's budget for them.
func readsLeads(method, path string) bool {
	return path == pathLead || path == pathLeadMessages || (path == pathLeads && method == "GET")
}

// privateOnly refuses a public key on the calls that read or change stored leads, before any
// origin rule: whoever holds a public key may not read a company's leads from anywhere.
func privateOnly(p auth.Principal, method, path string) error {
	if readsLeads(method, path) && p.Kind != auth.Private {
		return errs.E(errs.Forbidden, errs.CodePrivateKeyRequired)
	}
	return nil
}

// company is the key's company; authenticate has put the principal there for every lead path.
func company(ctx context.Context) (auth.Principal, error) {
	p, ok := principal(ctx)
	if !ok {
		return auth.Principal{}, errs.Internalf("lead call without a principal")
	}
	return p, nil
}

// ListLeads answers one page of the company's leads.
func (s *server) ListLeads(ctx context.Context, req api.ListLeadsRequestObject) (api.ListLeadsResponseObject, error) {
	p, err := company(ctx)
	if err != nil {
		return nil, err
	}
	q := req.Params
	var f lead.Filter
	if q.Limit != nil {
		f.Limit = *q.Limit
	}
	if q.Status != nil {
		f.Status = lead.Status(*q.Status)
	}
	if q.Source != nil {
		f.Source = lead.Source(*q.Source)
	}
	if q.Since != nil {
		f.Since = *q.Since
	}
	if q.Until != nil {
		f.Until = *q.Until
	}
	if q.Email != nil {
		f.Email = *q.Email
	}
	if q.Cursor != nil {
		c, err := lead.ParseCursor(*q.Cursor, f)
		if err != nil {
			return nil, err
		}
		f.After = &c
	}
	page, err := s.leads.ListLeads(ctx, p.CompanyID, f)
	if err != nil {
		return nil, err
	}
	return leadListJSON{page: &page, filter: f, buffers: &s.bodies}, nil
}

// GetLead answers one of the company's leads.
func (s *server) GetLead(ctx context.Context, req api.GetLeadRequestObject) (api.GetLeadResponseObject, error) {
	p, err := company(ctx)
	if err != nil {
		return nil, err
	}
	l, err := s.leads.GetLead(ctx, p.CompanyID, req.LeadId)
	if err != nil {
		return nil, err
	}
	return leadJSON{&l}, nil
}

// ListLeadMessages answers the transcript of the chat that made a lead.
func (s *server) ListLeadMessages(ctx context.Context, req api.ListLeadMessagesRequestObject) (api.ListLeadMessagesResponseObject, error) {
	p, err := company(ctx)
	if err != nil {
		return nil, err
	}
	msgs, err := s.leads.LeadMessages(ctx, p.CompanyID, req.LeadId)
	if err != nil {
		return nil, err
	}
	body := api.LeadMessages{Data: make([]api.LeadMessage, len(msgs))}
	for i, m := range msgs {
		body.Data[i] = api.LeadMessage{Role: api.LeadMessageRole(m.Role()), Text: m.Text, CreatedAt: m.At.UTC()}
		if m.AgentName != "" {
			body.Data[i].AgentName = &m.AgentName
		}
	}
	return api.ListLeadMessages200JSONResponse{Body: body}, nil
}

// UpdateLead moves a lead to a lifecycle status, gives it to a user of the company or to
// nobody, or both, recorded with origin api, and answers the lead as it now is.
func (s *server) UpdateLead(ctx context.Context, req api.UpdateLeadRequestObject) (api.UpdateLeadResponseObject, error) {
	p, err := company(ctx)
	if err != nil {
		return nil, err
	}
	if req.Body == nil {
		return nil, errs.E(errs.Invalid, errs.CodeInvalidJSON)
	}
	var u lead.Update
	if req.Body.Status != nil {
		u.Status = lead.Status(*req.Body.Status)
		if u.Status == "" {
			return nil, errs.Field(errs.CodeInvalidStatus, "status")
		}
	}
	if a := req.Body.AssigneeId; a.IsSpecified() {
		u.Assign = true
		if !a.IsNull() {
			id, err := uuid.Parse(a.MustGet())
			if err != nil || id == uuid.Nil {
				return nil, errs.Field(errs.CodeInvalidAssignee, "assignee_id")
			}
			u.Assignee = id
		}
	}
	if err := s.leads.UpdateLead(ctx, p.CompanyID, req.LeadId, u, lead.OriginAPI); err != nil {
		return nil, err
	}
	l, err := s.leads.GetLead(ctx, p.CompanyID, req.LeadId)
	if err != nil {
		return nil, err
	}
	return leadJSON{&l}, nil
}

// DeleteLead erases a lead.
func (s *server) DeleteLead(ctx context.Context, req api.DeleteLeadRequestObject) (api.DeleteLeadResponseObject, error) {
	p, err := company(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.leads.DeleteLead(ctx, p.CompanyID, req.LeadId); err != nil {
		return nil, err
	}
	return api.DeleteLead204Response{}, nil
}

func (s *server) PreflightLead(context.Context, api.PreflightLeadRequestObject) (api.PreflightLeadResponseObject, error) {
	return api.PreflightLead204Response{}, nil
}

func (s *server) PreflightLeadMessages(context.Context, api.PreflightLeadMessagesRequestObject) (api.PreflightLeadMessagesResponseObject, error) {
	return api.PreflightLeadMessages204Response{}, nil
}
