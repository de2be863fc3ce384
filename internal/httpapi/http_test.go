package httpapi_test

import (
	"net/http"
	"testing"
)

func TestResponsesAllowCrossOrigin(t *testing.T) {
	t.Parallel()
	e := start(t)
	resp, _ := e.do("POST", "/api/v1/leads", okBody, map[string]string{"Origin": "https://example.hu"})
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin = %q on an error answer", got)
	}
	exposed := resp.Header.Get("Access-Control-Expose-Headers")
	for _, h := range []string{"X-Lead-Limit", "X-Lead-Count", "Retry-After", "X-Request-Id"} {
		if !containsFold(exposed, h) {
			t.Errorf("Access-Control-Expose-Headers = %q, lacks %s", exposed, h)
		}
	}
	if resp.Header.Get("X-Request-Id") == "" {
		t.Error("no X-Request-Id")
	}
}

func containsFold(list, item string) bool {
	for _, f := range splitComma(list) {
		if http.CanonicalHeaderKey(f) == http.CanonicalHeaderKey(item) {
			return true
		}
	}
	return false
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			f := s[start:i]
			for len(f) > 0 && f[0] == ' ' {
				f = f[1:]
			}
			out = append(out, f)
			start = i + 1
		}
	}
	return out
}

func TestRouterErrorsAreJSON(t *testing.T) {
	t.Parallel()
	e := start(t)
	// Requests outside the spec go around the contract-checking client.
	for _, tt := range []struct {
		name, method, path string
		status             int
		code               string
	}{
		{"unknown path", "GET", "/nope", 404, "not_found"},
		{"unknown API path", "POST", "/api/v2/leads", 404, "not_found"},
		{"wrong method", "DELETE", "/api/v1/leads", 405, "method_not_allowed"},
		{"PUT on the lead endpoint", "PUT", "/api/v1/leads", 405, "method_not_allowed"},
		{"POST on a lead", "POST", "/api/v1/leads/0b7f3c52-5f3e-4c8e-9a7a-0c1d2e3f4a5b", 405, "method_not_allowed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, e.base+tt.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			wantError(t, resp, decode(t, resp), tt.status, tt.code)
		})
	}
}

func TestSpecDocsAndScriptMatchTheContract(t *testing.T) {
	t.Parallel()
	e := start(t)
	for _, tt := range []struct{ path, ctype string }{
		{"/api/openapi.yaml", "application/yaml; charset=utf-8"},
		{"/docs", "text/html; charset=utf-8"},
		{"/embed.js", "text/javascript; charset=utf-8"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := e.http.Get(e.base + tt.path) // checked against the contract
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.ctype {
				t.Errorf("%d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		})
	}
}
