package httpapi

import (
	"context"
	"crypto/sha256"
	"net/http"
	"strconv"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
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
	return leadCreatedJSON(created), nil
}

// leadCreatedJSON is CreateLead's 201, written byte for byte as the generated
// api.CreateLead201JSONResponse writes it (TestLeadCreatedJSONIsTheGenerated), without an encoder,
// a buffer and a formatted header value each.
type leadCreatedJSON lead.Created

func (r leadCreatedJSON) VisitCreateLeadResponse(w http.ResponseWriter) error {
	h := w.Header()
	if r.Replayed {
		h["Idempotent-Replayed"] = []string{"true"}
	}
	if r.Limit != nil {
		h["X-Lead-Count"] = []string{strconv.Itoa(r.Count)}
		h["X-Lead-Limit"] = []string{strconv.Itoa(*r.Limit)}
	}
	b := make([]byte, 0, 96)
	b = append(b, `{"lead_id":"`...)
	b = leadjson.AppendUUID(b, r.ID)
	b = append(b, `","over_limit":`...)
	b = strconv.AppendBool(b, r.OverLimit)
	b = append(b, ",\"success\":true}\n"...)
	return writeJSONStatus(w, http.StatusCreated, b)
}

// consentInput is the consent a request carries, nil when it carries none.
func consentInput(c *api.ConsentInput) *lead.ConsentInput {
	if c == nil {
		return nil
	}
	return &lead.ConsentInput{Marketing: c.Marketing, Text: c.Text, PrivacyURL: c.PrivacyUrl}
}
