package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/lead"
)

// A parameter that kin-openapi lets through (it checks no uuid format unless told to) and the
// generated binding refuses gets the same answer as one the validator refuses.
func TestRequestErrorOfParameters(t *testing.T) {
	t.Parallel()
	s := &server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, tc := range []struct {
		param  string
		status int
		code   api.ErrorCode
	}{
		{"lead_id", 404, api.ErrorCodeLeadNotFound},
		{"since", 400, api.ErrorCodeInvalidField},
		{"cursor", 400, api.ErrorCodeInvalidCursor},
		{"status", 400, api.ErrorCodeInvalidStatus},
	} {
		t.Run(tc.param, func(t *testing.T) {
			w := httptest.NewRecorder()
			s.requestError(w, httptest.NewRequest("GET", "/api/v1/leads/x", nil),
				&api.InvalidParamFormatError{ParamName: tc.param, Err: errors.New("bad")})
			var body api.Error
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != tc.status || body.Code != tc.code {
				t.Errorf("got %d %s (%v), want %d %s", w.Code, body.Code, err, tc.status, tc.code)
			}
		})
	}
}

// The contract's statuses are the domain's: every LeadStatus is one a lead can have, and the
// lifecycle enum of updateLead is exactly the statuses a company may move a lead to.
func TestLeadStatusesAreTheContracts(t *testing.T) {
	t.Parallel()
	doc := spec(t)
	values := func(schema string) []string {
		var out []string
		for _, v := range doc.Components.Schemas[schema].Value.Enum {
			out = append(out, v.(string))
		}
		return out
	}
	all, lifecycle := values("LeadStatus"), values("LeadLifecycleStatus")
	for _, v := range all {
		st := lead.Status(v)
		if !st.Valid() {
			t.Errorf("the contract's status %s is not one the domain knows", v)
		}
		if st.Lifecycle() != slices.Contains(lifecycle, v) {
			t.Errorf("%s: the domain says lifecycle %v, the contract's LeadLifecycleStatus the opposite", v, st.Lifecycle())
		}
	}
	for _, v := range lifecycle {
		if !slices.Contains(all, v) {
			t.Errorf("lifecycle status %s is not a LeadStatus", v)
		}
	}
}
