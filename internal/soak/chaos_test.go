//go:build soak

package soak

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// chaos breaks the service while the clients run: it kills the server with SIGKILL and starts
// a new one, and restarts the database, half the time with an immediate shutdown (a crash as
// far as the data is concerned), with short random pauses between. One fault at a time, each
// finished (the service ready again) before the next, so a service that does not come back is
// caught at the fault that broke it.
type chaos struct {
	srv *server
	db  *database

	kills, dbRestarts, dbCrashes int
	log                          []string // what was done when, for the figures
	began                        time.Time
}

// run breaks things until ctx ends; an error is a service or database that did not come back.
func (c *chaos) run(ctx context.Context) error {
	c.began = time.Now()
	for i := 0; ; i++ {
		pause(ctx, 300*time.Millisecond, 1500*time.Millisecond)
		if ctx.Err() != nil {
			return nil
		}
		// The first four faults take turns, so even a short run sees every kind; then chance
		// picks. Every second database restart is immediate.
		var err error
		if (i < 4 && i%2 == 0) || (i >= 4 && rand.N(2) == 0) {
			err = c.killServer()
		} else {
			err = c.restartDatabase(c.dbRestarts%2 == 1)
		}
		if err != nil {
			return err
		}
	}
}

// killServer kills the server mid-request and starts a new process on the same address.
func (c *chaos) killServer() error {
	c.note("SIGKILL server")
	if err := c.srv.kill(); err != nil {
		return fmt.Errorf("killing the server: %w", err)
	}
	c.kills++
	time.Sleep(rand.N(500 * time.Millisecond))
	if err := c.srv.start(); err != nil {
		return fmt.Errorf("restarting the server after SIGKILL: %w", err)
	}
	c.note("server ready")
	return nil
}

// restartDatabase stops PostgreSQL under the running server, starts it again, and waits for
// the server to recover by itself.
func (c *chaos) restartDatabase(immediate bool) error {
	how := "fast"
	if immediate {
		how = "immediate"
	}
	c.note("stop database (" + how + ")")
	if err := c.db.stop(immediate); err != nil {
		return fmt.Errorf("stopping the database (%s): %w", how, err)
	}
	c.dbRestarts++
	if immediate {
		c.dbCrashes++
	}
	time.Sleep(200*time.Millisecond + rand.N(1300*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.db.start(ctx); err != nil {
		return fmt.Errorf("starting the database after a %s stop: %w", how, err)
	}
	c.note("database up")
	if err := c.srv.ready(); err != nil {
		return fmt.Errorf("after a %s database restart: %w", how, err)
	}
	c.note("server ready")
	return nil
}

func (c *chaos) note(what string) {
	now := time.Now()
	c.log = append(c.log, fmt.Sprintf("%6.2fs (%s) %s", now.Sub(c.began).Seconds(), now.UTC().Format("15:04:05.000"), what))
}
