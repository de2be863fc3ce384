package cache

import (
	"fmt"
	"slices"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Set remembers keys the database said nothing (or nothing usable) about, so asking again costs
// no round trip: a negative cache. Like a Map it is trusted only while the change feed is live
// and empties on changes to its topics; unlike a Map it keeps a fixed number of keys and drops
// the least recently used first, so a flood of new keys cannot push out the ones seen often.
type Set[K comparable] struct {
	topics []string

	mu   sync.Mutex
	live bool
	gen  Generation // counts flushes, so an answer that raced one is not remembered
	lru  *simplelru.LRU[K, struct{}]
}

// Generation is a Set's or a Map's state when a lookup began; their Add keeps nothing if they
// were emptied since.
type Generation uint64

// NewSet builds a set of at most size keys that empties on changes to any of topics.
func NewSet[K comparable](size int, topics ...string) *Set[K] {
	lru, err := simplelru.NewLRU[K, struct{}](size, nil)
	if err != nil {
		panic(fmt.Sprintf("cache: a set of %d: %v", size, err))
	}
	return &Set[K]{topics: topics, lru: lru}
}

// Has reports whether k is remembered, and the generation to pass to Add after asking the
// database.
func (s *Set[K]) Has(k K) (bool, Generation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.lru.Get(k)
	return ok, s.gen
}

// Add remembers k, unless the set was emptied since gen or the change feed is down.
func (s *Set[K]) Add(k K, gen Generation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live && s.gen == gen {
		s.lru.Add(k, struct{}{})
	}
}

// Len is how many keys the set holds.
func (s *Set[K]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Changed empties the set if it follows topic what; "" means anything may have changed.
func (s *Set[K]) Changed(what string) {
	if what != "" && !slices.Contains(s.topics, what) {
		return
	}
	s.flush()
}

// Live tells whether the change feed is connected; while it is not, nothing is remembered.
func (s *Set[K]) Live(up bool) {
	s.mu.Lock()
	s.live = up
	s.mu.Unlock()
	s.flush()
}

func (s *Set[K]) flush() {
	s.mu.Lock()
	s.gen++
	s.lru.Purge()
	s.mu.Unlock()
}
