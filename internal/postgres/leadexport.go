package postgres

import (
	"context"
	"database/sql"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
)

// lockExportSlot takes slot $2 of company $1's exports if it is free. The lock belongs to the
// export's transaction, so it is released however the export ends, on every instance's view
// at once: PostgreSQL holds it, not the instance that took it.
const lockExportSlot = `SELECT pg_try_advisory_xact_lock(hashtextextended('lead export ' || $1::text, $2))`

// ExportLeads calls each with every lead of the company that f selects, newest first (f.Limit
// and f.After are ignored), and stops at the first error each returns, which it returns. At
// most limits.ExportsPerCompany exports of a company run at once; past that it returns a
// RateLimited error before calling each.
//
// One read-only transaction holds the export's slot and reads its leads, a keyset page of
// limits.ListMax at a time: each page is a short statement, which the statement timeout never
// cuts however long the export takes to write, and the export holds one connection of the pool,
// not one for its slot and one for its reads. Between pages the transaction is idle and holds
// no snapshot, so a slow reader keeps no row versions from vacuum.
func (s *Store) ExportLeads(ctx context.Context, companyID uuid.UUID, f lead.Filter, each func(lead.Stored) error) error {
	f.Limit, f.After = limits.ListMax, nil
	f, err := f.Check()
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return translate(err)
	}
	// Read only: ending it by a rollback keeps nothing from anyone, and releases the slot.
	defer func() { _ = tx.Rollback() }()
	if err := takeExportSlot(ctx, tx, companyID); err != nil {
		return err
	}
	stmts := map[string]*sql.Stmt{}
	for {
		page, err := s.exportPage(ctx, tx, stmts, companyID, f)
		if err != nil {
			return err
		}
		for _, l := range page.Leads {
			if err := each(l); err != nil {
				return err
			}
		}
		if page.Next == nil {
			return nil
		}
		f.After = page.Next
	}
}

// takeExportSlot takes the first free of the company's export slots for tx.
func takeExportSlot(ctx context.Context, tx *sql.Tx, companyID uuid.UUID) error {
	for slot := range limits.ExportsPerCompany {
		var ok bool
		if err := tx.QueryRowContext(ctx, lockExportSlot, companyID, slot).Scan(&ok); err != nil {
			return translate(err)
		}
		if ok {
			return nil
		}
	}
	return errs.E(errs.RateLimited, errs.CodeRateLimited)
}

// exportPage reads one page of the list on tx. A page of a list that is kept prepared
// (listPrepared) runs a statement prepared on tx's connection, once for the export, in stmts:
// parsing and planning the page's statement again for every 200 leads was a part of an
// export's PostgreSQL CPU. It is prepared on the transaction, not taken from the pool's
// statements, which would take a second connection to prepare while the export holds one.
func (s *Store) exportPage(ctx context.Context, tx *sql.Tx, stmts map[string]*sql.Stmt, companyID uuid.UUID, f lead.Filter) (lead.Page, error) {
	search, err := searchOf(ctx, tx, companyID, f.Text)
	if err != nil {
		return lead.Page{}, err
	}
	query, args := listQuery(companyID, f, search)
	var rows *sql.Rows
	if listPrepared(f) {
		st, ok := stmts[query]
		if !ok {
			if st, err = tx.PrepareContext(ctx, query); err != nil {
				return lead.Page{}, translate(err)
			}
			stmts[query] = st // closed with the transaction
		}
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = tx.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return lead.Page{}, translate(err)
	}
	return readPage(rows, f.Limit)
}
