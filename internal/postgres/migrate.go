package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"github.com/pressly/goose/v3"

	"github.com/leadchat/leadchat/migrations"
)

// newProvider builds a goose provider over the embedded migrations. A provider instead of
// goose's package-level functions keeps the project free of global state.
func newProvider(db *sql.DB) (*goose.Provider, error) {
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithLogger(goose.NopLogger()))
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// Migrate applies every pending migration and reports what it applied to w.
func Migrate(ctx context.Context, db *sql.DB, w io.Writer) error {
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

// SchemaCurrent reports an error when the database lacks a migration this binary knows.
func SchemaCurrent(ctx context.Context, db *sql.DB) error {
	p, err := newProvider(db)
	if err != nil {
		return err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return fmt.Errorf("checking migrations: %w", err)
	}
	if pending {
		return fmt.Errorf("the database schema is behind this binary: run `leadchat migrate`")
	}
	return nil
}
