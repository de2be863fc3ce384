// Package postgres is the PostgreSQL store of companies, keys and leads: raw SQL beside the Go
// that runs it, the company id in every query that touches a company's data.
package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
)

// Store runs the service's queries over one connection pool.
type Store struct {
	db    *sqlx.DB
	dsn   string
	stmts sync.Map // query -> *sqlx.Stmt
	// binaryParams is lib/pq's binary_parameters on every connection (leadsParam).
	binaryParams bool
	// schemaCurrent is set once Ready found every migration applied.
	schemaCurrent atomic.Bool
	// leads and turns group lead creates and chat turns (group.go).
	leads *groupWriter[leadCreate, lead.Created]
	turns *groupWriter[turnWrite, bool]
	// fileReads holds a token for each lead page's read running (fileTurn).
	fileReads chan struct{}
	// team keeps the lists of who is in a company (team.go).
	team teamCache
}

// Options tune the connection pool.
type Options struct {
	// MaxOpenConns bounds the pool; 0 means 32.
	MaxOpenConns int
	// StatementTimeout bounds every statement on the server side; 0 means 5 s.
	StatementTimeout time.Duration
	// LeadBatch is the most writes one group stores (group.go): lead creates, and chat turns
	// that change no lead; 0 means DefaultLeadBatch, 1 stores every write in a group (and
	// transaction) of its own.
	LeadBatch int
	// LeadWriters is how many groups of each kind may be stored at once, the writers splitting
	// the companies between them (group.go); 0 means DefaultLeadWriters.
	LeadWriters int
	// FileReads is how many lead pages' reads (LeadFile, FindViewerLeadFileCtx) run at once,
	// the others waiting their turn in arrival order (fileTurn); 0 means twice GOMAXPROCS.
	FileReads int
	// AsyncCommit lets a commit return before its record is flushed to disk
	// (synchronous_commit=off): a crash may lose the last moments' commits, never a part of
	// one. Only for work whose loss is made up for by doing it again.
	AsyncCommit bool
}

const (
	DefaultLeadBatch = 64
	// DefaultLeadWriters is one: it makes the largest groups and so the least work per lead,
	// one group's commit flushed while the next gathers (make bench). More writers store groups
	// at once, each of a smaller share of the writes, so each lead costs the database more
	// statements and commits: that may pay on a database server with many cores.
	DefaultLeadWriters = 1
)

// Open connects to dsn and sets statement and lock timeouts on every connection, so a stuck
// query or lock fails instead of hanging a request.
func Open(ctx context.Context, dsn string, opt Options) (*Store, error) {
	if opt.MaxOpenConns == 0 {
		opt.MaxOpenConns = 32
	}
	if opt.StatementTimeout == 0 {
		opt.StatementTimeout = 5 * time.Second
	}
	full, err := withRuntimeParams(dsn, opt.StatementTimeout)
	if err != nil {
		return nil, err
	}
	if opt.AsyncCommit {
		if full, err = withSetting(full, "synchronous_commit", "off"); err != nil {
			return nil, err
		}
	}
	cfg, err := pq.NewConfig(full)
	if err != nil {
		return nil, fmt.Errorf("opening database: %w", err)
	}
	c, err := pq.NewConnectorConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("opening database: %w", err)
	}
	c.Dialer(newDialer())
	db := sqlx.NewDb(sql.OpenDB(connector{c}), "postgres")
	db.SetMaxOpenConns(opt.MaxOpenConns)
	db.SetMaxIdleConns(opt.MaxOpenConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connecting to database: %w", err)
	}
	// A list page reads the texts as bytea (sentTexts), in the database's encoding, which
	// lib/pq's client encoding, UTF8, must therefore be.
	var encoding string
	if err := db.QueryRowContext(pingCtx, "SHOW server_encoding").Scan(&encoding); err != nil {
		db.Close()
		return nil, fmt.Errorf("connecting to database: %w", err)
	}
	if encoding != "UTF8" {
		db.Close()
		return nil, fmt.Errorf("database encoding is %s, not UTF8", encoding)
	}
	if opt.FileReads == 0 {
		opt.FileReads = 2 * runtime.GOMAXPROCS(0)
	}
	s := &Store{db: db, dsn: dsn, binaryParams: cfg.BinaryParameters, fileReads: make(chan struct{}, opt.FileReads),
		team: newTeamCache()}
	if opt.LeadBatch == 0 {
		opt.LeadBatch = DefaultLeadBatch
	}
	if opt.LeadWriters == 0 {
		opt.LeadWriters = DefaultLeadWriters
	}
	s.leads = startGroupWriter(opt.LeadWriters, opt.LeadBatch, func(c leadCreate) uuid.UUID { return c.companyID }, func(ctx context.Context, group []leadCreate) ([]lead.Created, error) {
		return storeLeads(ctx, runner{s: s}, group)
	})
	s.turns = startGroupWriter(opt.LeadWriters, opt.LeadBatch, func(t turnWrite) uuid.UUID { return t.CompanyID }, func(ctx context.Context, group []turnWrite) ([]bool, error) {
		return storeTurns(ctx, runner{s: s}, group)
	})
	return s, nil
}

