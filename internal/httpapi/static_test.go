package httpapi

import (
	"bytes"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/widget"
)

func TestScriptHandler(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	ScriptHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/embed.js", nil))
	res := rec.Result()
	for k, v := range map[string]string{
		"Content-Type":                "text/javascript; charset=utf-8",
		"Cache-Control":               "public, max-age=300",
		"Vary":                        "Accept-Encoding",
		"Access-Control-Allow-Origin": "*",
		"X-Content-Type-Options":      "nosniff",
	} {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if res.Header.Get("ETag") == "" {
		t.Error("no ETag")
	}
	if body, _ := io.ReadAll(res.Body); !bytes.Equal(body, widget.Script()) {
		t.Errorf("body is not embed.js (%d bytes)", len(body))
	}
}

// demoProfile is the demo company's profile, which the demo page states.
func demoProfile(t *testing.T) assistant.Profile {
	t.Helper()
	data, err := os.ReadFile("../dev/demo-profile.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := assistant.ParseProfile(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The demo page says what the demo profile says, which the chat beside it answers from, and
// states no figure the profile lacks (it once said Saturday 9–12 and "4–6 weeks" while the
// chat said 9–13 and 3–5 weeks).
func TestDemoPageStatesTheProfile(t *testing.T) {
	t.Parallel()
	p := demoProfile(t)
	rec := httptest.NewRecorder()
	DemoPage("https://chat.example.com", "lc_pub_demo", p).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	page := rec.Body.String()
	page = regexp.MustCompile(`(?s)<style.*?</style>|<script.*?</script>|<svg.*?</svg>`).ReplaceAllString(page, " ")
	text := html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, "\n"))
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	profile := flat(strings.Join([]string{p.CompanyName, p.Description, p.OpeningHours, p.Phone, p.Email, p.Address}, "\n"))
	for _, s := range p.Services {
		profile += "\n" + flat(s.Name+"\n"+s.Description+"\n"+s.Price)
	}
	for _, q := range p.FAQ {
		profile += "\n" + flat(q.Question+"\n"+q.Answer)
	}
	for _, line := range strings.Split(text, "\n") {
		for _, n := range regexp.MustCompile(`\d[\d :.,–+-]*\d|\d`).FindAllString(line, -1) {
			if !strings.Contains(profile, flat(n)) {
				t.Errorf("the page states %q (in %q), which the profile does not", n, flat(line))
			}
		}
	}
	for _, want := range []string{p.OpeningHours, p.Address, p.Phone, p.Email, p.Services[0].Price, p.FAQ[0].Answer} {
		if !strings.Contains(flat(text), flat(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func TestDemoPage(t *testing.T) {
	t.Parallel()
	h := DemoPage("https://chat.example.com/", "lc_pub_demo&key", demoProfile(t))
	get := func() (*http.Response, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		body, _ := io.ReadAll(rec.Result().Body)
		return rec.Result(), string(body)
	}
	res, body := get()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("status %d, Content-Type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	tag := `<script async src="https://chat.example.com/embed.js" data-api-key="lc_pub_demo&amp;key" data-base-url="https://chat.example.com"></script>`
	if !strings.Contains(body, tag) {
		t.Errorf("page lacks the embed tag %s", tag)
	}
	if i, j := strings.Index(body, tag), strings.Index(body, "</body>"); i > j {
		t.Error("the embed tag is not before </body>")
	}
	// Without an icon of its own a browser asks for /favicon.ico, which the service does not
	// serve; the page's icon is inline, which its CSP (img-src data:) allows.
	if !strings.Contains(body, `<link rel="icon" href="data:image/svg+xml,`) {
		t.Error("the page names no inline icon, so browsers ask for a /favicon.ico that is not there")
	}

	csp := res.Header.Get("Content-Security-Policy")
	m := regexp.MustCompile(`^default-src 'self'; script-src 'self' https://chat\.example\.com; connect-src https://chat\.example\.com; style-src 'self' 'nonce-([A-Za-z0-9+/=_-]{16,})'; img-src 'self' data:$`).FindStringSubmatch(csp)
	if m == nil {
		t.Fatalf("Content-Security-Policy %q", csp)
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Error("the CSP allows 'unsafe-inline'")
	}
	if !strings.Contains(body, `<style nonce="`+m[1]+`">`) {
		t.Error("the page's <style> does not carry the CSP nonce")
	}
	if strings.Contains(body, " style=") || strings.Contains(body, "<script>") {
		t.Error("the page has inline styles or scripts that its own CSP would block")
	}
	res2, _ := get()
	if res2.Header.Get("Content-Security-Policy") == csp {
		t.Error("the nonce is the same on two requests")
	}
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", res.Header.Get("Cache-Control"))
	}
}
