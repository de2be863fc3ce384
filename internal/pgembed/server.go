package pgembed

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// readyTimeout bounds the wait for a starting server when ctx has no earlier deadline; crash
// recovery of a big dev cluster is the slowest start expected.
const readyTimeout = 2 * time.Minute

// launch starts the server on dir and waits until it accepts connections. With Port 0 it picks a
// free port, and picks again if another process took the port in between.
func launch(ctx context.Context, bin binaries, dir string, acct *account, opt Options) (*Cluster, error) {
	logPath := filepath.Join(dir, "server.log")
	for attempt := 1; ; attempt++ {
		port := opt.Port
		if port == 0 {
			p, err := freePort()
			if err != nil {
				return nil, err
			}
			port = p
		}
		c, err := startServer(ctx, bin, dir, acct, port, opt, logPath)
		if err == nil {
			return c, nil
		}
		if opt.Port != 0 || attempt == 5 || !errors.Is(err, errPortTaken) {
			return nil, err
		}
	}
}

// errPortTaken marks a start that failed because the port was in use.
var errPortTaken = errors.New("port in use")

func startServer(ctx context.Context, bin binaries, dir string, acct *account, port int, opt Options, logPath string) (*Cluster, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the server log: %w", err)
	}
	defer logFile.Close()
	if acct != nil {
		if err := os.Chown(logPath, acct.uid, acct.gid); err != nil {
			return nil, err
		}
	}
	fi, err := logFile.Stat()
	if err != nil {
		return nil, err
	}
	logStart := fi.Size()

	// The server is not tied to ctx: ctx bounds the start, and the server outlives it until Stop.
	cmd := exec.Command(bin.postgres, serverArgs(dir, port, opt.Durable, cmp.Or(opt.MaxConnections, DefaultMaxConnections))...)
	cmd.Dir = dir
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = sysProcAttr(acct)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin.postgres, err)
	}
	c := &Cluster{dataDir: dir, port: port, logPath: logPath, proc: cmd.Process, exited: make(chan struct{})}
	go func() {
		c.exitErr = cmd.Wait()
		close(c.exited)
	}()

	waitCtx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !c.ready() {
		select {
		case <-c.exited:
			tail := logTail(logPath, logStart)
			if strings.Contains(tail, "could not bind") || strings.Contains(tail, "could not create any TCP/IP sockets") {
				return nil, fmt.Errorf("PostgreSQL could not listen on 127.0.0.1:%d (%w):\n%s", port, errPortTaken, tail)
			}
			return nil, fmt.Errorf("PostgreSQL exited while starting (%w); its log says:\n%s", c.exitErr, tail)
		case <-waitCtx.Done():
			c.Stop(context.Background())
			return nil, fmt.Errorf("waiting for PostgreSQL to start: %w\n%s", waitCtx.Err(), logTail(logPath, logStart))
		case <-tick.C:
		}
	}
	return c, nil
}

// serverArgs pass every setting on the command line, so a data folder made by anyone else is
// used as it is and never needs its configuration files edited.
func serverArgs(dir string, port int, durable bool, maxConns int) []string {
	args := []string{"-D", dir, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1",
		"-c", "max_connections=" + strconv.Itoa(maxConns),
		"-c", "unix_socket_directories=" + socketDirs(dir),
	}
	if !durable {
		// A small max_wal_size keeps a test cluster on a memory file system small: test
		// databases are copied through the WAL, and checkpoints cost little without fsync.
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
			"-c", "max_wal_size=128MB", "-c", "min_wal_size=32MB")
	}
	return args
}

// socketDirs keeps the unix socket inside the data folder, away from /var/run/postgresql and a
// system server's socket; a folder too deep for a socket path gets no socket, since clients
// connect over TCP anyway.
func socketDirs(dir string) string {
	const maxSocketPath = 107 // sizeof(sun_path) on Linux, less the terminating NUL
	if len(dir)+len("/.s.PGSQL.65535.lock") > maxSocketPath {
		return ""
	}
	return `"` + strings.ReplaceAll(dir, `"`, `""`) + `"`
}

// ready reports whether postmaster.pid names this server and says it accepts connections.
func (c *Cluster) ready() bool {
	b, err := os.ReadFile(filepath.Join(c.dataDir, "postmaster.pid"))
	if err != nil {
		return false
	}
	lines := strings.Split(string(b), "\n")
	// Line 1 is the pid, line 8 the postmaster status (PostgreSQL 10 and later).
	return len(lines) >= 8 && strings.TrimSpace(lines[0]) == strconv.Itoa(c.proc.Pid) &&
		strings.TrimSpace(lines[7]) == "ready"
}

// freePort asks the kernel for a port that is free now; the server binds it moments later.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// logTail is the end of the server log written after offset, for error messages.
func logTail(path string, offset int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	const max = 4 << 10
	if fi, err := f.Stat(); err == nil && fi.Size()-offset > max {
		offset = fi.Size() - max
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(f)
	return strings.TrimSpace(string(b))
}
