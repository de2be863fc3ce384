// Package ratelimit holds the in-memory token-bucket limiters of one instance and the client
// address rules they key on.
//
// Every limiter keeps its buckets in one table shared by all of them and bounded in size: when
// it is full the least recently used bucket is dropped, so clients rotating through addresses
// cost a fixed amount of memory however many addresses they own. A dropped bucket is a full one
// when its client returns, which is the price of the bound.
//
// Several instances behind a load balancer each keep their own buckets, so a client may get up
// to N times a limit from N instances. Deployments that need one shared budget limit at their
// gateway (and set LEADCHAT_RATE_LIMIT=off here), or would move the buckets to a shared store:
// a PostgreSQL table keyed by (limit, key, minute) with an upsert-and-compare, or Redis INCR
// with EXPIRE.
package ratelimit

import (
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// DefaultBuckets is the default size of the bucket table.
const DefaultBuckets = 100_000

// Buckets is the bounded table of every limiter's buckets. Its zero value is not usable; build
// one with NewBuckets.
type Buckets struct {
	now    func() time.Time
	origin time.Time // bucket times count from here, so a bucket holds no pointer

	mu     sync.Mutex
	lru    *simplelru.LRU[slot, bucket]
	limits uint8 // limiters made so far, each with its own id
}

// slot is one limiter's bucket for one key.
type slot struct {
	limit uint8
	key   Key
}

type bucket struct {
	tokens float64
	last   time.Duration // since the table's origin
}

// NewBuckets builds a table of at most size buckets. now may be nil (time.Now).
func NewBuckets(size int, now func() time.Time) *Buckets {
	if now == nil {
		now = time.Now
	}
	lru, err := simplelru.NewLRU[slot, bucket](size, nil)
	if err != nil {
		panic(fmt.Sprintf("ratelimit: %d buckets: %v", size, err))
	}
	return &Buckets{now: now, origin: now(), lru: lru}
}

// Len is how many buckets the table holds.
func (b *Buckets) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lru.Len()
}

// Limiter allows a number of events per minute per key, with bursts up to that number.
type Limiter struct {
	table     *Buckets
	id        uint8
	perMinute float64
}

// Limiter makes a limiter of perMinute events per minute per key, its buckets in this table.
func (b *Buckets) Limiter(perMinute int) *Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.limits == 255 {
		panic("ratelimit: more than 255 limiters on one table")
	}
	b.limits++
	return &Limiter{table: b, id: b.limits, perMinute: float64(perMinute)}
}

// Allow takes one token for key. When none is left it returns false and how long until one is.
func (l *Limiter) Allow(key Key) (bool, time.Duration) {
	return l.table.use(l, key, true)
}

// Check reports whether Allow would allow an event now, and if not how long until it would,
// without taking a token: for limits that count only some outcomes (failed authentications).
func (l *Limiter) Check(key Key) (bool, time.Duration) {
	return l.table.use(l, key, false)
}

func (b *Buckets) use(l *Limiter, key Key, take bool) (bool, time.Duration) {
	now := b.now().Sub(b.origin)
	rate := l.perMinute / 60 // tokens a second
	s := slot{limit: l.id, key: key}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweep(now)
	bk, ok := b.lru.Peek(s)
	if ok {
		bk.tokens = min(l.perMinute, bk.tokens+(now-bk.last).Seconds()*rate)
	} else {
		bk.tokens = l.perMinute
	}
	bk.last = now
	if bk.tokens < 1 {
		if take {
			b.lru.Add(s, bk)
		}
		return false, time.Duration((1 - bk.tokens) / rate * float64(time.Second))
	}
	if take {
		bk.tokens--
		b.lru.Add(s, bk)
	}
	return true, 0
}

// sweep forgets the least recently used buckets that have refilled: every limit is per minute,
// so a bucket untouched for a minute equals a fresh one. Each bucket is swept once, so the cost
// is spread over the calls.
func (b *Buckets) sweep(now time.Duration) {
	for {
		_, bk, ok := b.lru.GetOldest()
		if !ok || now-bk.last < time.Minute {
			return
		}
		b.lru.RemoveOldest()
	}
}

// RetryAfterSeconds rounds a wait up to whole seconds, at least 1, for a Retry-After header.
func RetryAfterSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
