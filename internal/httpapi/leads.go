package httpapi

import (
	"context"
	"crypto/sha256"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// CreateLead stores a lead for the key's company, counting it against the monthly limit.
func (s *server) CreateLead(ctx context.Context, req api.CreateLeadRequestObject) (api.CreateLeadResponseObject, error) {
	p, ok := principal(ctx)
	if !ok {
		return nil, errs.Internalf("create lead without a principal")
	}
	b := req.Body
	in := lead.Input{
		FirstName: b.FirstName, LastName: b.LastName, Email: b.Email, Phone: b.Phone,
		Service: b.Service, Details: b.Details, Source: (*string)(b.Source),
	}
	if b.ReferralData != nil {
		in.ReferralData = *b.ReferralData
	}
	in.Consent = consentInput(b.Consent)
	l, err := in.Check()
	if err != nil {
		return nil, err
	}
	var idem *lead.Idempotency
	if k := req.Params.IdempotencyKey; k != nil {
		if !validIdempotencyKey(*k) {
			return nil, errs.E(errs.Invalid, errs.CodeInvalidIdempotencyKey)
		}
		idem = &lead.Idempotency{Key: *k, RequestHash: sha256.Sum256(rawBody(ctx))}
	}
	created, err := s.leads.CreateLead(ctx, p.CompanyID, l, p.LeadLimit, idem)
	if err != nil {
		return nil, err
	}
	if !created.Replayed {
		s.metrics.LeadCreated(string(l.Source), created.OverLimit)
	}
	resp := api.CreateLead201JSONResponse{Body: api.LeadCreated{
		Success: true, LeadId: created.ID, OverLimit: created.OverLimit,
	}}
	if created.Limit != nil {
		resp.Headers.XLeadLimit = created.Limit
		resp.Headers.XLeadCount = &created.Count
	}
	if created.Replayed {
		replayed := "true"
		resp.Headers.IdempotentReplayed = &replayed
	}
	return resp, nil
}

// consentInput is the consent a request carries, nil when it carries none.
func consentInput(c *api.ConsentInput) *lead.ConsentInput {
	if c == nil {
		return nil
	}
	return &lead.ConsentInput{Marketing: c.Marketing, Text: c.Text, PrivacyURL: c.PrivacyUrl}
}
