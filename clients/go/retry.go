package leadclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	// firstBackoff grows fourfold per retry (100 ms, 400 ms, 1.6 s…) up to maxBackoff.
	firstBackoff = 100 * time.Millisecond
	maxBackoff   = 5 * time.Second
	// maxRetryAfter is the longest Retry-After a call waits out by itself; a longer one is the
	// caller's decision, so the call returns the *APIError carrying it.
	maxRetryAfter = 30 * time.Second
	// maxBody bounds what is read of an answer; the service's answers are a few hundred bytes.
	maxBody = 1 << 20
)

// policy says which failures of an operation can be retried without doing the operation twice.
type policy int

const (
	// idempotent operations (a GET, or a POST with an Idempotency-Key) retry network errors,
	// attempt timeouts, 5xx and 429: a repeat is answered from the first attempt's result.
	idempotent policy = iota
	// once operations retry only failures that promise nothing happened: 429 and 503 answers,
	// and connections that were never made.
	once
)

// sendFunc makes one attempt through the generated client.
type sendFunc func(ctx context.Context) (*http.Response, error)

// call runs send until it gets a 2xx answer, fails for good, runs out of retries or ctx ends.
// It returns the 2xx response with its body already read and closed.
func (c *SDK) call(ctx context.Context, p policy, send sendFunc) (*http.Response, []byte, error) {
	var last error
	for n := 1; ; n++ {
		resp, body, err := c.attempt(ctx, send)
		var wait time.Duration
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return nil, nil, contextError(ctx, last)
			}
			if p != idempotent && !neverConnected(err) {
				return nil, nil, err
			}
		case resp.StatusCode >= 200 && resp.StatusCode < 300:
			return resp, body, nil
		default:
			apiErr := newAPIError(resp, body, time.Now())
			if !retryable(apiErr, p) {
				return nil, nil, apiErr
			}
			err, wait = apiErr, apiErr.RetryAfter
		}
		last = err
		if n > c.retries || wait > maxRetryAfter {
			return nil, nil, err
		}
		if wait == 0 {
			wait = backoff(n)
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			// Sleeping into the deadline would only trade this error for a vaguer one.
			return nil, nil, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, nil, contextError(ctx, last)
		case <-t.C:
		}
	}
}

// attempt sends once under the per-attempt timeout and reads the whole answer before that
// timeout's context is cancelled.
func (c *SDK) attempt(ctx context.Context, send sendFunc) (*http.Response, []byte, error) {
	actx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	resp, err := send(actx)
	if err == nil {
		var body []byte
		body, err = io.ReadAll(io.LimitReader(resp.Body, maxBody))
		_ = resp.Body.Close()
		if err == nil {
			return resp, body, nil
		}
	}
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return nil, nil, fmt.Errorf("leadchat: attempt timed out after %v: %w", c.timeout, err)
	}
	return nil, nil, fmt.Errorf("leadchat: %w", err)
}

// retryable tells the failures that a later attempt may cure from those it never will.
func retryable(e *APIError, p policy) bool {
	switch e.StatusCode {
	case http.StatusTooManyRequests:
		// A chat session past its message limit stays there.
		return e.Code != ErrorCodeSessionLimit
	case http.StatusServiceUnavailable:
		return true
	case http.StatusConflict:
		// The first attempt is still running on the server, typically after it timed out here;
		// a later retry gets its answer replayed.
		return p == idempotent && e.Code == ErrorCodeIdempotencyKeyInUse
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return p == idempotent
	}
	return false
}

// neverConnected reports a failure to reach the server at all, which is safe to retry for any
// operation because no request left this machine.
func neverConnected(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// contextError wraps the context's error, and the failure that made the call wait, if any.
func contextError(ctx context.Context, last error) error {
	if last == nil {
		return fmt.Errorf("leadchat: %w", ctx.Err())
	}
	return fmt.Errorf("leadchat: %w; last failure: %w", ctx.Err(), last)
}

// backoff is the wait before the given retry, jittered ±25 % so that clients that failed
// together do not come back together.
func backoff(retry int) time.Duration {
	d := firstBackoff
	for i := 1; i < retry && d < maxBackoff; i++ {
		d *= 4
	}
	d = min(d, maxBackoff)
	return d*3/4 + rand.N(d/2)
}

// parseRetryAfter reads Retry-After as seconds or as an HTTP date; anything else is 0.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, 1<<20)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
