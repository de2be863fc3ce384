// Package apispec holds api/openapi.yaml, the contract, embedded in the binary so the service can
// serve the very file its code was generated from. It is named apispec, not api, because
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
