package httpapi

import (
	"net/http"

	"github.com/leadchat/leadchat/gen/api"
)

// leadBinding is the generated strict server with one change: a lead create whose body the
// validator's compiled check took (fastBody) is bound into the generated request type by
// bindLeadInput, not by oapi-codegen's runtime, which walks the type by reflection and asks
// every field whether it decodes itself (a twentieth of a lead create's CPU in profiles).
// Every other request, and a body bindLeadInput does not take, goes to the strict server as
// before. What follows the binding is the generated CreateLead's own steps; the strict server
// is built without strict middlewares, which this path would skip.
type leadBinding struct {
	api.ServerInterface
	s *server
}

// CreateLead binds the validated body by hand when it can, else hands the request to the
// strict server.
func (b leadBinding) CreateLead(w http.ResponseWriter, r *http.Request, params api.CreateLeadParams) {
	vb, ok := r.Body.(*validatedBody)
	if !ok {
		b.ServerInterface.CreateLead(w, r, params)
		return
	}
	m, ok := vb.value.(map[string]any)
	var body api.CreateLeadJSONRequestBody
	if !ok || !bindLeadInput(m, &body) {
		b.ServerInterface.CreateLead(w, r, params)
		return
	}
	resp, err := b.s.CreateLead(r.Context(), api.CreateLeadRequestObject{Params: params, Body: &body})
	switch {
	case err != nil:
		b.s.writeError(w, r, err)
	case resp != nil:
		if err := resp.VisitCreateLeadResponse(w); err != nil {
			b.s.writeError(w, r, err)
		}
	}
}

// bindLeadInput binds m, a body as encoding/json decodes it into an any, into in as
// oapi-codegen's runtime.BindJSONValue binds it: names matched exactly, unknown names ignored,
// null an absent optional value. It reports false, leaving the body to the runtime, for any
// value of a type its field does not take, and for a null where the runtime would keep a
// zero value (a required string, a boolean, a referral value); TestBindLeadInputIsTheRuntimes
// holds the two to each other.
func bindLeadInput(m map[string]any, in *api.LeadInput) bool {
	var out api.LeadInput
	for k, v := range m {
		ok := true
		switch k {
		case "api_key":
			out.ApiKey, ok = optString(v)
		case "first_name":
			out.FirstName, ok = v.(string)
		case "last_name":
			out.LastName, ok = optString(v)
		case "email":
			out.Email, ok = v.(string)
		case "phone":
			out.Phone, ok = optString(v)
		case "service":
			out.Service, ok = optString(v)
		case "details":
			out.Details, ok = optString(v)
		case "source":
			var s *string
			s, ok = optString(v)
			out.Source = (*api.LeadSource)(s)
		case "referral_data":
			out.ReferralData, ok = bindReferralData(v)
		case "consent":
			out.Consent, ok = bindConsent(v)
		}
		if !ok {
			return false
		}
	}
	*in = out
	return true
}

// optString is an optional string's value: nil for null.
func optString(v any) (*string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case string:
		return &v, true
	}
	return nil, false
}

// bindReferralData binds an object of strings; nil for null.
func bindReferralData(v any) (*api.ReferralData, bool) {
	if v == nil {
		return nil, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	rd := make(api.ReferralData, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		rd[k] = s
	}
	return &rd, true
}

// bindConsent binds the consent object; nil for null.
func bindConsent(v any) (*api.ConsentInput, bool) {
	if v == nil {
		return nil, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	var c api.ConsentInput
	for k, v := range m {
		ok := true
		switch k {
		case "marketing":
			c.Marketing, ok = v.(bool)
		case "privacy_url":
			c.PrivacyUrl, ok = optString(v)
		case "text":
			c.Text, ok = optString(v)
		}
		if !ok {
			return nil, false
		}
	}
	return &c, true
}
