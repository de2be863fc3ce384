package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/leadchat/leadchat/internal/pgembed"
	"github.com/leadchat/leadchat/internal/postgres"
)

// setUp finds or starts the server and builds the template; teardown undoes both.
func setUp(ctx context.Context, progress io.Writer) (h *harness, teardown func() error, err error) {
	var undo []func() error
	undoAll := func() error {
		var errs []error
		for i := len(undo) - 1; i >= 0; i-- {
			errs = append(errs, undo[i]())
		}
		return errors.Join(errs...)
	}
	defer func() {
		if err != nil {
			undoAll()
		}
	}()

	baseDSN := os.Getenv(EnvURL)
	if baseDSN == "" {
		began := time.Now()
		cluster, tmp, err := startCluster(ctx, progress, 0)
		if err != nil {
			return nil, nil, err
		}
		undo = append(undo, func() error { return os.RemoveAll(tmp) }, func() error {
			stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			return cluster.Stop(stopCtx)
		})
		baseDSN = cluster.DSN("postgres")
		fmt.Fprintf(progress, "pgtest: PostgreSQL started in %v\n", time.Since(began).Round(time.Millisecond))
	}

	admin, err := sql.Open("postgres", baseDSN)
	if err != nil {
		return nil, nil, err
	}
	undo = append(undo, admin.Close)
	admin.SetMaxIdleConns(4)

	token := make([]byte, 3)
	rand.Read(token)
	// The pid keeps processes on one machine apart, the random part machines sharing a server.
	id := fmt.Sprintf("%d_%s", os.Getpid(), hex.EncodeToString(token))
	hs := &harness{admin: admin, baseDSN: baseDSN, template: "leadchat_tmpl_" + id, prefix: "leadchat_test_" + id}
	h = hs

	began := time.Now()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+quoteIdent(h.template)); err != nil {
		return nil, nil, fmt.Errorf("creating the template database: %w", err)
	}
	undo = append(undo, func() error {
		dropCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		return hs.dropAll(dropCtx) // hs: h is nil once setUp returns an error
	})
	if err := migrateTemplate(ctx, admin, withDBName(baseDSN, h.template), h.template); err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(progress, "pgtest: template %s migrated in %v\n", h.template, time.Since(began).Round(time.Millisecond))
	return h, undoAll, nil
}

// startCluster starts a throwaway cluster in a new temporary folder; maxConns 0 is pgembed's
// default.
func startCluster(ctx context.Context, progress io.Writer, maxConns int) (*pgembed.Cluster, string, error) {
	parent := clusterParent()
	sweep(parent)
	tmp, err := os.MkdirTemp(parent, "leadchat-pgtest-")
	if err != nil {
		return nil, "", err
	}
	// As root the server runs as user postgres, which must reach its folder: MkdirTemp's is
	// private to its owner.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, "", err
	}
	cluster, err := pgembed.Start(ctx, pgembed.Options{DataDir: filepath.Join(tmp, "data"), Log: progress, MaxConnections: maxConns})
	if err != nil {
		os.RemoveAll(tmp)
		return nil, "", err
	}
	return cluster, tmp, nil
}

// dropAll drops the template and any test database whose test did not drop it, such as those
// of tests still running when the run was interrupted, which matters on a shared server.
func (h *harness) dropAll(ctx context.Context) error {
	var names []string
	rows, err := h.admin.QueryContext(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1)", h.prefix+"_")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var errs []error
	for _, n := range append(names, h.template) {
		errs = append(errs, h.drop(ctx, n))
	}
	return errors.Join(errs...)
}

// sweep removes the folders of test runs that died without cleaning up. Their servers shut down
// when they died (see pgembed), removing postmaster.pid; a folder that still has one, or is
// new, may belong to a run in progress.
func sweep(parent string) {
	if parent == "" {
		parent = os.TempDir()
	}
	dirs, _ := filepath.Glob(filepath.Join(parent, "leadchat-pgtest-*"))
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil || time.Since(fi.ModTime()) < 10*time.Minute {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "data", "postmaster.pid")); errors.Is(err, fs.ErrNotExist) {
			os.RemoveAll(d)
		}
	}
}

// migrateTemplate applies the migrations to the template and leaves nobody connected to it,
// since PostgreSQL copies only a database no other session uses.
func migrateTemplate(ctx context.Context, admin *sql.DB, dsn, name string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	err = postgres.Migrate(ctx, db, io.Discard)
	db.Close()
	if err != nil {
		return fmt.Errorf("migrating the template database: %w", err)
	}
	// No one connects to the template again; a stray session would make every copy fail.
	_, err = admin.ExecContext(ctx, "ALTER DATABASE "+quoteIdent(name)+" WITH ALLOW_CONNECTIONS false")
	if err == nil {
		_, err = admin.ExecContext(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
	}
	if err != nil {
		return fmt.Errorf("closing the template database: %w", err)
	}
	return nil
}
