package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/buildinfo"
	"github.com/leadchat/leadchat/internal/dev"
	"github.com/leadchat/leadchat/internal/exepages"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/service"
)

const usage = `leadchat: lead capture and an embeddable AI chat for companies.

Usage:
  leadchat serve                    serve HTTP on LEADCHAT_ADDR against DATABASE_URL (migrates first)
  leadchat dev [--data DIR] [--reset]
                                    a local database of its own, a demo company, and the service
  leadchat migrate                  apply pending database migrations
  leadchat version                  the version, commit, commit time and Go version of this binary
  leadchat help [COMMAND]           this list, or a command's flags (as COMMAND --help does)

The admin commands use DATABASE_URL or, when it is unset, the database of a ` + "`leadchat dev`" + `
running from this folder:
`

// run is the whole program: it reads the environment through getenv and stdin only, and writes
// only to the given writers, so a test can run any subcommand in process.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	err := dispatch(ctx, args, getenv, stdin, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // the help was asked for, and printed
	}
	return err
}

func dispatch(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		fmt.Fprint(stdout, usage)
		for _, c := range admin.Commands() {
			fmt.Fprintf(stdout, "  leadchat %s %s\n", c.Path, c.Usage)
		}
		fmt.Fprintln(stdout, "\nEvery command takes --help.")
		return nil
	}
	if args[0] == "help" {
		args = append(slices.Clone(args[1:]), "--help")
	}
	if asksHelp(args[1:]) {
		// Help wherever it is asked, before any flag is checked and with no database: a
		// command stops at its flags, the admin commands with Env.Store nil.
		args = append(commandWords(args), "--help")
	}
	switch args[0] {
	case "serve":
		fs := admin.Flags("serve", "", stdout)
		fs.Usage = func() {
			fmt.Fprintln(fs.Output(), "Usage: leadchat serve\n\nServes HTTP on LEADCHAT_ADDR against DATABASE_URL, migrating it first; "+
				"every setting is an environment variable (README, Configuration).")
		}
		if err := admin.Parse(fs, args[1:]); err != nil {
			return err
		}
		return serve(ctx, getenv, stderr)
	case "dev":
		fs := admin.Flags("dev", "[--data DIR] [--reset]", stdout)
		data := fs.String("data", ".leadchat", "the folder of the local PostgreSQL cluster and the demo keys")
		reset := fs.Bool("reset", false, "start the demo over: a new database (its leads gone) and new demo keys")
		if err := admin.Parse(fs, args[1:]); err != nil {
			return err
		}
		cfg, err := service.ConfigFromEnv(getenv)
		if err != nil {
			return err
		}
		limitMemory(getenv)
		return dev.Run(ctx, dev.Options{Config: cfg, DataDir: *data, Reset: *reset}, stdout, stderr)
	case "version":
		fs := admin.Flags("version", "", stdout)
		fs.Usage = func() {
			fmt.Fprintln(fs.Output(), "Usage: leadchat version\n\nPrints the version, the commit and its time, and the Go version of this binary; needs no database.")
		}
		if err := admin.Parse(fs, args[1:]); err != nil {
			return err
		}
		fmt.Fprint(stdout, buildinfo.Get())
		return nil
	case "migrate":
		fs := admin.Flags("migrate", "", stdout)
		fs.Usage = func() {
			fmt.Fprintln(fs.Output(), "Usage: leadchat migrate\n\nApplies the pending migrations to DATABASE_URL (serve does it too, at start).")
		}
		if err := admin.Parse(fs, args[1:]); err != nil {
			return err
		}
		store, err := openStore(ctx, getenv)
		if err != nil {
			return err
		}
		defer store.Close()
		return postgres.Migrate(ctx, store.DB(), stdout)
	}
	cmd, rest, ok := admin.Find(args)
	if !ok {
		return unknownCommand(args)
	}
	if len(rest) == 1 && rest[0] == "--help" {
		return cmd.Run(ctx, admin.Env{Stdout: stdout, Stderr: stderr}, rest)
	}
	cfg, err := service.ConfigFromEnv(getenv)
	if err != nil {
		return err
	}
	store, err := openStore(ctx, getenv)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := postgres.SchemaCurrent(ctx, store.DB()); err != nil {
		return err
	}
	err = cmd.Run(ctx, admin.Env{Store: store, PublicURL: cfg.PublicURL, Stdin: stdin, Stdout: stdout, Stderr: stderr,
		AllowPrivateWebhooks: cfg.Events.AllowPrivate}, rest)
	if err != nil && ctx.Err() != nil {
		// Ctrl-C: the database reports the query it cancelled in words of its own.
		return errors.New("interrupted")
	}
	return admin.Explain(err)
}

