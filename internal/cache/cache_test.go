package cache

import (
	"context"
	"testing"
)

func TestMap(t *testing.T) {
	ctx := context.Background()
	c := New[string, int]("keys")
	loads := 0
	load := func(v int) func(context.Context) (int, error) {
		return func(context.Context) (int, error) { loads++; return v, nil }
	}
	get := func(v int) int {
		t.Helper()
		got, err := c.Get(ctx, "k", load(v))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	if get(1) != 1 || get(2) != 2 || loads != 2 {
		t.Fatalf("not live: want a load each time, got %d loads", loads)
	}
	c.Live(true)
	if get(3) != 3 || get(4) != 3 || loads != 3 {
		t.Fatalf("live: want the cached value, got %d loads", loads)
	}
	c.Changed("widget")
	if get(5) != 3 {
		t.Fatal("a change of another topic emptied the map")
	}
	if v, ok := c.Cached("k"); !ok || v != 3 {
		t.Fatalf("Cached: %d %v, want the cached 3", v, ok)
	}
	c.Changed("keys")
	if _, ok := c.Cached("k"); ok {
		t.Fatal("Cached found a value after a change of its topic")
	}
	if get(6) != 6 {
		t.Fatal("a change of its topic did not empty the map")
	}
	c.Changed("")
	if get(7) != 7 {
		t.Fatal("an unknown change did not empty the map")
	}
	c.Live(false)
	if get(8) != 8 || get(9) != 9 {
		t.Fatal("cached while the feed is down")
	}
}

func TestLoadRacingAChangeIsNotCached(t *testing.T) {
	ctx := context.Background()
	c := New[string, int]("keys")
	c.Live(true)
	_, _ = c.Get(ctx, "k", func(context.Context) (int, error) {
		c.Changed("keys") // the change arrives while the old value is being loaded
		return 1, nil
	})
	got, _ := c.Get(ctx, "k", func(context.Context) (int, error) { return 2, nil })
	if got != 2 {
		t.Fatalf("got %d: a value loaded before a change was cached", got)
	}
}

func TestSet(t *testing.T) {
	s := NewSet[int](3, "keys")
	add := func(k int) {
		_, gen := s.Has(k)
		s.Add(k, gen)
	}
	add(1)
	if ok, _ := s.Has(1); ok {
		t.Fatal("remembered while the feed is down")
	}
	s.Live(true)
	add(1)
	add(2)
	add(3)
	s.Has(1) // 1 is used, so 2 is the least recently used
	add(4)
	if ok, _ := s.Has(2); ok || s.Len() != 3 {
		t.Errorf("over the bound: 2 kept %v, %d keys; want 2 dropped, 3 keys", ok, s.Len())
	}
	if ok, _ := s.Has(1); !ok {
		t.Error("a recently used key was dropped")
	}

	s.Changed("widget")
	if ok, _ := s.Has(1); !ok {
		t.Error("emptied by a topic it does not follow")
	}
	_, gen := s.Has(5)
	s.Changed("keys") // a key changed while 5 was being looked up
	s.Add(5, gen)
	if ok, _ := s.Has(5); ok || s.Len() != 0 {
		t.Errorf("after a change: 5 kept %v, %d keys; want an empty set", ok, s.Len())
	}
	add(6)
	s.Live(false)
	if ok, _ := s.Has(6); ok {
		t.Error("kept across a feed outage")
	}
}

// TestMapAdd: a value loaded by the caller is cached only while the feed is live and the map
// was not emptied since the load began.
func TestMapAdd(t *testing.T) {
	c := New[string, int]("keys")
	c.Add("k", 1, c.Generation())
	if _, ok := c.Cached("k"); ok {
		t.Fatal("cached while the feed is down")
	}
	c.Live(true)
	gen := c.Generation()
	c.Changed("keys") // a key changed while k was being loaded
	c.Add("k", 2, gen)
	if _, ok := c.Cached("k"); ok {
		t.Fatal("a value loaded before a change was cached")
	}
	c.Add("k", 3, c.Generation())
	if v, ok := c.Cached("k"); !ok || v != 3 {
		t.Fatalf("Cached: %d %v, want 3", v, ok)
	}
}
