package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/contracttest"
	"github.com/leadchat/leadchat/internal/plan"
)

// The contract refuses exactly the requests the service refuses for their form, with the code
// the table of codes gives: a field with a code of its own answers that code whatever part of
// its schema it breaks, an empty required value is refused by both, and a key of any length is
// the contract's to send and the service's to answer 401.
func TestContractAndServiceAgreeOnRequests(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	priv := e.key(c, auth.Private, nil, true).Key
	pub := e.key(c, auth.Public, nil, true).Key
	spec := contracttest.New(t, e.base)
	longKey := func(k string, n int) string { return k + strings.Repeat("x", n-len(k)) }
	privHeader := map[string]string{"X-Api-Key": priv}

	for _, tt := range []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		code                     string
		specAllows               bool
	}{
		{"lead email not a string", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": ["a@example.hu"]}`, privHeader, 400, "invalid_email", false},
		{"lead email of 255 characters", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "` + strings.Repeat("a", 244) + `@example.hu"}`, privHeader, 400, "invalid_email", false},
		{"lead email null", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": null}`, privHeader, 400, "invalid_email", false},
		{"lead email empty", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": ""}`, privHeader, 400, "missing_field", false},
		{"lead phone of 51 characters", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "a@example.hu", "phone": "+36 30 123 4567` + strings.Repeat(" ", 36) + `"}`, privHeader, 400, "invalid_phone", false},
		{"lead phone a number", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "a@example.hu", "phone": 36301234567}`, privHeader, 400, "invalid_phone", false},
		{"lead source a number", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "a@example.hu", "source": 7}`, privHeader, 400, "invalid_source", false},
		{"lead first_name a number", "POST", "/api/v1/leads", `{"first_name": 7, "email": "a@example.hu"}`, privHeader, 400, "invalid_field", false},
		{"lead first_name empty", "POST", "/api/v1/leads", `{"first_name": "", "email": "a@example.hu"}`, privHeader, 400, "missing_field", false},
		{"lead empty Idempotency-Key", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "a@example.hu"}`, map[string]string{"X-Api-Key": priv, "Idempotency-Key": ""}, 400, "invalid_idempotency_key", false},
		{"lead body key of 201 characters", "POST", "/api/v1/leads", `{"api_key": "` + longKey(priv, 201) + `", "first_name": "Anna", "email": "a@example.hu"}`, nil, 401, "invalid_api_key", true},
		{"lead body key of 5,000 characters", "POST", "/api/v1/leads", `{"api_key": "` + longKey(priv, 5000) + `", "first_name": "Anna", "email": "a@example.hu"}`, nil, 401, "invalid_api_key", true},
		{"lead header key of 201 characters", "POST", "/api/v1/leads", `{"first_name": "Anna", "email": "a@example.hu"}`, map[string]string{"X-Api-Key": longKey(priv, 201)}, 401, "invalid_api_key", true},
		{"chat message empty", "POST", "/api/embed/chat", `{"api_key": "` + pub + `", "message": ""}`, nil, 400, "missing_field", false},
		{"chat key empty", "POST", "/api/embed/chat", `{"api_key": "", "message": "Szia"}`, nil, 400, "missing_api_key", false},
		{"chat key of 201 characters", "POST", "/api/embed/chat", `{"api_key": "` + longKey(pub, 201) + `", "message": "Szia"}`, nil, 401, "invalid_api_key", true},
		{"chat email not a string", "POST", "/api/embed/chat", `{"api_key": "` + pub + `", "message": "Szia", "email": 5}`, nil, 400, "invalid_email", false},
		{"chat phone of 51 characters", "POST", "/api/embed/chat", `{"api_key": "` + pub + `", "message": "Szia", "phone": "` + strings.Repeat("1", 51) + `"}`, nil, 400, "invalid_phone", false},
		{"config key empty", "GET", "/api/embed/config?api_key=", "", nil, 400, "missing_api_key", false},
		{"config key of 201 characters", "GET", "/api/embed/config?api_key=" + longKey(pub, 201), "", nil, 401, "invalid_api_key", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, e.base+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			for k, v := range tt.header {
				req.Header[http.CanonicalHeaderKey(k)] = []string{v} // an empty value is sent as one
			}
			if err := spec.CheckRequest(req, []byte(tt.body)); (err == nil) != tt.specAllows {
				t.Errorf("the contract allows the request: %v, want %v (%v)", err == nil, tt.specAllows, err)
			}
			resp, err := e.http.Do(req) // the answer is checked against the contract, code list included
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			wantError(t, resp, decode(t, resp), tt.status, tt.code)
		})
	}
}

