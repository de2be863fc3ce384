package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/exepages"
)

// The serve command narrows the binary's pages only once the key cache is live, exactly once,
// and never after its context ended first; a failure to narrow is said on stderr.
func TestNarrowOnceLive(t *testing.T) {
	t.Run("after live, once", func(t *testing.T) {
		var asked, narrowed atomic.Int32
		var askedAtNarrow int32
		live := func() bool { return asked.Add(1) >= 4 }
		narrow := func() (exepages.Released, error) {
			askedAtNarrow = asked.Load()
			narrowed.Add(1)
			return exepages.Released{}, nil
		}
		var stderr bytes.Buffer
		narrowOnceLive(context.Background(), live, narrow, time.Millisecond, &stderr)
		if narrowed.Load() != 1 {
			t.Fatalf("narrowed %d times, want once", narrowed.Load())
		}
		if askedAtNarrow != 4 || asked.Load() != 4 {
			t.Fatalf("narrowed after %d questions (%d in all), want after the 4th, the first live", askedAtNarrow, asked.Load())
		}
		if stderr.Len() != 0 {
			t.Fatalf("stderr: %q", stderr.String())
		}
	})
	t.Run("never when the context ends first", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var narrowed atomic.Int32
		live := func() bool { cancel(); return false }
		narrow := func() (exepages.Released, error) { narrowed.Add(1); return exepages.Released{}, nil }
		done := make(chan struct{})
		go func() { narrowOnceLive(ctx, live, narrow, time.Millisecond, &bytes.Buffer{}); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("narrowOnceLive did not return after its context ended")
		}
		if narrowed.Load() != 0 {
			t.Fatalf("narrowed %d times after the context ended, want never", narrowed.Load())
		}
	})
	t.Run("a failure is said", func(t *testing.T) {
		var stderr bytes.Buffer
		narrow := func() (exepages.Released, error) { return exepages.Released{}, errors.New("no maps") }
		narrowOnceLive(context.Background(), func() bool { return true }, narrow, time.Millisecond, &stderr)
		if !strings.Contains(stderr.String(), "no maps") {
			t.Fatalf("stderr %q does not say the failure", stderr.String())
		}
	})
}
