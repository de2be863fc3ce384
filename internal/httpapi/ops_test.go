package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/service"
)

func limited(c *service.Config) {
	c.RateLimit = true
	c.RateLeadsPublic, c.RateLeadsPrivate, c.RateConfig, c.RateChat = 3, 5, 4, 2
	c.TrustedProxies = "127.0.0.1"
}

// TestRateLimits holds every limit, with its buckets in this instance's memory and in PostgreSQL.
func TestRateLimits(t *testing.T) {
	t.Parallel()
	for _, store := range []string{"memory", "postgres"} {
		t.Run(store, func(t *testing.T) {
			testRateLimits(t, func(c *service.Config) { limited(c); c.SharedRateLimits = store == "postgres" })
		})
	}
}

func testRateLimits(t *testing.T, config func(*service.Config)) {
	e := startWith(t, config)
	c := e.company(plan.Enterprise, -1)
	pub := e.key(c, auth.Public, nil, true).Key
	priv := e.key(c, auth.Private, nil, true).Key
	pub2 := e.key(c, auth.Public, nil, true).Key

	exhaust := func(t *testing.T, n int, send func() *http.Response) {
		t.Helper()
		for i := range n {
			if resp := send(); resp.StatusCode == 429 {
				t.Fatalf("request %d of %d refused", i+1, n)
			}
		}
		resp := send()
		if resp.StatusCode != 429 {
			t.Fatalf("request %d: status %d, want 429", n+1, resp.StatusCode)
		}
		ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if err != nil || ra < 1 || ra > 60 {
			t.Errorf("Retry-After = %q", resp.Header.Get("Retry-After"))
		}
	}
	from := func(ip string) map[string]string { return map[string]string{"X-Forwarded-For": ip} }

	t.Run("public key per client IP and key", func(t *testing.T) {
		send := func(key, ip string) *http.Response {
			h := from(ip)
			h["X-Api-Key"] = key
			resp, _ := e.do("POST", "/api/v1/leads", okBody, h)
			return resp
		}
		exhaust(t, 3, func() *http.Response { return send(pub, "198.51.100.1") })
		if resp := send(pub, "198.51.100.2"); resp.StatusCode != 201 {
			t.Errorf("another client IP: %d", resp.StatusCode)
		}
		if resp := send(pub2, "198.51.100.1"); resp.StatusCode != 201 {
			t.Errorf("another key: %d", resp.StatusCode)
		}
		resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": pub, "X-Forwarded-For": "198.51.100.1"})
		wantError(t, resp, body, 429, "rate_limited")
	})
	t.Run("private key per key", func(t *testing.T) {
		exhaust(t, 5, func() *http.Response {
			resp, _ := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": priv, "X-Forwarded-For": fmt.Sprint("203.0.113.", len(priv))})
			return resp
		})
	})
	t.Run("config per client IP", func(t *testing.T) {
		exhaust(t, 4, func() *http.Response {
			resp, _ := e.do("GET", "/api/embed/config?api_key="+pub, "", from("192.0.2.9"))
			return resp
		})
		// Guessing keys spends the same budget.
		resp, body := e.do("GET", "/api/embed/config?api_key=lc_pub_guess", "", from("192.0.2.9"))
		wantError(t, resp, body, 429, "rate_limited")
	})
	t.Run("chat per client IP", func(t *testing.T) {
		exhaust(t, 2, func() *http.Response {
			resp, _ := e.do("POST", "/api/embed/chat", `{"api_key": "`+pub+`", "message": "Szia"}`, from("192.0.2.10"))
			return resp
		})
	})
	var leads int
	_ = e.store.DB().QueryRow(`SELECT count(*) FROM leads`).Scan(&leads)
	if leads != 3+1+1+5 {
		t.Errorf("%d leads stored; refused requests must store none", leads)
	}
}

func TestUntrustedForwardedForIsIgnored(t *testing.T) {
	t.Parallel()
	e := startWith(t, func(c *service.Config) { limited(c); c.TrustedProxies = "" })
	pub := e.key(e.company(plan.Enterprise, -1), auth.Public, nil, true).Key
	codes := []int{}
	for i := range 5 {
		resp, _ := e.do("GET", "/api/embed/config?api_key="+pub, "", map[string]string{"X-Forwarded-For": fmt.Sprint("10.0.0.", i)})
		codes = append(codes, resp.StatusCode)
	}
	if codes[4] != 429 {
		t.Errorf("statuses %v: a client changing X-Forwarded-For escaped the limit", codes)
	}
}

func TestHealthReadyMetrics(t *testing.T) {
	t.Parallel()
	e := start(t)
	key := e.key(e.company(plan.Free, -1), auth.Private, nil, true).Key
	if resp, _ := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key}); resp.StatusCode != 201 {
		t.Fatal(resp.StatusCode)
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := e.http.Get(e.base + path) // checked against the contract
		if err != nil {
			t.Fatal(err)
		}
		body := decode(t, resp)
		resp.Body.Close()
		if resp.StatusCode != 200 || body["status"] != "ok" {
			t.Errorf("%s: %d %v", path, resp.StatusCode, body)
		}
	}
	resp, err := http.Get(e.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(raw)
	for _, want := range []string{
		`leadchat_http_requests_total{method="POST",route="/api/v1/leads",status="201"} 1`,
		`leadchat_leads_created_total{over_limit="false",source="api"} 1`,
		`leadchat_http_request_duration_seconds_bucket{route="/api/v1/leads"`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(text, key) {
		t.Error("/metrics shows a key")
	}
}

// TestLogsHoldNoSecrets: keys, emails, phones and messages never reach the log, while every
// request is logged with its id.
func TestLogsHoldNoSecrets(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	priv := e.key(c, auth.Private, nil, true).Key
	pub := e.key(c, auth.Public, nil, true).Key
	secrets := []string{priv, pub, "titkos.cim@example.hu", "+36 30 987 6543", "Titkos üzenet szövege"}
	e.do("POST", "/api/v1/leads", `{"first_name": "Anna", "email": "titkos.cim@example.hu", "phone": "+36 30 987 6543"}`, map[string]string{"X-Api-Key": priv})
	e.do("POST", "/api/v1/leads", `{"first_name": "Anna", "email": "titkos.cim@"}`, map[string]string{"X-Api-Key": priv})
	e.do("GET", "/api/embed/config?api_key="+pub, "", nil)
	e.do("POST", "/api/embed/chat", `{"api_key": "`+pub+`", "message": "Titkos üzenet szövege, titkos.cim@example.hu +36 30 987 6543"}`, nil)
	e.do("GET", "/api/embed/config?api_key="+priv, "", map[string]string{"Origin": "https://x.hu"})
	logs := e.logs.String()
	if n := strings.Count(logs, `"msg":"request"`); n < 5 {
		t.Errorf("%d request lines logged, want 5:\n%s", n, logs)
	}
	if !strings.Contains(logs, `"request_id":"`) {
		t.Error("request lines lack the request id")
	}
	for _, s := range secrets {
		if strings.Contains(logs, s) {
			t.Errorf("the log holds %q:\n%s", s, logs)
		}
	}
}
