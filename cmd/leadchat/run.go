package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/dev"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/service"
)

const usage = `leadchat: lead capture and an embeddable AI chat for companies.

Usage:
  leadchat serve                 serve HTTP on LEADCHAT_ADDR against DATABASE_URL (migrates first)
  leadchat dev [--data DIR]      a local database of its own, a demo company, and the service
  leadchat migrate               apply pending database migrations
`

// run is the whole program: it reads the environment through getenv and stdin only, and writes
// only to the given writers, so a test can run any subcommand in process.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		for _, c := range admin.Commands() {
			fmt.Fprintf(stdout, "  leadchat %s %s\n", c.Path, c.Usage)
		}
		return nil
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], getenv, stderr)
	case "dev":
		fs := flag.NewFlagSet("leadchat dev", flag.ContinueOnError)
		fs.SetOutput(stderr)
		data := fs.String("data", ".leadchat", "folder of the local PostgreSQL cluster")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		cfg, err := service.ConfigFromEnv(getenv)
		if err != nil {
			return err
		}
		return dev.Run(ctx, dev.Options{Config: cfg, DataDir: *data}, stdout, stderr)
	case "migrate":
		store, err := openStore(ctx, getenv, stderr)
		if err != nil {
			return err
		}
		defer store.Close()
		return postgres.Migrate(ctx, store.DB(), stdout)
	}
	cmd, rest, ok := admin.Find(args)
	if !ok {
		return fmt.Errorf("unknown command %q: run `leadchat help`", strings.Join(args, " "))
	}
	cfg, err := service.ConfigFromEnv(getenv)
	if err != nil {
		return err
	}
	store, err := openStore(ctx, getenv, stderr)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := postgres.SchemaCurrent(ctx, store.DB()); err != nil {
		return err
	}
	err = cmd.Run(ctx, admin.Env{Store: store, PublicURL: cfg.PublicURL, Stdin: stdin, Stdout: stdout, Stderr: stderr,
		AllowPrivateWebhooks: cfg.Events.AllowPrivate}, rest)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

func serve(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("serve takes no arguments; configure it with environment variables")
	}
	cfg, err := service.ConfigFromEnv(getenv)
	if err != nil {
		return err
	}
	svc, err := service.Open(ctx, cfg, stderr, nil)
	if err != nil {
		return err
	}
	defer svc.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	return svc.Serve(ctx, ln)
}

// openStore connects the admin commands to DATABASE_URL or, when it is unset, to the database of
// a running `leadchat dev`, which records its address in its data folder.
func openStore(ctx context.Context, getenv func(string) string, stderr io.Writer) (*postgres.Store, error) {
	cfg, err := service.ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	dsn := cfg.DatabaseURL
	if dsn == "" {
		b, err := os.ReadFile(filepath.Join(".leadchat", dev.URLFile))
		if err != nil {
			return nil, fmt.Errorf("DATABASE_URL is not set, and no `leadchat dev` database runs from this folder")
		}
		dsn = strings.TrimSpace(string(b))
		fmt.Fprintln(stderr, "leadchat: DATABASE_URL is not set; using the `leadchat dev` database in ./.leadchat")
	}
	return postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 4})
}