// Exactly the paths under /api/v1/ and /api/embed/ have a preflight in the contract, and
// answer it 204 with the CORS headers; every other documented path answers OPTIONS 405, as the
// contract's introduction says.
func TestPreflightWhereTheContractPromisesIt(t *testing.T) {
	t.Parallel()
	e := start(t)
	for tmpl, item := range contracttest.Spec(t, e.base).Paths.Map() {
		path := strings.ReplaceAll(tmpl, "{lead_id}", "0b7f3c52-5f3e-4c8e-9a7a-0c1d2e3f4a5b")
		promised := strings.HasPrefix(tmpl, "/api/v1/") || strings.HasPrefix(tmpl, "/api/embed/")
		t.Run(tmpl, func(t *testing.T) {
			if (item.Options != nil) != promised {
				t.Fatalf("the contract gives %s an OPTIONS operation: %v, its introduction %v", tmpl, item.Options != nil, promised)
			}
			client := e.http // checked against the contract
			if !promised {
				client = http.DefaultClient // OPTIONS is not in the contract here
			}
			req, _ := http.NewRequest("OPTIONS", e.base+path, nil)
			req.Header.Set("Origin", "https://example.hu")
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "content-type, x-api-key, idempotency-key")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if !promised {
				wantError(t, resp, decode(t, resp), 405, "method_not_allowed")
				return
			}
			if resp.StatusCode != http.StatusNoContent {
				t.Fatalf("status %d, want 204", resp.StatusCode)
			}
			for h, v := range map[string]string{
				"Access-Control-Allow-Origin":  "*",
				"Access-Control-Allow-Methods": "GET, POST, PATCH, DELETE, OPTIONS",
				"Access-Control-Allow-Headers": "Content-Type, Authorization, X-Api-Key, Idempotency-Key",
				"Access-Control-Max-Age":       "86400",
			} {
				if got := resp.Header.Get(h); got != v {
					t.Errorf("%s = %q, want %q", h, got, v)
				}
			}
		})
	}
}

// The files served with an ETag declare it, and If-None-Match, in the contract: a matching tag
// is a 304 without a body that carries the tag again, any other a 200.
func TestFilesRevalidateAsTheContractSays(t *testing.T) {
	t.Parallel()
	e := start(t)
	for _, path := range []string{"/api/openapi.yaml", "/embed.js"} {
		t.Run(path, func(t *testing.T) {
			get := func(inm string) (*http.Response, []byte) {
				t.Helper()
				req, _ := http.NewRequest("GET", e.base+path, nil)
				if inm != "" {
					req.Header.Set("If-None-Match", inm)
				}
				resp, err := e.http.Do(req) // checked against the contract
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				body, _ := io.ReadAll(resp.Body)
				return resp, body
			}
			first, body := get("")
			etag := first.Header.Get("ETag")
			if first.StatusCode != 200 || etag == "" || len(body) == 0 {
				t.Fatalf("status %d, ETag %q, %d bytes", first.StatusCode, etag, len(body))
			}
			again, body := get(etag)
			if again.StatusCode != http.StatusNotModified || again.Header.Get("ETag") != etag || len(body) != 0 {
				t.Errorf("with its own tag: status %d, ETag %q, %d bytes; want 304, %q, none", again.StatusCode, again.Header.Get("ETag"), len(body), etag)
			}
			if other, _ := get(`"another"`); other.StatusCode != 200 {
				t.Errorf("with another tag: status %d, want 200", other.StatusCode)
			}
		})
	}
}