// withRuntimeParams adds statement_timeout and lock_timeout to a URL or key=value DSN unless
// it sets them itself (lib/pq passes unknown parameters to the server as settings), and
// binary_parameters, with which lib/pq sends a statement with its arguments in one round trip
// instead of preparing it first in another. Several hosts (a primary and its standbys, with
// target_session_attrs=read-write so only the primary is used) are accepted in key=value form
// only.
func withRuntimeParams(dsn string, timeout time.Duration) (string, error) {
	ms := fmt.Sprint(timeout.Milliseconds())
	lock := fmt.Sprint((timeout / 2).Milliseconds())
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		// A key=value DSN: lib/pq lets a later key override an earlier one, so add only what
		// the DSN does not set itself.
		if !strings.Contains(dsn, "binary_parameters=") {
			dsn += " binary_parameters=yes"
		}
		if !strings.Contains(dsn, "statement_timeout=") {
			dsn += " statement_timeout=" + ms
		}
		if !strings.Contains(dsn, "lock_timeout=") {
			dsn += " lock_timeout=" + lock
		}
		return dsn, nil
	}
	if strings.Contains(u.Host, ",") {
		return "", errors.New("DATABASE_URL names several hosts in URL form, which lib/pq misreads " +
			"(it takes \"a:5432,b:5432\" for one host name): use the key=value form, e.g. " +
			"host=a,b port=5432,5432 dbname=leadchat user=leadchat target_session_attrs=read-write connect_timeout=3")
	}
	q := u.Query()
	if q.Get("binary_parameters") == "" {
		q.Set("binary_parameters", "yes")
	}
	if q.Get("statement_timeout") == "" {
		q.Set("statement_timeout", ms)
	}
	if q.Get("lock_timeout") == "" {
		q.Set("lock_timeout", lock)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// withSetting adds a server setting to a DSN that withRuntimeParams accepted.
func withSetting(dsn, name, value string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return dsn + " " + name + "=" + value, nil
	}
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// OpenPlain connects a pool of at most maxConns to dsn for a library that sends its own
// parameter types (River, the job queue): the same timeouts as Open, without lib/pq's
// binary_parameters, with which a []byte argument would reach a jsonb column in the wrong
// format.
func OpenPlain(dsn string, maxConns int) (*sql.DB, error) {
	full, err := withRuntimeParams(dsn, 5*time.Second)
	if err != nil {
		return nil, err
	}
	full = strings.Replace(full, "binary_parameters=yes", "binary_parameters=no", 1)
	db, err := sql.Open("postgres", full)
	if err != nil {
		return nil, fmt.Errorf("opening database: %w", err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return db, nil
}

// connector opens the pool's connections. A connection that cannot be opened is the database
// being unavailable, whatever the reason: with several hosts, lib/pq's error when none of them
// takes writes (mid-failover, the old primary demoted and the new one not yet promoted) holds no
// network error that translate could recognise.
type connector struct{ *pq.Connector }

// Connect opens a connection, or fails with errs.Unavailable wrapping why not.
func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, errs.Wrap(errs.Unavailable, errs.CodeUnavailable, err)
	}
	return conn, nil
}

// DB is the underlying pool, for migrations and health checks.
func (s *Store) DB() *sql.DB { return s.db.DB }

// Close stops the group writers, once the groups in hand are stored, and closes the pool.
func (s *Store) Close() error {
	s.leads.close()
	s.turns.close()
	s.closeStmts()
	return s.db.Close()
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return translate(s.db.PingContext(ctx))
}

// Ready reports whether the database answers and its schema is current. A schema once current
// stays so (migrations only go forward), so it is checked until it first is: a balancer's health
// check then costs one ping, not a parse of every migration file.
func (s *Store) Ready(ctx context.Context) error {
	if err := s.Ping(ctx); err != nil {
		return err
	}
	if s.schemaCurrent.Load() {
		return nil
	}
	if err := SchemaCurrent(ctx, s.db.DB); err != nil {
		return err
	}
	s.schemaCurrent.Store(true)
	return nil
}

// translate maps driver errors to the service's error kinds, once, here: no rows is not found,
// a unique violation a conflict, and a lost connection unavailable. The original error stays
// wrapped for the logs.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return errs.Wrap(errs.NotFound, errs.CodeNotFound, err)
	}
	var pqErr *pq.Error
	if errors.As(err, &pqErr) {
		switch {
		case pqErr.Code == "23505":
			// A unique violation no caller expected: its kind lets the store's own callers tell
			// it apart, and to a client it is a server error, as the contract has no code for it.
			return errs.Wrap(errs.Conflict, errs.CodeInternal, err)
		case pqErr.Code == "57014" || pqErr.Code == "55P03": // statement or lock timeout
			return errs.Wrap(errs.Unavailable, errs.CodeUnavailable, err)
		case pqErr.Code.Class() == "08" || pqErr.Code.Class() == "57" || pqErr.Code.Class() == "53":
			return errs.Wrap(errs.Unavailable, errs.CodeUnavailable, err)
		}
		return err
	}
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, sql.ErrConnDone) || errors.Is(err, driver.ErrBadConn) {
		return errs.Wrap(errs.Unavailable, errs.CodeUnavailable, err)
	}
	return err
}
