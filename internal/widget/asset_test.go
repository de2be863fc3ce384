package widget

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func serveScript(t *testing.T, h http.Handler, method string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, "/embed.js", nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestScriptHandlerHeaders(t *testing.T) {
	res := serveScript(t, ScriptHandler(), http.MethodGet, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200", res.StatusCode)
	}
	want := map[string]string{
		"Content-Type":                "text/javascript; charset=utf-8",
		"Cache-Control":               "public, max-age=300",
		"Vary":                        "Accept-Encoding",
		"Access-Control-Allow-Origin": "*",
		"X-Content-Type-Options":      "nosniff",
		"Content-Encoding":            "",
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if etag := res.Header.Get("ETag"); len(etag) < 10 || !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) {
		t.Errorf("ETag %q, want a strong quoted tag", etag)
	}
	body, _ := io.ReadAll(res.Body)
	if !bytes.Equal(body, script) {
		t.Errorf("body is not embed.js (%d bytes, want %d)", len(body), len(script))
	}
}

func TestScriptHandlerConditional(t *testing.T) {
	h := ScriptHandler()
	etag := serveScript(t, h, http.MethodGet, nil).Header.Get("ETag")
	if again := ScriptHandler(); serveScript(t, again, http.MethodGet, nil).Header.Get("ETag") != etag {
		t.Error("ETag differs between two handlers of the same file")
	}
	tests := []struct {
		name        string
		ifNoneMatch string
		want        int
	}{
		{"same tag is not modified", etag, http.StatusNotModified},
		{"tag in a list is not modified", `"old", ` + etag, http.StatusNotModified},
		{"weak form of the tag is not modified", "W/" + etag, http.StatusNotModified},
		{"star is not modified", "*", http.StatusNotModified},
		{"other tag gets the file", `"old"`, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := serveScript(t, h, http.MethodGet, map[string]string{"If-None-Match": tt.ifNoneMatch})
			if res.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.want)
			}
			body, _ := io.ReadAll(res.Body)
			if tt.want == http.StatusNotModified && (len(body) != 0 || res.Header.Get("ETag") != etag) {
				t.Errorf("304 with %d body bytes and ETag %q", len(body), res.Header.Get("ETag"))
			}
		})
	}
}

func TestScriptHandlerGzip(t *testing.T) {
	h := ScriptHandler()
	tests := []struct {
		name, acceptEncoding string
		gzipped              bool
	}{
		{"browser gets gzip", "gzip, deflate, br, zstd", true},
		{"gzip with a quality", "br;q=1.0, gzip;q=0.8", true},
		{"star allows gzip", "*", true},
		{"refused gzip", "gzip;q=0, br", false},
		{"star refused", "*;q=0", false},
		{"no header", "", false},
		{"identity only", "identity", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := serveScript(t, h, http.MethodGet, map[string]string{"Accept-Encoding": tt.acceptEncoding})
			body, _ := io.ReadAll(res.Body)
			if got := res.Header.Get("Content-Encoding") == "gzip"; got != tt.gzipped {
				t.Fatalf("gzipped = %v, want %v", got, tt.gzipped)
			}
			if res.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("Content-Length %s for %d bytes", res.Header.Get("Content-Length"), len(body))
			}
			if tt.gzipped {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				body, err = io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(body, script) {
				t.Error("decoded body is not embed.js")
			}
		})
	}
}

func TestScriptHandlerHead(t *testing.T) {
	res := serveScript(t, ScriptHandler(), http.MethodHead, nil)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || len(body) != 0 || res.Header.Get("Content-Length") != strconv.Itoa(len(script)) {
		t.Errorf("HEAD: status %d, %d body bytes, Content-Length %q", res.StatusCode, len(body), res.Header.Get("Content-Length"))
	}
}

// TestScriptSizeBudget keeps the script every visitor downloads within 8 KiB gzipped.
func TestScriptSizeBudget(t *testing.T) {
	const budget = 8192
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(script)
	zw.Close()
	t.Logf("embed.js: %d bytes, %d gzipped (budget %d)", len(script), buf.Len(), budget)
	if buf.Len() > budget {
		t.Errorf("embed.js is %d bytes gzipped, over the budget of %d", buf.Len(), budget)
	}
}

// TestScriptHasNoForbiddenConstructs guards the promises that the widget never writes text as
// HTML, never evaluates strings, and never needs 'unsafe-inline' styles.
func TestScriptHasNoForbiddenConstructs(t *testing.T) {
	forbidden := []string{
		"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
		"setAttribute('style'", `setAttribute("style"`, "createElement('style'", `createElement("style"`,
		"cssText", "setTimeout('", `setTimeout("`,
	}
	src := string(script)
	for _, f := range forbidden {
		if strings.Contains(src, f) {
			t.Errorf("embed.js contains %q", f)
		}
	}
	for _, want := range []string{"'use strict'", "attachShadow({ mode: 'open' })", "new CSSStyleSheet()", "adoptedStyleSheets", "prefers-reduced-motion:no-preference", "100dvh"} {
		if !strings.Contains(src, want) {
			t.Errorf("embed.js lacks %q", want)
		}
	}
}

// TestScriptSyntax asks node to parse embed.js; CI must have node, a laptop may lack it.
func TestScriptSyntax(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed; CI needs it to check embed.js")
		}
		t.Skip("node is not installed: skipping the syntax check of embed.js")
	}
	out, err := exec.Command(node, "--check", "embed.js").CombinedOutput()
	if err != nil {
		t.Fatalf("node --check embed.js: %v\n%s", err, out)
	}
}
