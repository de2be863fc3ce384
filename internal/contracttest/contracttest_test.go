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

// The webhook validator refuses a message that breaks x-webhooks: a wrong type, a missing
// signature, data of the wrong shape.
func TestWebhooksValidatorCatchesWrongMessages(t *testing.T) {
	w := NewWebhooks(t)
	lead := `{"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10","status":"new","over_limit":false,"first_name":"Anna",
		"last_name":null,"email":null,"phone":null,"phone_e164":null,"service":null,"details":null,"source":"api",
		"referral_data":null,"consent":null,"session_id":null,"assignee_id":null,"created_at":"2026-03-02T09:15:04Z","updated_at":"2026-03-02T09:15:04Z"}`
	good := http.Header{"Content-Type": {"application/json"}, "Webhook-Id": {"01a20ac5-eceb-7068-9f89-ccef24c54558"},
		"Webhook-Timestamp": {"1772442904"}, "Webhook-Signature": {"v1,c2lnbmF0dXJl v1,b2xk"}}
	cases := []struct {
		name   string
		header http.Header
		body   string
		ok     bool
	}{
		{"a lead.created", good, `{"type":"lead.created","timestamp":"2026-03-02T09:15:04.5Z","data":{"lead":` + lead + `}}`, true},
		{"a lead.erased", good, `{"type":"lead.erased","timestamp":"2026-03-02T09:15:04Z","data":{"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10"}}`, true},
		{"an unknown type", good, `{"type":"lead.deleted","timestamp":"2026-03-02T09:15:04Z","data":{"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10"}}`, false},
		{"no signature", http.Header{"Content-Type": {"application/json"}, "Webhook-Id": {"01a20ac5-eceb-7068-9f89-ccef24c54558"}, "Webhook-Timestamp": {"1772442904"}},
			`{"type":"lead.erased","timestamp":"2026-03-02T09:15:04Z","data":{"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10"}}`, false},
		{"personal data beside an erasure", good, `{"type":"lead.erased","timestamp":"2026-03-02T09:15:04Z","data":{"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10","email":"a@b.hu"}}`, false},
		{"a lead missing a field", good, `{"type":"lead.created","timestamp":"2026-03-02T09:15:04Z","data":{"lead":{"lead_id":"0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10"}}}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "http://hooks.example.com/leadchat", nil)
			req.Header = c.header
			err := w.Check("lead-event", req, []byte(c.body))
			if (err == nil) != c.ok {
				t.Errorf("Check = %v, want ok %v", err, c.ok)
			}
		})
	}
}
