// Package apidocs serves the contract to people and to tools: the OpenAPI document itself and a
// reference page rendered from it, both built once when the handler is made, with no script, no
// CDN and nothing fetched at run time.
//
// kin-openapi loads the document (its $refs, and where each entry sits in the file) and goldmark
// renders the descriptions' Markdown; this package only lays them out. A generated page such as
// redocly's build-docs would need its bundled script, which the page's Content-Security-Policy
// forbids, and node to build; this one is made from the same bytes the binary serves.
package apidocs

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The paths Handler answers; mount both on it.
const (
	// SpecPath serves the OpenAPI document byte for byte, for code generators and API tools.
	SpecPath = "/api/openapi.yaml"
	// DocsPath serves the reference page.
	DocsPath = "/docs"
)

//go:embed page.html
var pageHTML string

// pageTemplate is parsed once; a template error is a bug of this package, caught by its tests.
var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// Handler serves spec at SpecPath and the reference page made from it at DocsPath. It parses
// and validates spec first, so a document that kin-openapi cannot read fails at start, not when
// someone opens the page.
func Handler(spec []byte) (http.Handler, error) {
	spec = bytes.Clone(spec)
	loader := openapi3.NewLoader()
	loader.IncludeOrigin = true // the page follows the order of the file
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("parsing the OpenAPI document: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validating the OpenAPI document: %w", err)
	}
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, builder{doc: doc}.page(SpecPath)); err != nil {
		return nil, fmt.Errorf("rendering the reference page: %w", err)
	}

	mux := http.NewServeMux()
	mux.Handle("GET "+SpecPath, asset{body: spec, etag: etag(spec), header: map[string]string{
		"Content-Type": "application/yaml; charset=utf-8",
		// Any site's tools (editors, viewers, generators in a browser) may fetch the contract.
		"Access-Control-Allow-Origin": "*",
	}})
	// The page has no ETag because the contract gives /docs no 304; it is cached for minutes.
	mux.Handle("GET "+DocsPath, asset{body: page.Bytes(), header: map[string]string{
		"Content-Type": "text/html; charset=utf-8",
		// The page runs no script and loads nothing; its one style sheet is inline.
		"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
		"Referrer-Policy":         "no-referrer",
	}})
	return mux, nil
}

// asset is a body fixed at start, cached a few minutes so that a new release reaches readers
// soon; with an ETag, a revalidation costs a 304. It answers only the statuses the contract
// lists (200, and 304 with an ETag), so it does not serve ranges.
type asset struct {
	body   []byte
	etag   string
	header map[string]string
}

func (a asset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, v := range a.header {
		h.Set(k, v)
	}
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	if a.etag != "" {
		h.Set("ETag", a.etag)
		if etagMatches(r.Header.Get("If-None-Match"), a.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	if r.Method != http.MethodHead {
		w.Write(a.body)
	}
}

// etag is a strong entity tag of body.
func etag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
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
