package postgres

import (
	"context"
	"database/sql"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// GroupCreate is one create of a group StoreGroup stores.
type GroupCreate struct {
	Ctx       context.Context
	CompanyID uuid.UUID
	Lead      lead.Lead
	Limit     *int
}

// StoreGroup stores creates as a lead writer stores one group it took from the queue, and
// returns each one's outcome in order.
func StoreGroup(s *Store, creates []GroupCreate) ([]lead.Created, []error) {
	group := make([]*pending[leadCreate, lead.Created], len(creates))
	for i, c := range creates {
		group[i] = &pending[leadCreate, lead.Created]{ctx: c.Ctx,
			in: leadCreate{companyID: c.CompanyID, lead: c.Lead, limit: c.Limit}, done: make(chan result[lead.Created], 1)}
	}
	s.leads.write(group)
	created, errs := make([]lead.Created, len(group)), make([]error, len(group))
	for i, p := range group {
		r := <-p.done
		created[i], errs[i] = r.out, r.err
	}
	return created, errs
}

// StoreTurnGroup stores chat turns as a turn writer stores one group it took from the queue,
// and returns each one's outcome in order.
func StoreTurnGroup(s *Store, companyID uuid.UUID, writes []chat.Write) []error {
	group := make([]*pending[turnWrite, bool], len(writes))
	for i, w := range writes {
		group[i] = &pending[turnWrite, bool]{ctx: context.Background(), in: newTurnWrite(companyID, w),
			done: make(chan result[bool], 1)}
	}
	s.turns.write(group)
	out := make([]error, len(group))
	for i, p := range group {
		r := <-p.done
		out[i] = lostRace(r.out, r.err)
	}
	return out
}

// Erase deletes a company's leads and records their erasure, in one transaction, the way the
// erasure of the lead API does.
func Erase(s *Store, companyID uuid.UUID, ids []uuid.UUID) error {
	ctx := context.Background()
	return s.inTx(ctx, func(tx *sqlx.Tx) error {
		strs := make([]string, len(ids))
		for i, id := range ids {
			strs[i] = id.String()
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM leads WHERE company_id = $1 AND id = ANY ($2::uuid[])`,
			companyID, pq.StringArray(strs)); err != nil {
			return err
		}
		return recordErased(ctx, runner{s: s, tx: tx}, companyID, ids)
	})
}

// MigrateTo applies or rolls back our migrations (not River's) to version.
func MigrateTo(ctx context.Context, db *sql.DB, version int64) error {
	p, err := newProvider(db)
	if err != nil {
		return err
	}
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return err
	}
	if version >= current {
		_, err = p.UpTo(ctx, version)
	} else {
		_, err = p.DownTo(ctx, version)
	}
	return err
}

// ListQuery is the statement and arguments ListLeads runs for one page of f.
func (s *Store) ListQuery(ctx context.Context, companyID uuid.UUID, f lead.Filter) (string, []any, error) {
	f, err := f.Check()
	if err != nil {
		return "", nil, err
	}
	search, err := searchOf(ctx, s.db, companyID, f.Text)
	if err != nil {
		return "", nil, err
	}
	q, args := listQuery(companyID, f, search)
	return q, args, nil
}

// MigrationVersions lists the versions of our migrations, oldest first.
func MigrationVersions(db *sql.DB) ([]int64, error) {
	p, err := newProvider(db)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, s := range p.ListSources() {
		out = append(out, s.Version)
	}
	return out, nil
}

// OpenWrite is a chat write made in a transaction left open: what it locked stays locked and
// its message is not yet visible to anyone else until Commit.
type OpenWrite struct {
	tx *sqlx.Tx
	// PID is the transaction's server process, for pg_blocking_pids.
	PID int
}

// Commit commits the write.
func (w *OpenWrite) Commit() error { return w.tx.Commit() }

// Rollback ends the write without it.
func (w *OpenWrite) Rollback() error { return w.tx.Rollback() }

func openWrite(ctx context.Context, s *Store, write func(*sqlx.Tx) error) (*OpenWrite, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	w := &OpenWrite{tx: tx}
	if err := tx.GetContext(ctx, &w.PID, `SELECT pg_backend_pid()`); err != nil {
		tx.Rollback()
		return nil, err
	}
	if err := write(tx); err != nil {
		tx.Rollback()
		return nil, err
	}
	return w, nil
}

// AgentMessageOpen makes AgentMessage's write in a transaction left open.
func AgentMessageOpen(ctx context.Context, s *Store, companyID uuid.UUID, sessionID string, agent chat.Agent, text string) (*OpenWrite, error) {
	return openWrite(ctx, s, func(tx *sqlx.Tx) error {
		var row messageRow
		return tx.GetContext(ctx, &row, insertAgentMessage, companyID, sessionID, agent.ID, text, agent.Name)
	})
}

// TurnOpen makes a chat turn's write in a transaction left open.
func TurnOpen(ctx context.Context, s *Store, companyID uuid.UUID, w chat.Write) (*OpenWrite, error) {
	return openWrite(ctx, s, func(tx *sqlx.Tx) error {
		stored, err := storeTurns(ctx, runner{s: s, tx: tx}, []turnWrite{newTurnWrite(companyID, w)})
		if err == nil && !stored[0] {
			return errs.E(errs.Conflict, errs.CodeSessionBusy)
		}
		return err
	})
}

// SelectLeadFile is the lead page's statement, for tests of its plans.
const SelectLeadFile = selectLeadFile

// FindSessionLeadFile is the lead page's session lookup, for tests of its plans.
const FindSessionLeadFile = findSessionLeadFile

// FindSessionTeamlessLeadFile is the lead page's session lookup while the team cache is live.
const FindSessionTeamlessLeadFile = findSessionTeamlessLeadFile

// WriterOf is the lead writer, of n, that stores a company's creates.
func WriterOf(companyID uuid.UUID, n int) int { return writerOf(companyID, n) }

// QueuedLeads is how many lead creates wait in the writers' queues.
func QueuedLeads(s *Store) int {
	n := 0
	for _, q := range s.leads.queues {
		n += len(q)
	}
	return n
}

// ReadLeadsWith runs query, $1 the company, and reads its rows, of leadColumns, as the lead
// reads read theirs.
func ReadLeadsWith(ctx context.Context, s *Store, query string, companyID uuid.UUID) ([]lead.Stored, error) {
	rows, err := s.db.QueryContext(ctx, query, companyID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []lead.Stored
	var r leadRecord
	for rows.Next() {
		if err := rows.Scan(r.dest()...); err != nil {
			return nil, err
		}
		l, err := r.stored()
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// InsertLeadsSQL is the form of insertLeads that stores creates without referral data or an
// Idempotency-Key, as make bench's lead step sends them.
var InsertLeadsSQL = insertLeadsFor[0][0]

// LeadsJSON is insertLeads' $1 for leads, the i-th of companyIDs[i], without limits or keys.
func LeadsJSON(companyIDs []uuid.UUID, leads []lead.Lead) string {
	creates := make([]leadCreate, len(leads))
	for i, l := range leads {
		creates[i] = leadCreate{companyID: companyIDs[i], lead: l}
	}
	return string(leadsJSON(leadRows(creates)))
}

// RecordArray is the lead file's recordArray of cols fields a record, for the tests of what
// PostgreSQL writes.
type RecordArray struct{ a recordArray }

func NewRecordArray(cols int) *RecordArray              { return &RecordArray{recordArray{cols: cols}} }
func (r *RecordArray) Scan(src any) error               { return r.a.Scan(src) }
func (r *RecordArray) Len() int                         { return r.a.len() }
func (r *RecordArray) Text(i, j int) string             { return r.a.text(i, j) }
func (r *RecordArray) Bool(i, j int) (bool, error)      { return r.a.bool(i, j) }
func (r *RecordArray) Time(i, j int) (time.Time, error) { return r.a.time(i, j) }
func (r *RecordArray) UUID(i, j int) (uuid.UUID, error) { return r.a.uuid(i, j) }

// FileTurn takes a turn of the lead pages' reads as LeadFile does; EndFileTurn ends it.
func (s *Store) FileTurn(ctx context.Context) error { return s.fileTurn(ctx) }

func (s *Store) EndFileTurn() { s.endFileTurn() }
