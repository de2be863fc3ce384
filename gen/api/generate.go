// Package api holds the types, the strict server interface and the embedded spec generated from
// api/openapi.yaml. Nothing here is edited by hand: run `make generate`.
package api

//go:generate go tool oapi-codegen -config server.cfg.yaml ../../api/openapi.yaml
