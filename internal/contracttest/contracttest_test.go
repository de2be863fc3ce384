package contracttest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestValidatorCatchesWrongResponses proves the checker used by every end-to-end test can fail:
// a server that breaks the contract in each of these ways is caught.
func TestValidatorCatchesWrongResponses(t *testing.T) {
	for _, tt := range []struct {
		name    string
		status  int
		ctype   string
		body    string
		wantErr bool
	}{
		{"a correct 201", 201, "application/json", `{"success": true, "lead_id": "0b7f3c52-5f3e-4c8e-9a7a-0c1d2e3f4a5b", "over_limit": false}`, false},
		{"a correct error", 400, "application/json", `{"error": "Hiányzó kötelező mező: email.", "code": "missing_field"}`, false},
		{"a field missing", 201, "application/json", `{"success": true, "over_limit": false}`, true},
		{"a field of the wrong type", 201, "application/json", `{"success": "yes", "lead_id": "0b7f3c52-5f3e-4c8e-9a7a-0c1d2e3f4a5b", "over_limit": false}`, true},
		{"not a UUID", 201, "application/json", `{"success": true, "lead_id": "42", "over_limit": false}`, true},
		{"an undeclared status", 418, "application/json", `{"error": "x", "code": "teapot"}`, true},
		{"an error without code", 400, "application/json", `{"error": "x"}`, true},
		{"a code the operation does not list", 400, "application/json", `{"error": "x", "code": "invalid_cursor"}`, true},
		{"a listed code under another status", 401, "application/json", `{"error": "x", "code": "missing_field"}`, true},
		{"plain text", 400, "text/plain", `bad request`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			v := New(t, srv.URL)
			req, _ := http.NewRequest("POST", srv.URL+"/api/v1/leads", strings.NewReader(`{}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			err = v.Check(req, resp, []byte(tt.body))
			if (err != nil) != tt.wantErr {
				t.Errorf("Check = %v, want an error: %v", err, tt.wantErr)
			}
		})
	}
}

// CheckRequest says what the contract allows a client to send, whatever the service answers.
func TestCheckRequest(t *testing.T) {
	const base = "http://127.0.0.1:1"
	v := New(t, base)
	for _, tt := range []struct {
		name, method, path, body string
		header                   map[string]string
		ok                       bool
	}{
		{"a lead", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "a@example.hu"}`, nil, true},
		{"a lead without email", "POST", "/api/v1/leads", `{"first_name": "Anna"}`, nil, false},
		{"an empty Idempotency-Key", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "a@example.hu"}`, map[string]string{"Idempotency-Key": ""}, false},
		{"an empty chat message", "POST", "/api/embed/chat", `{"api_key": "k", "message": ""}`, nil, false},
		{"a config call", "GET", "/api/embed/config?api_key=k", "", nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, base+tt.path, strings.NewReader(tt.body))
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			for k, val := range tt.header {
				req.Header[http.CanonicalHeaderKey(k)] = []string{val}
			}
			if err := v.CheckRequest(req, []byte(tt.body)); (err == nil) != tt.ok {
				t.Errorf("CheckRequest = %v, want allowed: %v", err, tt.ok)
			}
		})
	}
}
