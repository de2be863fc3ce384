package ratelimit

import (
	"context"
	"time"
)

// SharedStore keeps buckets that every instance uses (PostgreSQL), and makes each decision in
// one step, so two instances asking at once cannot both take the last token.
type SharedStore interface {
	// TakeToken refills the bucket at perMinute a minute, up to perMinute, and takes a token when
	// take is set and one is there. It reports whether one was there and how many are left.
	TakeToken(ctx context.Context, bucket []byte, perMinute int, take bool) (allowed bool, tokens float64, err error)
}

// Shared is a limiter whose buckets live in a SharedStore, so its limit holds across every
// instance behind a load balancer: the same burst and refill as Limiter, at the cost of one
// call to the store per decision.
type Shared struct {
	store     SharedStore
	name      string
	perMinute int
}

// NewShared makes a limiter of perMinute events per minute per key, its buckets in store under
// name, which tells its buckets from other limiters' (every instance must use the same names).
func NewShared(store SharedStore, name string, perMinute int) *Shared {
	return &Shared{store: store, name: name, perMinute: perMinute}
}

// Allow takes one token for key. When none is left it returns false and how long until one is.
func (l *Shared) Allow(ctx context.Context, key Key) (bool, time.Duration, error) {
	return l.use(ctx, key, true)
}

// Check reports whether Allow would allow an event now, and if not how long until it would,
// without taking a token.
func (l *Shared) Check(ctx context.Context, key Key) (bool, time.Duration, error) {
	return l.use(ctx, key, false)
}

func (l *Shared) use(ctx context.Context, key Key, take bool) (bool, time.Duration, error) {
	ok, tokens, err := l.store.TakeToken(ctx, l.bucket(key), l.perMinute, take)
	if err != nil || ok {
		return ok, 0, err
	}
	return false, wait(tokens, float64(l.perMinute)), nil
}

// bucket is the store's id of key's bucket: the limiter's name, a zero byte, then the key's
// client network and API key id, so a client counts by the same /64 as in memory.
func (l *Shared) bucket(key Key) []byte {
	b := make([]byte, 0, len(l.name)+1+len(key.client)+len(key.id))
	b = append(b, l.name...)
	b = append(b, 0)
	b = append(b, key.client[:]...)
	return append(b, key.id[:]...)
}

// wait is how long a bucket holding tokens (fewer than one) takes to hold one, refilling at
// perMinute a minute.
func wait(tokens, perMinute float64) time.Duration {
	return time.Duration((1 - tokens) / (perMinute / 60) * float64(time.Second))
}
