package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/leadchat/leadchat/gen/api"
)

// A parameter that kin-openapi lets through (it checks no uuid format unless told to) and the
// generated binding refuses gets the same answer as one the validator refuses.
func TestRequestErrorOfParameters(t *testing.T) {
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
