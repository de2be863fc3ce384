//go:build soak

package soak

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// readyTimeout bounds how long the service may take to answer /readyz after a start or after
// the database came back; longer counts as a service that did not come back.
const readyTimeout = 30 * time.Second

// buildBinary builds cmd/leadchat into dir, so the test runs what is shipped.
func buildBinary(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "leadchat")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/leadchat/leadchat/cmd/leadchat")
	// Static, as make dist builds the release: a binary linked with cgo maps the C library
	// beside it (1.3 MiB resident in the hostile run), which the released one never does.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/leadchat: %w\n%s", err, out)
	}
	return bin, nil
}

// runDir is a new folder for a run's files, removed after the run unless the test failed; then
// its path is logged with holds, what to look for in it. PostgreSQL runs as user postgres when
// the test runs as root, so the folder must be enterable by others.
func runDir(t *testing.T, prefix, holds string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("kept %s (%s) for a look", dir, holds)
			return
		}
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// freeAddr is a loopback address nobody listens on; the server keeps it across restarts.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// server runs `leadchat serve` as a child process, one process at a time, all of them logging
// to one file.
type server struct {
	bin, dsn, addr, logPath string
	env                     []string // settings over the defaults below, as NAME=value

	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{} // closed when cmd has been waited for
	exitErr error         // set before exited is closed
	killed  bool          // the test ended this process on purpose
	starts  int
	crashes []string // processes that ended without the test ending them
}

func (s *server) base() string { return "http://" + s.addr }

// start starts a server process and waits until it reports ready.
func (s *server) start() error {
	exited, err := s.launch()
	if err != nil {
		return err
	}
	return s.awaitReady(exited)
}

// launch starts a server process; the returned channel closes when it has exited.
func (s *server) launch() (<-chan struct{}, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil, errors.New("server already running")
	}
	log, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	s.starts++
	n := s.starts
	fmt.Fprintf(log, "--- start %d at %s\n", n, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(s.bin, "serve")
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+s.dsn, "LEADCHAT_ADDR="+s.addr, "LEADCHAT_RATE_LIMIT=off",
		"LEADCHAT_LOG_LEVEL=warn", "LEADCHAT_SHUTDOWN_GRACE=5s",
		"LEADCHAT_WEBHOOK_ALLOW_PRIVATE=on", "LEADCHAT_WEBHOOK_RETRY="+webhookRetry)
	cmd.Env = append(cmd.Env, s.env...) // the last of a name wins
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("starting leadchat serve: %w", err)
	}
	exited := make(chan struct{})
	s.cmd, s.exited, s.killed = cmd, exited, false
	go func() {
		err := cmd.Wait()
		log.Close()
		s.mu.Lock()
		s.exitErr = err
		if !s.killed {
			s.crashes = append(s.crashes, fmt.Sprintf("start %d (pid %d) exited by itself: %v", n, cmd.Process.Pid, err))
		}
		s.cmd = nil
		s.mu.Unlock()
		close(exited)
	}()
	return exited, nil
}

// awaitReady polls /readyz until it answers 200, the process exits, or readyTimeout passes.
func (s *server) awaitReady(exited <-chan struct{}) error {
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(readyTimeout)
	for {
		resp, err := client.Get(s.base() + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			s.mu.Lock()
			defer s.mu.Unlock()
			return fmt.Errorf("leadchat serve exited before it was ready: %v", s.exitErr)
		default:
		}
		if time.Now().After(deadline) {
			status := "no answer"
			if err == nil {
				status = strconv.Itoa(resp.StatusCode)
			}
			return fmt.Errorf("leadchat serve not ready %v after it started or the database came back (last /readyz: %s)", readyTimeout, status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ready waits for the running process to report ready, after a database restart.
func (s *server) ready() error {
	s.mu.Lock()
	exited := s.exited
	running := s.cmd != nil
	s.mu.Unlock()
	if !running {
		return errors.New("leadchat serve is not running")
	}
	return s.awaitReady(exited)
}

// signal sends sig to the running process and waits for it to exit.
func (s *server) signal(sig syscall.Signal) error {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	if cmd == nil {
		s.mu.Unlock()
		return errors.New("leadchat serve is not running")
	}
	s.killed = true
	s.mu.Unlock()
	if err := cmd.Process.Signal(sig); err != nil {
		return err
	}
	select {
	case <-exited:
		return nil
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-exited
		return fmt.Errorf("leadchat serve ignored %v for 20 s", sig)
	}
}

// kill ends the process with SIGKILL: no shutdown, connections cut mid-request.
func (s *server) kill() error { return s.signal(syscall.SIGKILL) }

// stop ends the process with SIGTERM, the way an orchestrator would, and reports how it exited.
func (s *server) stop() error {
	if err := s.signal(syscall.SIGTERM); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exitErr != nil {
		return fmt.Errorf("leadchat serve exited with %w after SIGTERM", s.exitErr)
	}
	return nil
}

// pid is the running process's id, 0 when none runs.
func (s *server) pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// crashed lists the processes that exited without the test ending them.
func (s *server) crashed() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.crashes...)
}

// logTail is the last n lines the servers wrote, for a failure message.
func (s *server) logTail(n int) string {
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// requestLog is what the servers logged about one request, by its X-Request-Id.
func (s *server) requestLog(requestID string) string {
	b, _ := os.ReadFile(s.logPath)
	var out []string
	for line := range strings.Lines(string(b)) {
		if requestID != "" && strings.Contains(line, `"request_id":"`+requestID+`"`) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return strings.Join(out, "\n")
}

// errorLines counts the lines the servers logged at level ERROR.
func (s *server) errorLines() int {
	b, _ := os.ReadFile(s.logPath)
	return bytes.Count(b, []byte(`"level":"ERROR"`))
}
