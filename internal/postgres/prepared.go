package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// The hot statements (a lead create, a chat turn) run prepared: PostgreSQL then parses and
// plans each once per connection instead of on every request, which was most of its CPU time
// per lead (make bench). database/sql prepares a statement again on each new connection, so a
// database restart needs nothing from us.

// stmt returns query prepared on the pool, preparing it on first use (after migrations ran).
func (s *Store) stmt(ctx context.Context, query string) (*sqlx.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sqlx.Stmt), nil
	}
	st, err := s.db.PreparexContext(ctx, query)
	if err != nil {
		return nil, translate(err)
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sqlx.Stmt), nil
	}
	return st, nil
}

// runner runs prepared statements on the pool, or in a transaction when tx is set.
type runner struct {
	s  *Store
	tx *sqlx.Tx
}

// hotQueries are prepared by Prepare, at start: a transaction must not prepare on the pool,
// which would take a second connection while it holds one (and deadlock a full pool).
var hotQueries = []string{
	insertLeadsFor[0][0], insertLeadsFor[0][1], insertLeadsFor[1][0], insertLeadsFor[1][1], lockIdempotencyKey, selectIdempotencyKey, readTurn, saveTurns, updateLeadContact,
	selectDeliveryLead, recordAttempt, dispatchEvents, takeSlotRead,
}

// Prepare prepares the hot statements; call it after the migrations.
func (s *Store) Prepare(ctx context.Context) error {
	for _, q := range hotQueries {
		if _, err := s.stmt(ctx, q); err != nil {
			return fmt.Errorf("preparing statements: %w", err)
		}
	}
	return nil
}

// prepared returns the statement for query, or nil inside a transaction when it was not
// prepared at start (then it runs unprepared on the transaction's connection).
func (r runner) prepared(ctx context.Context, query string) (*sqlx.Stmt, error) {
	if r.tx == nil {
		return r.s.stmt(ctx, query)
	}
	if st, ok := r.s.stmts.Load(query); ok {
		return r.tx.StmtxContext(ctx, st.(*sqlx.Stmt)), nil
	}
	return nil, nil
}

func (r runner) get(ctx context.Context, dest any, query string, args ...any) error {
	st, err := r.prepared(ctx, query)
	switch {
	case err != nil:
		return err
	case st == nil:
		return translate(r.tx.GetContext(ctx, dest, query, args...))
	}
	return translate(st.GetContext(ctx, dest, args...))
}

func (r runner) selectAll(ctx context.Context, dest any, query string, args ...any) error {
	st, err := r.prepared(ctx, query)
	switch {
	case err != nil:
		return err
	case st == nil:
		return translate(r.tx.SelectContext(ctx, dest, query, args...))
	}
	return translate(st.SelectContext(ctx, dest, args...))
}

// query runs query and returns its rows, for a caller that scans them itself.
func (r runner) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := r.prepared(ctx, query)
	var rows *sql.Rows
	switch {
	case err != nil:
		return nil, err
	case st == nil:
		rows, err = r.tx.QueryContext(ctx, query, args...)
	default:
		rows, err = st.QueryContext(ctx, args...)
	}
	return rows, translate(err)
}

// closeStmts closes the prepared statements.
func (s *Store) closeStmts() error {
	var first error
	s.stmts.Range(func(k, v any) bool {
		if err := v.(*sqlx.Stmt).Close(); err != nil && first == nil {
			first = fmt.Errorf("closing a prepared statement: %w", err)
		}
		return true
	})
	return first
}

// HotSQL is the SQL of the hot paths, for `make bench`'s database ceilings to run exactly it.
// InsertLeads is the form that stores leads without referral data or an idempotency key.
type HotSQL struct {
	InsertLeads, ReadTurn, SaveTurns string
}

// Hot returns the hot paths' SQL.
func Hot() HotSQL {
	return HotSQL{InsertLeads: insertLeadsFor[0][0], ReadTurn: readTurn, SaveTurns: saveTurns}
}
