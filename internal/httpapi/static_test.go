package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/widget"
)

func TestScriptHandler(t *testing.T) {
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

func TestDemoPage(t *testing.T) {
	h := DemoPage("https://chat.example.com/", "lc_pub_demo&key")
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
