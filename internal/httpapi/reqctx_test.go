package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// serveWith runs one request through withRequestID, its deadline armed by a maker that counts
// its calls, and calls use with the request's context while it is served; it returns that
// context, after the request, and the count of the deadline's arming.
func serveWith(t *testing.T, parent context.Context, timeout time.Duration, use func(ctx context.Context)) (context.Context, *atomic.Int32) {
	t.Helper()
	arms := new(atomic.Int32)
	arm := func(ctx context.Context, left time.Duration) (context.Context, context.CancelFunc) {
		arms.Add(1)
		return context.WithTimeout(ctx, left)
	}
	var got context.Context
	h := withRequestID(arm, timeout, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		got = r.Context()
		use(got)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequestWithContext(parent, "GET", "/", nil))
	return got, arms
}

// A request that never waits on its context arms no deadline, yet tells it and carries its
// state and its parent's values; the first wait or question arms it once, however many ask.
func TestRequestContextArmsOnlyWhenWaitedOn(t *testing.T) {
	t.Parallel()
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "érték")
	before := time.Now()
	_, arms := serveWith(t, parent, time.Minute, func(ctx context.Context) {
		if st := stateOf(ctx); st.id == "" || ctx.Value(stateKey{}) != st {
			t.Errorf("state %+v, want the request's", st)
		}
		if v := ctx.Value(key{}); v != "érték" {
			t.Errorf("parent's value %v, want érték", v)
		}
		at, ok := ctx.Deadline()
		if !ok || at.Before(before.Add(time.Minute)) || at.After(time.Now().Add(time.Minute)) {
			t.Errorf("deadline %v %v, want a minute from the request's start", at, ok)
		}
	})
	if n := arms.Load(); n != 0 {
		t.Errorf("a request that did not wait armed its deadline %d times", n)
	}

	_, arms = serveWith(t, parent, time.Minute, func(ctx context.Context) {
		if err := ctx.Err(); err != nil {
			t.Errorf("Err %v before the deadline", err)
		}
		var wg sync.WaitGroup
		chans := make([]<-chan struct{}, 8)
		for i := range chans {
			wg.Go(func() { chans[i] = ctx.Done() })
		}
		wg.Wait()
		for _, c := range chans {
			if c != chans[0] || c == nil {
				t.Fatal("Done gave different channels")
			}
		}
		if v := ctx.Value(key{}); v != "érték" {
			t.Errorf("parent's value %v once armed, want érték", v)
		}
	})
	if n := arms.Load(); n != 1 {
		t.Errorf("armed %d times, want once", n)
	}
}

// The deadline ends the context, and what was derived from it, with DeadlineExceeded, as
// context.WithTimeout's would; one already past at the first question is told at once, Cause
// included.
func TestRequestContextEndsAtItsDeadline(t *testing.T) {
	t.Parallel()
	serveWith(t, context.Background(), time.Millisecond, func(ctx context.Context) {
		child, cancel := context.WithCancel(ctx)
		defer cancel()
		<-child.Done()
		<-ctx.Done()
		for name, c := range map[string]context.Context{"request": ctx, "derived": child} {
			if !errors.Is(c.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(c), context.DeadlineExceeded) {
				t.Errorf("%s: Err %v, Cause %v, want the deadline", name, c.Err(), context.Cause(c))
			}
		}
	})
	serveWith(t, context.Background(), -time.Nanosecond, func(ctx context.Context) {
		if cause := context.Cause(ctx); !errors.Is(cause, context.DeadlineExceeded) {
			t.Errorf("Cause %v past the deadline, want the deadline", cause)
		}
		if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Err %v past the deadline, want the deadline", err)
		}
	})
}

// The server's context ending (the client gone) ends the request's context.
func TestRequestContextEndsWithItsParent(t *testing.T) {
	t.Parallel()
	parent, cancel := context.WithCancel(context.Background())
	serveWith(t, parent, time.Minute, func(ctx context.Context) {
		done := ctx.Done()
		cancel()
		<-done
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("Err %v, want Canceled", ctx.Err())
		}
	})
}

// Once the request is served its context has ended, whether it was armed during the request
// or is first asked afterwards (by a goroutine that outlived the request): then it arms no
// timer.
func TestRequestContextEndsWithTheRequest(t *testing.T) {
	t.Parallel()
	for _, wait := range []bool{true, false} {
		ctx, arms := serveWith(t, context.Background(), time.Minute, func(ctx context.Context) {
			if wait {
				_ = ctx.Done()
			}
		})
		<-ctx.Done()
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("waited %v: Err %v after the request, want Canceled", wait, ctx.Err())
		}
		if want := map[bool]int32{true: 1, false: 0}[wait]; arms.Load() != want {
			t.Errorf("waited %v: armed %d times, want %d", wait, arms.Load(), want)
		}
	}
}
