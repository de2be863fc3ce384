package widget

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// script is the chat widget every visitor of every customer site downloads, hand-written with no
// build step. Its host element is <leadchat-widget data-leadchat> with an open shadow root, in which
// browser tests find the parts by data-lc, kept stable:
//
//	bubble, panel (role=dialog), title, close, log (role=log), msg (data-role="visitor" or
//	"assistant"), quick, quick-button, typing, error, error-text, retry, composer, input, send,
//	contact (the form), contact-prompt, contact-name, contact-email, contact-phone (only with
//	require_phone), contact-hp (the honeypot), contact-error, contact-submit, contact-dismiss,
//	powered-by (absent with hide_powered_by).
//
// The contact form sends nothing when submitted within 2 s of appearing or with the honeypot
// filled (it only pretends success), so a test must wait 2 s before submitting it.
//
//go:embed embed.js
var script []byte

// ScriptHandler serves embed.js: short-lived public caching so a fix reaches visitors within
// minutes, a strong ETag so revalidation costs a 304, and a gzip copy made once at start.
func ScriptHandler() http.Handler {
	sum := sha256.Sum256(script)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid, so no error
	zw.Write(script)                                         // writes to a bytes.Buffer do not fail
	zw.Close()
	gz := buf.Bytes()

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("ETag", etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		body := script
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			body = gz
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(body)
	})
}

// etagMatches applies If-None-Match's weak comparison: a list of tags, W/ prefixes, or "*".
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether Accept-Encoding allows gzip: listed by name, or by "*" when gzip
// is not named, with a quality above zero.
func acceptsGzip(header string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		allowed := true
		if q, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(params)), "q="); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(q), 64)
			allowed = err == nil && v > 0
		}
		switch coding {
		case "gzip", "x-gzip":
			return allowed
		case "*":
			star = allowed
		}
	}
	return star
}
