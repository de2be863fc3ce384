// Package pgtest is the test harness for code that needs PostgreSQL: one throwaway cluster per
// test process, started by Main, and a fresh database per test, cloned from a template that
// holds every migration.
//
// When LEADCHAT_TEST_DATABASE_URL is set, its server is used instead of a cluster of our own;
// its user must be allowed to CREATE DATABASE, and the server must be PostgreSQL 13 or later.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // the "postgres" driver

	"github.com/leadchat/leadchat/internal/pgembed"
)

// EnvURL names the variable holding the DSN of an existing server to test against.
const EnvURL = "LEADCHAT_TEST_DATABASE_URL"

// harness is what Main sets up for the tests of one process; only seq changes after setup.
type harness struct {
	admin    *sql.DB // creates and drops the test databases
	baseDSN  string  // NewDSN swaps the database name in it
	template string
	prefix   string // of every test database's name, unique to this process
	seq      atomic.Uint64
}

// current is the harness of this test process: test-only state, set by Main around m.Run.
var (
	mu      sync.Mutex
	current *harness
)

// Main runs the tests of a package that needs PostgreSQL; call it from TestMain. Without a
// server to test against it fails the run: a missing PostgreSQL never skips tests silently.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if !flag.Parsed() {
		flag.Parse()
	}
	var progress io.Writer = io.Discard
	if testing.Verbose() {
		progress = os.Stderr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	h, teardown, err := setUp(ctx, progress)
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: these tests need PostgreSQL: %v\n", err)
		if errors.Is(err, pgembed.ErrNotInstalled) {
			fmt.Fprintf(os.Stderr, "pgtest: or set %s to a server whose user may CREATE DATABASE\n", EnvURL)
		}
		return 1
	}
	var once sync.Once
	var teardownErr error
	finish := func() error {
		once.Do(func() { teardownErr = teardown() })
		return teardownErr
	}
	// An interrupted run still stops its server and removes its folder, which may be in memory.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		sig := <-sigs
		fmt.Fprintf(os.Stderr, "pgtest: %v: cleaning up\n", sig)
		finish()
		os.Exit(1)
	}()

	mu.Lock()
	current = h
	mu.Unlock()

	code := m.Run()

	mu.Lock()
	current = nil
	mu.Unlock()
	if err := finish(); err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// NewDSN creates a fresh database with every migration applied and returns its DSN; the
// database is dropped when the test ends. It is for tests that start the whole service from a
// DSN; tests that query directly use New.
func NewDSN(t testing.TB) string {
	t.Helper()
	return newDSN(t, "")
}

// NewBareDSN is NewDSN of an empty database, without migrations, made with CREATE DATABASE's
// options opts (e.g. "ENCODING 'LATIN2' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0").
func NewBareDSN(t testing.TB, opts string) string {
	t.Helper()
	return newDSN(t, opts)
}

// newDSN is NewDSN, of a database made with opts, or from the template for "".
func newDSN(t testing.TB, opts string) string {
	t.Helper()
	mu.Lock()
	h := current
	mu.Unlock()
	if h == nil {
		t.Fatal("pgtest: no PostgreSQL set up: call pgtest.Main(m) from the package's TestMain")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name, err := h.create(ctx, opts)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := h.drop(ctx, name); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return withDBName(h.baseDSN, name)
}

// create makes a database of a name no other test uses, with CREATE DATABASE's options opts,
// or as a copy of the template for "".
func (h *harness) create(ctx context.Context, opts string) (string, error) {
	name := fmt.Sprintf("%s_%d", h.prefix, h.seq.Add(1))
	if opts == "" {
		opts = "TEMPLATE " + quoteIdent(h.template)
	}
	if _, err := h.admin.ExecContext(ctx, "CREATE DATABASE "+quoteIdent(name)+" "+opts); err != nil {
		return "", fmt.Errorf("creating database %s: %w", name, err)
	}
	return name, nil
}

// drop removes a test database; FORCE ends the sessions a test left open, such as a service's
// change listener.
func (h *harness) drop(ctx context.Context, name string) error {
	if _, err := h.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+quoteIdent(name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("dropping database %s: %w", name, err)
	}
	return nil
}

// New creates a fresh database with every migration applied and connects to it; the
// connection is closed and the database dropped when the test ends.
func New(t testing.TB) *sqlx.DB {
	t.Helper()
	db, err := sqlx.Open("postgres", NewDSN(t))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// withDBName points a URL or key=value DSN at database name.
func withDBName(dsn, name string) string {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		// In a key=value DSN lib/pq lets a later key override an earlier one.
		return dsn + " dbname=" + name
	}
	u.Path, u.RawPath = "/"+name, ""
	q := u.Query()
	if q.Has("dbname") {
		q.Del("dbname")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// quoteIdent quotes a database name for SQL, where it cannot be a parameter.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
