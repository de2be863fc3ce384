package delivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/delivery"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/webhook"
)

// lockedBuffer is a log destination River's goroutines and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// River's routine (the client starting, "entering poll only mode") is logged at debug level,
// so the info-level log of `leadchat dev` keeps the banner on the screen.
func TestRiverRoutineLogsAtDebug(t *testing.T) {
	e := newEnv(t)
	db, err := postgres.OpenPlain(e.dsn, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out lockedBuffer
	r, err := delivery.New(delivery.Config{DB: db, Store: e.store, PollInterval: 50 * time.Millisecond, Workers: 2,
		Webhooks: webhook.NewSender(webhook.Options{AllowPrivate: true}),
		Log:      slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		r.Stop(ctx)
	}()
	want := []string{"River client started", "poll only mode"}
	levels := map[string]string{}
	for deadline := time.Now().Add(20 * time.Second); len(levels) < len(want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("River logged %v of %v within 20 s:\n%s", levels, want, out.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			var rec struct{ Level, Msg string }
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			for _, w := range want {
				if strings.Contains(rec.Msg, w) {
					levels[w] = rec.Level
				}
			}
		}
	}
	for w, l := range levels {
		if l != "DEBUG" {
			t.Errorf("River's %q is logged at %s, want DEBUG", w, l)
		}
	}
}
