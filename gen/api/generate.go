// Package api holds the types, the strict server interface and the embedded spec generated from
// api/openapi.yaml. Nothing here is edited by hand: run `make generate`.
package api

//go:generate sh -c "cd ../.. && go tool oapi-codegen -config gen/api/server.cfg.yaml api/openapi.yaml"
