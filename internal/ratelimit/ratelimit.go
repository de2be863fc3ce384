// Package ratelimit holds the in-memory token-bucket limiters of one instance and the client
// address rules they key on.
//
// Several instances behind a load balancer each keep their own buckets, so a client may get up
// to N times a limit from N instances. Deployments that need one shared budget limit at their
// gateway (and set LEADCHAT_RATE_LIMIT=off here), or would move the buckets to a shared store:
// a PostgreSQL table keyed by (limit, key, minute) with an upsert-and-compare, or Redis INCR
// with EXPIRE.
package ratelimit

import (
	"sync"
	"time"
)

// Limiter allows a number of events per minute per key, with bursts up to that number.
type Limiter struct {
	perMinute float64
	now       func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// New builds a limiter of perMinute events per minute per key. now may be nil (time.Now).
func New(perMinute int, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{perMinute: float64(perMinute), now: now, buckets: map[string]*bucket{}, swept: now()}
}

// Allow takes one token for key. When none is left it returns false and how long until one is.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	now := l.now()
	rate := l.perMinute / 60 // tokens a second
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.perMinute, last: now}
		l.buckets[key] = b
	} else {
		b.tokens = min(l.perMinute, b.tokens+now.Sub(b.last).Seconds()*rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / rate * float64(time.Second))
	return false, wait
}

// sweep forgets, once a minute, the buckets that have refilled: they equal a fresh one.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	for k, b := range l.buckets {
		if now.Sub(b.last) >= time.Minute {
			delete(l.buckets, k)
		}
	}
}

// RetryAfterSeconds rounds a wait up to whole seconds, at least 1, for a Retry-After header.
func RetryAfterSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