// asksHelp reports whether args ask for a command's help, wherever among its flags.
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--h", "--help":
			return true
		}
	}
	return false
}

// commandWords is the words of args that name a command, those before the first flag.
func commandWords(args []string) []string {
	i := 0
	for i < len(args) && !strings.HasPrefix(args[i], "-") {
		i++
	}
	return args[:i:i]
}

// unknownCommand names the commands that start with the words given, or points to the list.
func unknownCommand(args []string) error {
	var near []string
	for _, c := range admin.Commands() {
		if first, _, _ := strings.Cut(c.Path, " "); first == args[0] {
			near = append(near, "leadchat "+c.Path)
		}
	}
	if len(near) > 0 {
		return fmt.Errorf("unknown command %q: did you mean %s?", strings.Join(args, " "), strings.Join(near, ", "))
	}
	return fmt.Errorf("unknown command %q: run `leadchat help` for the list", strings.Join(args, " "))
}

// defaultMemoryLimit is the Go runtime's soft memory limit for a serving process when
// GOMEMLIMIT is unset: the collector works harder as the process's Go memory nears it, so under
// load the heap's garbage stays within it. The binary's pages in memory (about 13 MiB idle,
// 18 MiB under attack) come on top. While a password hash runs, its 19 MiB work area (outside
// the heap) is taken off the limit. It bounds garbage only: live memory beside a hash can take
// the process past it. Under make hostile's attacks 32 MiB, where 40 MiB was, takes the peak
// about 2 MiB lower (62.3 MiB, was 64.5, on average) for 2-3 points more of the CPU in the
// collector (19 % of the CPU the process used, was 17 %). A machine with memory to spare
// raises it with GOMEMLIMIT, as for any Go program.
const defaultMemoryLimit = 32 << 20

// limitMemory sets defaultMemoryLimit unless GOMEMLIMIT is set (the runtime has applied it).
func limitMemory(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}

func serve(ctx context.Context, getenv func(string) string, stderr io.Writer) error {
	cfg, err := service.ConfigFromEnv(getenv)
	if err != nil {
		return err
	}
	limitMemory(getenv)
	svc, err := service.Open(ctx, cfg, stderr, nil)
	if err != nil {
		return err
	}
	defer svc.Close()
	ln, err := service.Listen(ctx, cfg.Addr)
	if err != nil {
		return err
	}
	go narrowOnceLive(ctx, svc.CacheLive, exepages.Narrow, 10*time.Millisecond, stderr)
	return svc.Serve(ctx, ln)
}

// narrowOnceLive makes the process map the binary's pages one by one as it reads them
// (exepages.Narrow) once the service's key cache follows the change feed, whose listener Serve
// starts: code read after Narrow comes from the disk a page at a time, which on a busy machine
// delayed the listener, and until it is live every request with a key costs a lookup. Here,
// not in Serve: the page cache of the executable is the process's to drop, and a test binary
// that starts many services would read its code from the disk again after each. live is asked
// every poll until it says yes; narrow is called once then, or never if ctx ends first.
func narrowOnceLive(ctx context.Context, live func() bool, narrow func() (exepages.Released, error),
	poll time.Duration, stderr io.Writer) {
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for !live() {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
	if _, err := narrow(); err != nil {
		fmt.Fprintf(stderr, "leadchat: the binary's pages stay mapped 64 KiB at a time: %v\n", err)
	}
}

// openStore connects the admin commands to DATABASE_URL or, when it is unset, to the database of
// a running `leadchat dev`, which records its address in its data folder.
func openStore(ctx context.Context, getenv func(string) string) (*postgres.Store, error) {
	cfg, err := service.ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	dsn, source := cfg.DatabaseURL, "DATABASE_URL"
	if dsn == "" {
		b, err := os.ReadFile(filepath.Join(".leadchat", dev.URLFile))
		if err != nil {
			return nil, fmt.Errorf("DATABASE_URL is not set, and no `leadchat dev` runs from this folder: set it, or start `make run` here")
		}
		dsn, source = strings.TrimSpace(string(b)), "the `leadchat dev` database in ./.leadchat"
	}
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 4})
	if err != nil {
		return nil, fmt.Errorf("cannot reach %s: %w", source, err)
	}
	return store, nil
}
