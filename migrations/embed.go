// Package migrations holds the numbered goose SQL files of the schema, embedded in the binary.
//
// Files up to 00012 are numbered in sequence. Every later file is numbered by the UTC time it
// was written, YYYYMMDDHHMMSS (`goose create name sql` names it so), so that two branches never
// pick the same number; goose runs them out of order when a branch lands after a later one.
// A migration therefore depends only on the migrations that were on main when it was written,
// and has a Down that restores the schema exactly (TestMigrationsFromEverySchema).
package migrations

import "embed"

// FS holds every migration file; goose reads them from here.
//
//go:embed *.sql
var FS embed.FS
