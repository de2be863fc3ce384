package assistant

import (
	"context"
	"errors"
	"strings"
)

// WithFallback answers with primary and, on any error, timeout or a reply that breaks the rules
// (empty, or stating a price while GateQuote && !ContactComplete), with fallback's answer
// instead, saying why in Answer.FellBack. The visitor gets an answer even when
// ctx ends first: fallback then runs without ctx's deadline, as the built-in assistant needs
// no time.
func WithFallback(primary, fallback Assistant) Assistant {
	return &withFallback{primary: primary, fallback: fallback}
}

type withFallback struct {
	primary, fallback Assistant
}

type result struct {
	answer Answer
	err    error
}

func (w *withFallback) Answer(ctx context.Context, t Turn) (Answer, error) {
	// primary runs apart so that one which ignores ctx cannot hold the visitor past it; the
	// channel is buffered so that it can finish and be collected after we stop waiting.
	done := make(chan result, 1)
	go func() {
		a, err := w.primary.Answer(ctx, t)
		done <- result{a, err}
	}()
	var reason string
	select {
	case r := <-done:
		reason = broken(r, t)
		if reason == "" {
			return r.answer, nil
		}
	case <-ctx.Done():
		reason = "timeout: " + ctx.Err().Error()
	}
	a, err := w.fallback.Answer(context.WithoutCancel(ctx), t)
	a.FellBack = reason
	return a, err
}

// broken returns why a primary's result cannot be used, or "" when it can.
func broken(r result, t Turn) string {
	switch {
	case errors.Is(r.err, context.DeadlineExceeded):
		return "timeout: " + r.err.Error()
	case r.err != nil:
		return "error: " + r.err.Error()
	case strings.TrimSpace(r.answer.Text) == "":
		return "empty reply"
	case t.gated() && ContainsPrice(r.answer.Text):
		return "price while gate_quote holds it back"
	}
	return ""
}
