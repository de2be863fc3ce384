// Package bench measures leadchat against the ceilings of the machine it runs on, in one run:
// the database ceiling (pgbench running exactly the SQL a lead create or a chat message runs),
// the HTTP ceiling (a minimal net/http server decoding the same lead body) and leadchat itself,
// each at 1, 16 and 64 concurrent connections, and prints one table of throughput, latency,
// errors, server memory and CPU time per request, with each leadchat row as a ratio of its
// ceiling. Last come the read steps: lead creates into an emptied database, then, once one
// company holds a million leads (seeded by one INSERT … SELECT), lead creates again and that
// company's first and deep list pages. Before them, the streams step (streams.go) holds 5,000
// idle visitor chat streams on a leadchat of its own and times a person's messages to them,
// through that instance and through a second one.
//
// `make bench` runs it (`go run ./internal/bench/run`); `make bench-smoke` runs every step for a
// second, to keep it working in CI, and asserts no figure. The run starts a durable PostgreSQL
// cluster of its own (fsync and synchronous_commit on), builds cmd/leadchat and runs `leadchat
// serve` as a separate process, so that its peak RSS and CPU time are its own. Results go to
// internal/bench/results/<UTC time>.txt with a description of the machine.
//
// With -cpuprofile DIR the server is this package's copy of `leadchat serve` (the same
// service.Open and Serve, configured from the same environment) with net/http/pprof on a port
// of its own, and each leadchat step saves DIR/<step>-c<conns>.cpu.pprof and .allocs.pprof,
// taken over the measured seconds; read them with `go tool pprof -top FILE`. Profiling costs a
// few percent, so figures of a profiled run are not for comparison.
package bench

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Main runs the bench with the command line args and returns the exit status.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, args, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 1
	}
	return 0
}

// options are the command line's.
type options struct {
	duration    time.Duration
	warmup      time.Duration
	smoke       bool
	profileDir  string
	resultsDir  string // "" writes no file
	pgbenchMode string
	conns       []int
	// leadchatEnv is added to leadchat's environment (-leadchat-env).
	leadchatEnv []string
	// only names the pairs to run (spread, hot, config, chat, events, streams, read); empty
	// runs all.
	only map[string]bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	duration := fs.Duration("duration", 10*time.Second, "measured time of each step, in whole seconds")
	smoke := fs.Bool("smoke", false, "run each step for a second, to check that the bench works (CI)")
	profileDir := fs.String("cpuprofile", "", "save CPU and allocation profiles of the leadchat server, per step, and the deliverer's CPU profile, per drain, in `DIR`")
	results := fs.String("results", "", "write the results file into `DIR` (default internal/bench/results; none with -smoke)")
	pgMode := fs.String("pgbench-mode", "prepared", "pgbench's protocol for the database ceilings: prepared, extended or simple")
	connList := fs.String("conns", "1,16,64", "comma-separated concurrent connections")
	leadchatEnv := fs.String("leadchat-env", "", "space-separated `NAME=VALUE` settings for leadchat, LEADCHAT_* or the Go runtime's, e.g. LEADCHAT_LEAD_BATCH=1 GOMEMLIMIT=40MiB (printed in the report)")
	onlyList := fs.String("only", "", "run only these comma-separated pairs of a step and its ceiling: spread, hot, config, chat, events, streams, read")
	ceilingAddr := fs.String("http-ceiling", "", "serve the HTTP ceiling on `ADDR` (the runner starts itself so)")
	pprofAddr := fs.String("leadchat-pprof", "", "serve leadchat from the environment with pprof on `ADDR` (the runner starts itself so)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *ceilingAddr != "":
		return serveCeiling(ctx, *ceilingAddr)
	case *pprofAddr != "":
		return serveProfiled(ctx, *pprofAddr)
	}
	opt := options{duration: max(time.Second, duration.Round(time.Second)), warmup: time.Second,
		smoke: *smoke, profileDir: *profileDir, pgbenchMode: *pgMode}
	switch opt.pgbenchMode {
	case "prepared", "extended", "simple":
	default:
		return fmt.Errorf("-pgbench-mode %q: want prepared, extended or simple", opt.pgbenchMode)
	}
	if opt.smoke {
		opt.duration, opt.warmup = time.Second, 300*time.Millisecond
	}
	for _, s := range strings.Split(*connList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 150 {
			return fmt.Errorf("-conns %q: want numbers from 1 to 150", *connList)
		}
		opt.conns = append(opt.conns, n)
	}
	for _, kv := range strings.Fields(*leadchatEnv) {
		if !leadchatSetting(kv) {
			return fmt.Errorf("-leadchat-env %q: want LEADCHAT_NAME=VALUE or a Go runtime setting (GOMEMLIMIT, GOGC, GODEBUG, GOMAXPROCS)", kv)
		}
		opt.leadchatEnv = append(opt.leadchatEnv, kv)
	}
	if *onlyList != "" {
		opt.only = map[string]bool{}
		for _, p := range strings.Split(*onlyList, ",") {
			p = strings.TrimSpace(p)
			if _, ok := stepsPerPair[p]; !ok {
				return fmt.Errorf("-only %q: want spread, hot, config, chat, events, streams or read", p)
			}
			opt.only[p] = true
		}
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	switch {
	case *results != "":
		opt.resultsDir = *results
	case !opt.smoke:
		opt.resultsDir = filepath.Join(root, "internal", "bench", "results")
	}
	if opt.profileDir != "" {
		if err := os.MkdirAll(opt.profileDir, 0o755); err != nil {
			return err
		}
	}

	b, err := setUp(ctx, root, opt, stderr)
	if err != nil {
		return err
	}
	report, err := b.runSteps(ctx)
	b.tearDown()
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, report)
	if opt.resultsDir != "" {
		if err := os.MkdirAll(opt.resultsDir, 0o755); err != nil {
			return err
		}
		path := filepath.Join(opt.resultsDir, b.started.UTC().Format("20060102T150405Z")+".txt")
		if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "results written to %s\n", path)
	}
	return nil
}

// moduleRoot is the folder of leadchat's go.mod, found upwards from the working folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module github.com/leadchat/leadchat\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run the bench inside the leadchat repository (no go.mod of github.com/leadchat/leadchat above the working folder)")
		}
		dir = parent
	}
}

// leadchatSetting reports whether kv is NAME=VALUE for one of leadchat's own settings or one
// of the Go runtime's that a measurement may vary (the soft memory limit among them); the
// database and the address stay the bench's.
func leadchatSetting(kv string) bool {
	name, _, ok := strings.Cut(kv, "=")
	if !ok {
		return false
	}
	switch name {
	case "GOMEMLIMIT", "GOGC", "GODEBUG", "GOMAXPROCS":
		return true
	}
	return strings.HasPrefix(name, "LEADCHAT_") && len(name) > len("LEADCHAT_")
}
