// Package apidocs serves the contract to people and to tools: the OpenAPI document itself and a
// reference page rendered from it, with no script, no CDN and nothing fetched at run time. The
// page is rendered when the code is generated (`make generate` writes api/docs.gen.html with
// Render), so a start of the service parses nothing for it.
//
// kin-openapi loads the document (its $refs, and where each entry sits in the file) and goldmark
// renders the descriptions' Markdown; this package only lays them out. A generated page such as
// redocly's build-docs would need its bundled script, which the page's Content-Security-Policy
// forbids, and node to build; this one is made from the same bytes the binary serves.
package apidocs

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/leadchat/leadchat/internal/asset"
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

// Render parses and validates spec and returns the reference page made from it.
func Render(spec []byte) ([]byte, error) {
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
	return page.Bytes(), nil
}

// Handler serves spec at SpecPath and page, the reference page Render made from it, at
// DocsPath. It keeps its own copies of both.
func Handler(spec, page []byte) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+SpecPath, asset.Handler(spec, asset.Options{ETag: true, Header: map[string]string{
		"Content-Type": "application/yaml; charset=utf-8",
		// Any site's tools (editors, viewers, generators in a browser) may fetch the contract.
		"Access-Control-Allow-Origin": "*",
	}}))
	// The page has no ETag because the contract gives /docs no 304; it is cached for minutes.
	mux.Handle("GET "+DocsPath, asset.Handler(page, asset.Options{Header: map[string]string{
		"Content-Type": "text/html; charset=utf-8",
		// The page runs no script and loads nothing; its one style sheet is inline.
		"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
		"Referrer-Policy":         "no-referrer",
	}}))
	return mux
}
