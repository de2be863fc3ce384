// Package asset serves bodies fixed at start (the contract, its reference page, embed.js). They
// are cached publicly for a few minutes, so that a new release reaches readers soon; a strong
// ETag makes a revalidation cost a 304, and a gzip copy made once spares each download the work.
// Only the statuses the contract lists are answered (200, and 304 with an ETag): no ranges.
package asset

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

// Options say how a body is served.
type Options struct {
	// Header holds the body's own headers: Content-Type, and CORS or CSP where they apply.
	Header map[string]string
	// ETag sends a strong entity tag and answers a matching If-None-Match with 304.
	ETag bool
	// Gzip keeps a gzip copy for the clients that accept it.
	Gzip bool
}

// Handler serves a copy of body, taken now, to GET and HEAD.
func Handler(body []byte, o Options) http.Handler {
	a := &asset{body: bytes.Clone(body), header: map[string]string{
		"Cache-Control":          "public, max-age=300",
		"X-Content-Type-Options": "nosniff",
	}}
	for k, v := range o.Header {
		a.header[k] = v
	}
	if o.ETag {
		sum := sha256.Sum256(body)
		a.etag = `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
		a.header["ETag"] = a.etag
	}
	if o.Gzip {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid, so no error
		zw.Write(body)                                           // writes to a bytes.Buffer do not fail
		zw.Close()
		a.gz = buf.Bytes()
		a.header["Vary"] = "Accept-Encoding"
	}
	return a
}

type asset struct {
	body, gz []byte // gz is nil without Options.Gzip
	etag     string
	header   map[string]string
}

func (a *asset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, v := range a.header {
		h.Set(k, v)
	}
	if a.etag != "" && etagMatches(r.Header.Get("If-None-Match"), a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = a.gz
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
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
