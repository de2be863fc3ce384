package httpapi

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// requestContext is a request's context: the server's request context (its values, its end
// when the client goes), the request's state, and the request deadline. It is the one value
// the middleware puts in the request, and it lives in the state, so a request's context costs
// no allocation of its own.
//
// The deadline is armed (a context of deadline, with its timer) only when someone first waits
// on the context or asks whether it has ended: most requests (a widget config, a cached key)
// never do, and then cost no timer, no context and no registration with the server's context.
// context.WithTimeout at the start of every request cost those on every request. Once armed,
// every method answers as the armed context does, so the context behaves as
// context.WithTimeout's would have from the start: Err and Done tell the same end at the same
// time, and a context derived from it is cancelled with it.
type requestContext struct {
	parent   context.Context
	st       *state
	deadline time.Time
	// arm makes the deadline's context; nil is context.WithDeadline.
	arm func(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc)

	mu       sync.Mutex
	ended    bool // set by end, under mu
	isArmed  atomic.Bool
	armedCtx context.Context // written under mu before isArmed is set; read after isArmed
	cancel   context.CancelFunc
}

// start sets the context up for a request whose server context is parent.
func (c *requestContext) start(parent context.Context, st *state, timeout time.Duration,
	arm func(context.Context, time.Duration) (context.Context, context.CancelFunc)) {
	c.parent, c.st, c.deadline, c.arm = parent, st, time.Now().Add(timeout), arm
}

// armed returns the deadline's context, made on the first call. After end it is a context
// that has ended, as a cancelled context.WithTimeout has.
func (c *requestContext) armed() context.Context {
	if c.isArmed.Load() {
		return c.armedCtx
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.isArmed.Load() {
		return c.armedCtx
	}
	switch {
	case c.ended:
		ctx, cancel := context.WithCancel(c.parent)
		cancel()
		c.armedCtx, c.cancel = ctx, cancel
	case c.arm != nil:
		c.armedCtx, c.cancel = c.arm(c.parent, time.Until(c.deadline))
	default:
		c.armedCtx, c.cancel = context.WithDeadline(c.parent, c.deadline)
	}
	c.isArmed.Store(true)
	return c.armedCtx
}

// end is the request's end: an armed deadline's timer stops, and the context ends.
func (c *requestContext) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	if c.cancel != nil {
		c.cancel()
	}
}

// Deadline is the request deadline.
func (c *requestContext) Deadline() (time.Time, bool) {
	if c.isArmed.Load() {
		return c.armedCtx.Deadline()
	}
	return c.deadline, true
}

// Done arms the deadline and returns the channel closed when the request ends.
func (c *requestContext) Done() <-chan struct{} { return c.armed().Done() }

// Err arms the deadline and says why the request has ended, if it has: the first of
// the deadline, the server's context or end.
func (c *requestContext) Err() error { return c.armed().Err() }

// Value is the request's state for stateKey, else the value of the context armed or, before,
// of the server's context: the armed context answers as a context of the standard library, so
// a context derived from this one is cancelled with it without a goroutine of its own.
func (c *requestContext) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return c.st
	}
	if c.isArmed.Load() || !time.Now().Before(c.deadline) {
		// Past the deadline the armed context answers, so that context.Cause, which reads
		// the standard library's own key, finds the deadline as Err does.
		return c.armed().Value(key)
	}
	return c.parent.Value(key)
}
