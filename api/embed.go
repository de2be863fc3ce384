// Package apispec holds api/openapi.yaml, the contract, embedded in the binary so the service can
// serve the very file its code was generated from, and api/docs.gen.html, the reference page
// `make generate` renders from it. It is named apispec, not api, because
// gen/api is the generated package of that name.
package apispec

import (
	"bytes"
	_ "embed"
)

//go:embed openapi.yaml
var spec []byte

// YAML returns the OpenAPI document as written, byte for byte; each call gets its own copy, so
// no caller can change what another one serves.
func YAML() []byte { return bytes.Clone(spec) }

//go:embed docs.gen.html
var docs []byte

// DocsHTML returns the reference page rendered from the contract (internal/apidocs.Render, run
// by `make generate`; `make check-generated` and the apidocs tests fail when it is out of date);
// each call gets its own copy.
func DocsHTML() []byte { return bytes.Clone(docs) }
