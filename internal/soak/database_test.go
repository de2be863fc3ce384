//go:build soak

package soak

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/pgembed"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
)

// database is the test's own durable PostgreSQL cluster, restarted on the same folder and
// port so the server's DSN stays valid across restarts.
type database struct {
	dir  string
	port int    // 0 until the first start picks one
	url  string // set by the first start; the same for every later one

	mu      sync.Mutex
	cluster *pgembed.Cluster // nil while stopped
}

// start starts the cluster, creating it on first use; the first start picks the port.
func (d *database) start(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cluster != nil {
		return errors.New("database already running")
	}
	c, err := pgembed.Start(ctx, pgembed.Options{DataDir: d.dir, Port: d.port, Durable: true})
	if err != nil {
		return fmt.Errorf("starting PostgreSQL: %w", err)
	}
	d.cluster, d.port, d.url = c, c.Port(), c.DSN("postgres")
	return nil
}

// stop shuts the cluster down: a fast shutdown (a clean checkpoint), or with immediate an
// immediate one, which is a crash as far as the data is concerned and needs WAL recovery on the
// next start.
func (d *database) stop(immediate bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cluster == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	if immediate {
		cancel() // pgembed escalates to an immediate shutdown when ctx has ended
	}
	defer cancel()
	err := d.cluster.Stop(ctx)
	d.cluster = nil
	if immediate && errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// provision migrates the database and creates the company whose private key the clients use.
func provision(ctx context.Context, dsn string) (company.Company, string, error) {
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 2})
	if err != nil {
		return company.Company{}, "", err
	}
	defer store.Close()
	if err := postgres.Migrate(ctx, store.DB(), io.Discard); err != nil {
		return company.Company{}, "", fmt.Errorf("migrating: %w", err)
	}
	c, err := store.CreateCompany(ctx, "Soak Kft.", plan.Business, plan.Override{})
	if err != nil {
		return company.Company{}, "", fmt.Errorf("creating the company: %w", err)
	}
	key, err := admin.CreateKey(ctx, store, c.ID, auth.Private, nil, true)
	if err != nil {
		return company.Company{}, "", fmt.Errorf("creating the key: %w", err)
	}
	return c, key.Key, nil
}
