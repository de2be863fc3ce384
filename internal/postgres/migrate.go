package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/leadchat/leadchat/migrations"
)

// newProvider builds a goose provider over the embedded migrations. A provider instead of
// goose's package-level functions keeps the project free of global state. Out-of-order applying
// is on because migrations are numbered by the time they were written (see migrations.FS):
// branches land in any order, so a database may already hold a later number than a migration
// that lands after it, and that migration must still run.
func newProvider(db *sql.DB) (*goose.Provider, error) {
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithLogger(goose.NopLogger()), goose.WithAllowOutofOrder(true))
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// newRiverMigrator migrates the tables of River, the job queue that delivers lead events
// (river_job and the rest); River keeps its own version table.
func newRiverMigrator(db *sql.DB) (*rivermigrate.Migrator[*sql.Tx], error) {
	m, err := rivermigrate.New(riverdatabasesql.New(db), nil)
	if err != nil {
		return nil, fmt.Errorf("river migrations: %w", err)
	}
	return m, nil
}

// Migrate applies every pending migration, River's and then ours, and reports what it applied
// to w. River's come first: its tables stand alone, and ours shape River's indexes.
func Migrate(ctx context.Context, db *sql.DB, w io.Writer) error {
	rm, err := newRiverMigrator(db)
	if err != nil {
		return err
	}
	res, err := rm.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return fmt.Errorf("applying River's migrations: %w", err)
	}
	for _, v := range res.Versions {
		fmt.Fprintf(w, "migrated river %03d_%s\n", v.Version, v.Name)
	}
	p, err := newProvider(db)
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("applying migrations: %w", err)
	}
	for _, r := range results {
		fmt.Fprintf(w, "migrated %s\n", r.Source.Path)
	}
	return nil
}

// SchemaCurrent reports an error when the database lacks a migration this binary knows, ours
// or River's.
func SchemaCurrent(ctx context.Context, db *sql.DB) error {
	p, err := newProvider(db)
	if err != nil {
		return err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return fmt.Errorf("checking migrations: %w", err)
	}
	behind := fmt.Errorf("the database schema is behind this binary: run `leadchat migrate`")
	if pending {
		return behind
	}
	rm, err := newRiverMigrator(db)
	if err != nil {
		return err
	}
	v, err := rm.Validate(ctx, nil)
	if err != nil {
		return fmt.Errorf("checking River's migrations: %w", err)
	}
	if !v.OK {
		return behind
	}
	return nil
}
