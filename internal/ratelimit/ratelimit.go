// Package ratelimit holds the in-memory token-bucket limiters of one instance and the client
// address rules they key on.
//
// Every limiter keeps its buckets in one table shared by all of them and bounded in size: when
// it is full the least recently used bucket is dropped, so clients rotating through addresses
// cost a fixed amount of memory however many addresses they own. A dropped bucket is a full one
// when its client returns, which is the price of the bound.
//
// The table is two maps rather than a library's LRU, for a measured reason: an entry of
// github.com/hashicorp/golang-lru/v2 carries list pointers, an expiry time and the key twice,
// several times the bucket itself, and at the default size that alone broke the hostile run's
// memory bound (internal/soak); a linked LRU of our own in a slice grew its index map under
// churn. Here a bucket is a map entry without a pointer, under a seeded 64-bit hash of its key,
// in one of two generations: a bucket in use moves to the current one, and when that is full
// (half the table) or a minute old, the previous generation, every bucket of which was used
// less recently than any current one, is dropped whole. So the least recently used go first,
// half a table at a time.
//
// Several instances behind a load balancer each keep their own buckets in memory, so a client
// may get up to N times a limit from N instances. Shared limiters keep the same buckets in a
// store every instance uses (PostgreSQL, LEADCHAT_RATE_LIMIT_STORE=postgres), one call per
// decision, so a limit holds across instances; the table here stays the default because it
// costs no round trip.
package ratelimit

import (
	"fmt"
	"hash/maphash"
	"sync"
	"time"
)

// DefaultBuckets is the default size of the bucket table.
const DefaultBuckets = 100_000

// Buckets is the bounded table of every limiter's buckets, least recently used first out.
// Build one with NewBuckets.
type Buckets struct {
	now    func() time.Time
	origin time.Time // bucket times count from here, so a bucket holds no pointer
	seed   maphash.Seed
	half   int // the most buckets of one generation

	mu                sync.Mutex
	current, previous map[uint64]bucket // by the hash of (limiter, key)
	since             time.Duration     // when the current generation began
	touched           time.Duration     // when a current bucket was last taken from
	limits            uint8             // limiters made so far, each with its own id
}

// bucket is one limiter's bucket for one key. Two keys whose hashes collide would share one;
// with a 64-bit hash under a secret seed that is a chance of about size²/2^65 (under 10^-9 at
// the default), and no client can aim for it.
type bucket struct {
	tokens float64
	last   time.Duration // since the table's origin
}

// slot names a bucket before it is hashed.
type slot struct {
	limit uint8
	key   Key
}

// NewBuckets builds a table of at most size buckets (at least 2). now may be nil (time.Now).
func NewBuckets(size int, now func() time.Time) *Buckets {
	if size < 2 {
		panic(fmt.Sprintf("ratelimit: a table of %d buckets", size))
	}
	if now == nil {
		now = time.Now
	}
	return &Buckets{now: now, origin: now(), seed: maphash.MakeSeed(), half: size / 2,
		current: map[uint64]bucket{}, previous: map[uint64]bucket{}}
}

// Len is how many buckets the table holds.
func (b *Buckets) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.current) + len(b.previous)
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
// without taking a token or touching the bucket: for limits that count only some outcomes
// (failed authentications).
func (l *Limiter) Check(key Key) (bool, time.Duration) {
	return l.table.use(l, key, false)
}

func (b *Buckets) use(l *Limiter, key Key, take bool) (bool, time.Duration) {
	now := b.now().Sub(b.origin)
	rate := l.perMinute / 60 // tokens a second
	h := maphash.Comparable(b.seed, slot{limit: l.id, key: key})
	b.mu.Lock()
	defer b.mu.Unlock()
	if now-b.since >= time.Minute {
		// Every previous bucket has been untouched for a minute: all refilled, all droppable;
		// the current ones too when none was touched for a minute.
		b.turn(now)
		if now-b.touched >= time.Minute {
			b.turn(now)
		}
	}
	tokens := l.perMinute
	bk, current := b.current[h]
	found := current
	if !found {
		bk, found = b.previous[h]
	}
	if found {
		tokens = min(l.perMinute, bk.tokens+(now-bk.last).Seconds()*rate)
	}
	allowed := tokens >= 1
	if take {
		if allowed {
			tokens--
		}
		if !current {
			delete(b.previous, h)
			if len(b.current) >= b.half {
				b.turn(now)
			}
		}
		b.current[h] = bucket{tokens: tokens, last: now}
		b.touched = now
	}
	if allowed {
		return true, 0
	}
	return false, wait(tokens, l.perMinute)
}

// turn starts a new generation, dropping the previous one.
func (b *Buckets) turn(now time.Duration) {
	b.previous, b.current, b.since = b.current, map[uint64]bucket{}, now
}

// RetryAfterSeconds rounds a wait up to whole seconds, at least 1, for a Retry-After header.
func RetryAfterSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
