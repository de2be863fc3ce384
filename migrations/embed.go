// Package migrations holds the numbered goose SQL files of the schema, embedded in the binary.
package migrations

import "embed"

// FS holds every migration file; goose reads them from here.
//
//go:embed *.sql
var FS embed.FS
