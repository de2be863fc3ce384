package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/leadchat/leadchat/internal/service"
)

// process is a server the runner started: leadchat or the HTTP ceiling.
type process struct {
	name   string
	log    string // the process's stdout and stderr
	cmd    *exec.Cmd
	exited chan struct{}
	err    error
}

// startProcess starts bin with args and env, its output going to logPath, and waits until
// ready answers true.
func startProcess(ctx context.Context, name, bin string, args, env []string, logPath string, ready func() bool) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the runner
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	p := &process{name: name, log: logPath, cmd: cmd, exited: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for !ready() {
		select {
		case <-p.exited:
			b, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("%s exited while starting (%v):\n%s", name, p.err, tail(string(b), 20))
		case <-ctx.Done():
			p.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("%s did not become ready within a minute", name)
		}
	}
	return p, nil
}

// logPath is the file holding the process's output.
func (p *process) logPath() string { return p.log }

// pid is the process id, for /proc.
func (p *process) pid() int { return p.cmd.Process.Pid }

// stop sends SIGTERM and waits; a process still running after 15 seconds is killed.
func (p *process) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(15 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
	}
}

// answers reports whether GET url answers 200.
func answers(url string) func() bool {
	c := &http.Client{Timeout: time.Second}
	return func() bool {
		resp, err := c.Get(url)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
}

// listens reports whether addr accepts TCP connections.
func listens(addr string) func() bool {
	return func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
}

// freeAddr is a 127.0.0.1 address with a port that is free now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// serveProfiled is what `leadchat serve` does, configured from the same environment, plus
// net/http/pprof on pprofAddr. The runner starts it instead of the leadchat binary when asked
// for profiles: leadchat has no profiling endpoint of its own, and a server process of its own
// keeps the load generator out of the profiles.
func serveProfiled(ctx context.Context, pprofAddr string) error {
	cfg, err := service.ConfigFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	svc, err := service.Open(ctx, cfg, os.Stderr, nil)
	if err != nil {
		return err
	}
	defer svc.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	pln, err := net.Listen("tcp", pprofAddr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	psrv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go psrv.Serve(pln)
	defer psrv.Close()
	if err := svc.Serve(ctx, ln); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
