// Package pgembed runs a PostgreSQL cluster of the program's own, from the server binaries
// installed on the machine, for `leadchat dev`, benchmarks and tests.
//
// The server is a child process: it listens on 127.0.0.1 only, keeps its unix socket inside the
// data folder, and on Linux shuts down by itself if this process dies without calling Stop.
package pgembed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrNotInstalled reports that no PostgreSQL server binaries were found on this machine.
var ErrNotInstalled = errors.New("PostgreSQL server binaries (initdb, postgres) not found")

// ErrAlreadyRunning reports that a server already runs on the data folder Start was given.
var ErrAlreadyRunning = errors.New("a PostgreSQL server already runs on this data folder")

// Options say where the cluster lives and how it runs.
type Options struct {
	// DataDir holds the cluster; it is created and initialized on first use and reused after.
	DataDir string
	// Port is the TCP port on 127.0.0.1; 0 picks a free one.
	Port int
	// Durable keeps PostgreSQL's crash safety; false turns off fsync, synchronous_commit and
	// full_page_writes, which is right for throwaway test clusters and wrong for anything else.
	Durable bool
	// Log receives a line for each step; the server's own log goes to server.log in DataDir.
	Log io.Writer
	// MaxConnections is the server's max_connections; 0 means DefaultMaxConnections.
	MaxConnections int
}

// DefaultMaxConnections is max_connections unless Options say otherwise: room for a service's
// pool and a package's parallel tests.
const DefaultMaxConnections = 200

// Cluster is a running server started by Start.
type Cluster struct {
	dataDir  string
	port     int
	logPath  string
	proc     *os.Process
	exited   chan struct{} // closed when the server process has been waited for
	exitErr  error         // set before exited is closed
	stopping atomic.Bool
}

// Start initializes DataDir if it holds no cluster yet, then starts the server and waits until
// it accepts connections.
func Start(ctx context.Context, opt Options) (*Cluster, error) {
	w := opt.Log
	if w == nil {
		w = io.Discard
	}
	bin, err := findBinaries(debianRoot)
	if err != nil {
		return nil, err
	}
	if opt.DataDir == "" {
		return nil, errors.New("pgembed: Options.DataDir is empty")
	}
	dir, err := filepath.Abs(opt.DataDir)
	if err != nil {
		return nil, err
	}
	acct, err := serverAccount()
	if err != nil {
		return nil, err
	}
	if err := prepareDir(dir, acct); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(w, "Initializing a new PostgreSQL cluster in %s ...\n", dir)
		if err := initCluster(ctx, bin, dir, acct, opt.Durable); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	if err := clearStaleLock(dir, w); err != nil {
		return nil, err
	}
	c, err := launch(ctx, bin, dir, acct, opt)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "PostgreSQL is ready on 127.0.0.1:%d (server log: %s)\n", c.port, c.logPath)
	return c, nil
}

// Remove deletes the cluster in dataDir, and the folder, so that the next Start initializes a
// new one; it refuses with ErrAlreadyRunning while a server runs on it.
func Remove(dataDir string) error {
	dir, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	if err := clearStaleLock(dir, io.Discard); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// DSN is the URL of database dbname on the cluster, as the superuser postgres.
func (c *Cluster) DSN(dbname string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, url.PathEscape(dbname))
}

// Port is the TCP port the server listens on.
func (c *Cluster) Port() int { return c.port }

// Stop shuts the server down the way `pg_ctl stop -m fast` does and waits for it to exit. When
// ctx ends first, the server is shut down immediately instead and recovers on its next start.
// Calling Stop again after it returned is a no-op.
func (c *Cluster) Stop(ctx context.Context) error {
	if !c.stopping.CompareAndSwap(false, true) {
		<-c.exited
		return nil
	}
	select {
	case <-c.exited:
		if c.exitErr == nil {
			return errors.New("PostgreSQL had stopped before Stop was called")
		}
		return fmt.Errorf("PostgreSQL had exited before Stop: %w\n%s", c.exitErr, logTail(c.logPath, 0))
	default:
	}
	// SIGINT is the fast shutdown: open transactions are rolled back, clients disconnected, and a
	// checkpoint written, so the next start needs no recovery.
	if err := c.proc.Signal(os.Interrupt); err != nil {
		c.proc.Kill()
	}
	select {
	case <-c.exited:
		if c.exitErr != nil {
			return fmt.Errorf("PostgreSQL shut down with %w\n%s", c.exitErr, logTail(c.logPath, 0))
		}
		return nil
	case <-ctx.Done():
	}
	// SIGQUIT is the immediate shutdown; SIGKILL is left for a server that ignores even that.
	c.proc.Signal(syscall.SIGQUIT)
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
		c.proc.Kill()
		<-c.exited
	}
	return fmt.Errorf("stopping PostgreSQL: %w; it was shut down immediately instead", ctx.Err())
}

// run runs a short-lived server program such as initdb as the server's account, returning
// its combined output for error messages.
func run(ctx context.Context, acct *account, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = sysProcAttr(acct)
	return cmd.CombinedOutput()
}
