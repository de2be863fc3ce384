package httpapi_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/service"
)

// plain is a client that does not check the contract, for requests the contract does not know.
var plain = &http.Client{Timeout: 10 * time.Second}

var requestSeries = regexp.MustCompile(`(?m)^leadchat_http_requests_total\{method="([^"]*)",route="([^"]*)",status="[0-9]+"\}`)

// TestOddMethodsAddNoSeries: made-up methods, however long and however many, add no metric
// series and reach the log cut short.
func TestOddMethodsAddNoSeries(t *testing.T) {
	t.Parallel()
	e := start(t)
	send := func(batch int) {
		t.Helper()
		for i := range 20 {
			method := strings.Repeat("X", 1000*(i+1)) + strconv.Itoa(batch)
			for _, path := range []string{"/api/v1/leads", "/nowhere"} {
				req, err := http.NewRequest(method, e.base+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				resp, err := plain.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != 405 && resp.StatusCode != 404 {
					t.Errorf("%d-character method on %s: %d", len(method), path, resp.StatusCode)
				}
			}
		}
	}
	series := func() []string {
		t.Helper()
		resp, err := plain.Get(e.base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out []string
		for _, m := range requestSeries.FindAllStringSubmatch(string(b), -1) {
			if !slices.Contains([]string{"GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS", "other"}, m[1]) {
				t.Errorf("method label %.40q…", m[1])
			}
			if m[2] != "unmatched" && !strings.HasPrefix(m[2], "/") {
				t.Errorf("route label %.40q…", m[2])
			}
			out = append(out, m[0])
		}
		return out
	}
	series() // the scrape itself is a series
	send(1)
	first := series()
	send(2)
	if second := series(); !slices.Equal(first, second) {
		t.Errorf("20 more made-up methods changed the series:\n%v\nto\n%v", first, second)
	}
	if !slices.Contains(first, `leadchat_http_requests_total{method="other",route="unmatched",status="404"}`) {
		t.Errorf("the requests were not counted as method other: %v", first)
	}
	for line := range strings.Lines(e.logs.String()) {
		if strings.Contains(line, strings.Repeat("X", 257)) {
			t.Fatalf("a log line carries more than 256 characters of a method: %.300s…", line)
		}
	}
}

// TestMetricsOnlyForAllowedNetworks: /metrics answers the allowed networks only, judging the
// client by the trusted-proxy rules, and never carries a CORS header.
func TestMetricsOnlyForAllowedNetworks(t *testing.T) {
	t.Parallel()
	get := func(t *testing.T, e *env, forwardedFor string) (*http.Response, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest("GET", e.base+"/metrics", nil)
		req.Header.Set("Origin", "https://attacker.example")
		if forwardedFor != "" {
			req.Header.Set("X-Forwarded-For", forwardedFor)
		}
		resp, err := e.http.Do(req) // checked against the contract
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if v := resp.Header.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("Access-Control-Allow-Origin: %s", v)
		}
		var body map[string]any
		if resp.StatusCode != 200 {
			body = decode(t, resp)
		}
		return resp, body
	}
	t.Run("loopback by default", func(t *testing.T) {
		if resp, _ := get(t, start(t), ""); resp.StatusCode != 200 {
			t.Errorf("status %d, want 200", resp.StatusCode)
		}
	})
	t.Run("another network is 404", func(t *testing.T) {
		e := startWith(t, func(c *service.Config) { c.MetricsNetworks = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")} })
		resp, body := get(t, e, "")
		wantError(t, resp, body, 404, "not_found")
	})
	t.Run("behind a trusted proxy the forwarded client counts", func(t *testing.T) {
		e := startWith(t, func(c *service.Config) {
			c.TrustedProxies = "127.0.0.1"
			c.MetricsNetworks = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
		})
		resp, body := get(t, e, "203.0.113.9")
		wantError(t, resp, body, 404, "not_found")
		if resp, _ := get(t, e, "10.1.2.3"); resp.StatusCode != 200 {
			t.Errorf("a client of an allowed network behind the proxy: %d", resp.StatusCode)
		}
	})
}

// TestHeaderLimit: up to 32 KiB of headers pass; over it the answer is the JSON 431 for every
// request of up to 64 KiB of headers, to the API and the dashboard alike, sent over a raw
// connection as an attacker would; past that the HTTP server answers 431 itself, before any
// handler, and closes the connection, so none holds more.
func TestHeaderLimit(t *testing.T) {
	t.Parallel()
	e := start(t)
	key := e.key(e.company(plan.Free, -1), auth.Private, nil, true).Key
	h := func(n int) map[string]string {
		return map[string]string{"X-Api-Key": key, "X-Junk": strings.Repeat("a", n)}
	}
	if resp, body := e.do("POST", "/api/v1/leads", okBody, h(30<<10)); resp.StatusCode != 201 {
		t.Errorf("30 KiB of headers: %d %v", resp.StatusCode, body)
	}
	resp, body := e.do("POST", "/api/v1/leads", okBody, h(32<<10))
	wantError(t, resp, body, 431, "headers_too_large")

	// raw sends a request whose header section (every line after the request line, with the
	// blank line ending it) is exactly size bytes, and reads the answer.
	raw := func(t *testing.T, path string, size int) (*http.Response, []byte, error) {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		const frame = len("Host: x\r\nX-Junk: \r\n\r\n")
		go fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nX-Junk: %s\r\n\r\n", path, strings.Repeat("a", size-frame))
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}
	for _, kib := range []int{33, 40, 64} {
		for _, path := range []string{"/api/v1/leads", "/app/leads"} {
			t.Run(fmt.Sprintf("%d KiB to %s", kib, path), func(t *testing.T) {
				resp, b, err := raw(t, path, kib<<10)
				if err != nil {
					t.Fatal(err)
				}
				var body map[string]any
				if err := json.Unmarshal(b, &body); err != nil {
					t.Fatalf("status %d, %s: %q is not JSON", resp.StatusCode, resp.Header.Get("Content-Type"), b)
				}
				wantError(t, resp, body, 431, "headers_too_large")
			})
		}
	}
	t.Run("past the server's own cap", func(t *testing.T) {
		resp, _, err := raw(t, "/healthz", 128<<10)
		if resp.StatusCode != 431 || resp.Header.Get("X-Request-Id") != "" {
			t.Errorf("128 KiB of headers: %d, X-Request-Id %q; want 431 from the server, before any handler", resp.StatusCode, resp.Header.Get("X-Request-Id"))
		}
		// The answer has no length: its body ends when the server closes the connection, with
		// an EOF, or a reset since the server leaves the rest of the headers unread.
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() || !resp.Close {
			t.Errorf("the connection stays open after 128 KiB of headers: %v", err)
		}
	})
}

// TestConnectionCap: past LEADCHAT_MAX_CONNS a new connection is not served until one closes.
func TestConnectionCap(t *testing.T) {
	t.Parallel()
	e := startWith(t, func(c *service.Config) { c.MaxConns = 2 })
	addr := strings.TrimPrefix(e.base, "http://")
	type client struct {
		conn net.Conn
		r    *bufio.Reader
	}
	dial := func() client {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		return client{c, bufio.NewReader(c)}
	}
	read := func(c client, within time.Duration) error {
		c.conn.SetReadDeadline(time.Now().Add(within))
		resp, err := http.ReadResponse(c.r, nil)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	first, second := dial(), dial()
	for _, c := range []client{first, second} {
		if err := read(c, 10*time.Second); err != nil {
			t.Fatalf("a connection within the cap: %v", err)
		}
	}
	third := dial() // both others stay open, idle
	if err := read(third, 300*time.Millisecond); err == nil {
		t.Fatal("a third connection was served while two were open")
	}
	first.conn.Close()
	if err := read(third, 10*time.Second); err != nil {
		t.Fatalf("the waiting connection after one closed: %v", err)
	}
}

// TestFailedAuthLimit: a client address with 30 failed authentications in a minute is refused
// with 429 before its key is looked up, a valid key included; an IPv6 client counts by its /64.
func TestFailedAuthLimit(t *testing.T) {
	t.Parallel()
	e := startWith(t, limited)
	c := e.company(plan.Enterprise, -1)
	priv := e.key(c, auth.Private, nil, true).Key
	fake, err := auth.Generate(auth.Private)
	if err != nil {
		t.Fatal(err)
	}
	send := func(key, ip string) (*http.Response, map[string]any) {
		return e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key, "X-Forwarded-For": ip})
	}
	for i := range 30 {
		ip := fmt.Sprintf("2001:db8:7:7::%x", i+1) // one /64, a new address each time
		if resp, body := send(fake, ip); resp.StatusCode != 401 {
			t.Fatalf("failed authentication %d: %d %v", i+1, resp.StatusCode, body)
		}
	}
	resp, body := send(fake, "2001:db8:7:7:ffff::1")
	wantError(t, resp, body, 429, "rate_limited")
	if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
		t.Errorf("Retry-After = %q", resp.Header.Get("Retry-After"))
	}
	resp, body = send(priv, "2001:db8:7:7::1")
	wantError(t, resp, body, 429, "rate_limited")
	if resp, body := send(priv, "2001:db8:7:8::1"); resp.StatusCode != 201 {
		t.Errorf("the next /64: %d %v", resp.StatusCode, body)
	}
	if resp, body := send(fake, "192.0.2.77"); resp.StatusCode != 401 {
		t.Errorf("another client: %d %v", resp.StatusCode, body)
	}
}

// TestIPv6ClientsLimitedByNetwork: addresses of one /64 share a rate-limit bucket.
func TestIPv6ClientsLimitedByNetwork(t *testing.T) {
	t.Parallel()
	e := startWith(t, limited) // 4 config reads a minute
	pub := e.key(e.company(plan.Enterprise, -1), auth.Public, nil, true).Key
	for i := range 4 {
		resp, _ := e.do("GET", "/api/embed/config?api_key="+pub, "", map[string]string{"X-Forwarded-For": fmt.Sprintf("2001:db8:5:5:%x::1", i)})
		if resp.StatusCode != 200 {
			t.Fatalf("read %d: %d", i+1, resp.StatusCode)
		}
	}
	resp, body := e.do("GET", "/api/embed/config?api_key="+pub, "", map[string]string{"X-Forwarded-For": "2001:db8:5:5:abcd::9"})
	wantError(t, resp, body, 429, "rate_limited")
	if resp, _ := e.do("GET", "/api/embed/config?api_key="+pub, "", map[string]string{"X-Forwarded-For": "2001:db8:5:6::1"}); resp.StatusCode != 200 {
		t.Errorf("another /64: %d", resp.StatusCode)
	}
}

// TestIdempotencyKeyForm: the key is 1 to 255 printable ASCII characters, else 400.
func TestIdempotencyKeyForm(t *testing.T) {
	t.Parallel()
	e := start(t)
	key := e.key(e.company(plan.Enterprise, -1), auth.Private, nil, true).Key
	for _, tt := range []struct {
		name, idem string
		ok         bool
	}{
		{"a UUID", "8e0f7a52-3c2b-4f0e-9d1c-6b5a4e3d2c1b", true},
		{"a space inside", "rendelés 42 / next", false}, // not ASCII
		{"ASCII with a space", "order 42", true},
		{"255 characters", strings.Repeat("k", 255), true},
		{"256 characters", strings.Repeat("k", 256), false},
		{"a byte that is not UTF-8", "key-\xff\xfe", false},
		{"Cyrillic", "ключ", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key, "Idempotency-Key": tt.idem})
			if tt.ok {
				if resp.StatusCode != 201 {
					t.Errorf("%d %v", resp.StatusCode, body)
				}
				return
			}
			wantError(t, resp, body, 400, "invalid_idempotency_key")
		})
	}
}
