// Package cache keeps what the database says about a company (its keys, widget settings,
// assistant profile) in memory, and forgets it the moment another process changes it.
//
// A Map is trusted only while the database's change feed is live: every change notification
// empties the maps that follow its topic, and while the feed is down nothing is cached at all,
// because a change could be missed. So a revoked key or a new widget setting takes effect on
// every running instance as soon as the notification arrives.
package cache

import (
	"context"
	"slices"
	"sync"
)

// maxEntries bounds a map; past it the map starts over, which costs only reloads.
const maxEntries = 100_000

// Map caches values by key for the topics it follows.
type Map[K comparable, V any] struct {
	topics []string

	mu   sync.RWMutex
	live bool
	gen  Generation // counts flushes, so a load that raced one is not cached
	m    map[K]V
}

// New builds a map that empties on changes to any of topics.
func New[K comparable, V any](topics ...string) *Map[K, V] {
	return &Map[K, V]{topics: topics, m: map[K]V{}}
}

// Cached returns the cached value for k, if there is one; it loads nothing.
func (c *Map[K, V]) Cached(k K) (V, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	return v, ok
}

// Get returns the cached value for k, or loads, caches and returns it.
func (c *Map[K, V]) Get(ctx context.Context, k K, load func(context.Context) (V, error)) (V, error) {
	c.mu.RLock()
	v, ok := c.m[k]
	gen := c.gen
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	v, err := load(ctx)
	if err != nil {
		return v, err
	}
	c.Add(k, v, gen)
	return v, nil
}

// Generation is the map's state now, to pass to Add with a value loaded after it.
func (c *Map[K, V]) Generation() Generation {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.gen
}

// Add caches v for k, unless the map was emptied since gen or the change feed is down. It is
// for a caller that loads a value itself (to share one load among many requests, say) and
// caches it before the load is seen to end.
func (c *Map[K, V]) Add(k K, v V, gen Generation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live && c.gen == gen {
		if len(c.m) >= maxEntries {
			c.m = map[K]V{}
		}
		c.m[k] = v
	}
}

// Changed empties the map if it follows topic what; "" means anything may have changed.
func (c *Map[K, V]) Changed(what string) {
	if what != "" && !slices.Contains(c.topics, what) {
		return
	}
	c.flush()
}

// Live tells whether the change feed is connected; while it is not, nothing is cached.
func (c *Map[K, V]) Live(up bool) {
	c.mu.Lock()
	c.live = up
	c.mu.Unlock()
	c.flush()
}

// IsLive reports whether the map caches.
func (c *Map[K, V]) IsLive() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.live
}

func (c *Map[K, V]) flush() {
	c.mu.Lock()
	c.gen++
	c.m = map[K]V{}
	c.mu.Unlock()
}

// Follower is anything that follows the change feed.
type Follower interface {
	Changed(what string)
	Live(up bool)
}

// Group passes the change feed's events on to every follower.
type Group []Follower

// Changed tells every follower.
func (g Group) Changed(what string) {
	for _, f := range g {
		f.Changed(what)
	}
}

// Live tells every follower.
func (g Group) Live(up bool) {
	for _, f := range g {
		f.Live(up)
	}
}
