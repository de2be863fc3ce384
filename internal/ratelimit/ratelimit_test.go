package ratelimit

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"
)

func key(addr string) Key { return ClientKey(netip.MustParseAddr(addr)) }

func TestLimiter(t *testing.T) {
	now := time.Unix(0, 0)
	table := NewBuckets(100, func() time.Time { return now })
	l := table.Limiter(10)
	a, b := key("192.0.2.1"), key("192.0.2.2")
	for i := range 10 {
		if ok, _ := l.Allow(a); !ok {
			t.Fatalf("event %d refused within the burst", i)
		}
	}
	ok, wait := l.Allow(a)
	if ok || wait != 6*time.Second {
		t.Fatalf("11th event: ok %v, wait %v; want refused, 6s", ok, wait)
	}
	if ok, _ := l.Allow(b); !ok {
		t.Fatal("another key shares the bucket")
	}
	if ok, _ := table.Limiter(10).Allow(a); !ok {
		t.Fatal("another limiter shares the bucket")
	}
	now = now.Add(6 * time.Second)
	if ok, _ := l.Allow(a); !ok {
		t.Fatal("no token after the wait")
	}
	if ok, _ := l.Allow(a); ok {
		t.Fatal("two tokens after one refill")
	}
	now = now.Add(2 * time.Minute)
	l.Allow(key("192.0.2.3"))
	if n := table.Len(); n != 1 {
		t.Errorf("%d buckets after every other one refilled, want 1", n)
	}
}

func TestCheckTakesNothing(t *testing.T) {
	now := time.Unix(0, 0)
	l := NewBuckets(100, func() time.Time { return now }).Limiter(2)
	a := key("192.0.2.1")
	for range 5 {
		if ok, _ := l.Check(a); !ok {
			t.Fatal("Check refused a fresh key")
		}
	}
	l.Allow(a)
	l.Allow(a)
	ok, wait := l.Check(a)
	if ok || wait != 30*time.Second {
		t.Errorf("after the burst Check = %v, %v; want false, 30s", ok, wait)
	}
}

// TestBucketsBounded: rotating addresses fill the table to its size and no further, dropping
// the least recently used bucket first.
func TestBucketsBounded(t *testing.T) {
	now := time.Unix(0, 0)
	table := NewBuckets(1000, func() time.Time { return now })
	l := table.Limiter(1)
	busy := key("198.51.100.7")
	l.Allow(busy) // its one token is spent
	for i := range 100_000 {
		l.Allow(key(fmt.Sprintf("2001:db8:%x:%x::1", i>>16, i&0xffff)))
		if i%500 == 0 {
			l.Check(busy) // a look is no use: the bucket stays least recently used
		}
		if i == 500 {
			if ok, _ := l.Allow(busy); ok {
				t.Fatal("the busy client got a second token")
			}
		}
	}
	if n := table.Len(); n < 500 || n > 1000 {
		t.Errorf("%d buckets, want 500 to the bound of 1000", n)
	}
	if ok, _ := l.Allow(busy); !ok {
		t.Error("the least recently used bucket was not dropped")
	}
}

func TestClientKey(t *testing.T) {
	for _, tt := range []struct {
		name, a, b string
		same       bool
	}{
		{"IPv6 in one /64", "2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", true},
		{"IPv6 in another /64", "2001:db8:1:2::1", "2001:db8:1:3::1", false},
		{"IPv4 neighbours", "192.0.2.1", "192.0.2.2", false},
		{"IPv4 and its mapped form", "192.0.2.1", "::ffff:192.0.2.1", true},
		{"IPv6 zone ignored", "fe80::1%eth0", "fe80::2", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := key(tt.a) == key(tt.b); got != tt.same {
				t.Errorf("ClientKey(%s) == ClientKey(%s) is %v", tt.a, tt.b, got)
			}
		})
	}
	id := [16]byte{1}
	if key("192.0.2.1").WithID(id) == key("192.0.2.1") || IDKey(id) == key("192.0.2.1").WithID(id) {
		t.Error("an API key does not narrow a client's key")
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, time.Millisecond: 1, time.Second: 1, 1500 * time.Millisecond: 2, 6 * time.Second: 6} {
		if got := RetryAfterSeconds(d); got != want {
			t.Errorf("RetryAfterSeconds(%v) = %d, want %d", d, got, want)
		}
	}
}

func TestClientIP(t *testing.T) {
	c, err := NewClientIP("10.0.0.0/8, 192.168.1.1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"direct client", "203.0.113.5:4000", nil, "203.0.113.5"},
		{"direct client forging the header", "203.0.113.5:4000", []string{"1.2.3.4"}, "203.0.113.5"},
		{"behind a trusted proxy", "10.1.2.3:80", []string{"198.51.100.7"}, "198.51.100.7"},
		{"client prepends a fake hop", "10.1.2.3:80", []string{"1.2.3.4, 198.51.100.7"}, "198.51.100.7"},
		{"two trusted proxies", "192.168.1.1:80", []string{"198.51.100.7, 10.9.9.9"}, "198.51.100.7"},
		{"trusted proxy without the header", "10.1.2.3:80", nil, "10.1.2.3"},
		{"garbled header", "10.1.2.3:80", []string{"nonsense"}, "10.1.2.3"},
		{"IPv6", "[2001:db8::1]:443", nil, "2001:db8::1"},
		{"mapped IPv4", "[::ffff:203.0.113.5]:443", nil, "203.0.113.5"},
		{"not an IP address", "@", nil, "invalid IP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Of(tt.remote, tt.xff).String(); got != tt.want {
				t.Errorf("Of(%q, %q) = %q, want %q", tt.remote, tt.xff, got, tt.want)
			}
		})
	}
	if _, err := NewClientIP("not-an-ip"); err == nil {
		t.Error("a bad proxy list was accepted")
	}
}

func TestParseNetworks(t *testing.T) {
	got, err := ParseNetworks(" 127.0.0.0/8, ::1/128 ,10.1.2.3, 192.168.7.9/16")
	if err != nil {
		t.Fatal(err)
	}
	want := "[127.0.0.0/8 ::1/128 10.1.2.3/32 192.168.0.0/16]"
	if fmt.Sprint(got) != want {
		t.Errorf("ParseNetworks = %v, want %v", got, want)
	}
	if !Contains(got, netip.MustParseAddr("127.9.9.9")) || Contains(got, netip.MustParseAddr("10.1.2.4")) {
		t.Error("Contains is wrong")
	}
	for _, bad := range []string{"nonsense", "10.0.0.0/33", "::1/129"} {
		if _, err := ParseNetworks(bad); err == nil {
			t.Errorf("ParseNetworks(%q) accepted", bad)
		}
	}
}

// TestBucketsAgainstAModel drives tables with random calls and holds their answers to a plain
// model that keeps every bucket for ever: a table with room must answer the same, since it drops
// only refilled buckets. A small table must stay in its bound and keep the buckets of the last
// size/2 keys taken from, unless they have refilled.
func TestBucketsAgainstAModel(t *testing.T) {
	type mb struct {
		tokens float64
		last   time.Duration
	}
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 1))
		now := time.Unix(0, 0)
		const keys, small = 24, 8
		roomy := NewBuckets(4*keys, func() time.Time { return now })
		tight := NewBuckets(small, func() time.Time { return now })
		limiters := [][2]*Limiter{{roomy.Limiter(3), tight.Limiter(3)}, {roomy.Limiter(60), tight.Limiter(60)}}
		model := map[slot]mb{}
		var recent []slot // keys taken from, most recent last, each once
		for step := range 5000 {
			now = now.Add(time.Duration(r.IntN(4000)) * time.Millisecond)
			pair, take := limiters[r.IntN(len(limiters))], r.IntN(4) > 0
			key := ClientKey(netip.AddrFrom4([4]byte{192, 0, 2, byte(r.IntN(keys / 2))}))
			s := slot{limit: pair[0].id, key: key}
			at := now.Sub(roomy.origin)
			tokens := pair[0].perMinute
			if b, ok := model[s]; ok {
				tokens = min(pair[0].perMinute, b.tokens+(at-b.last).Seconds()*pair[0].perMinute/60)
			}
			want := tokens >= 1
			var got bool
			if take {
				if want {
					tokens--
				}
				model[s] = mb{tokens, at}
				got, _ = pair[0].Allow(key)
				pair[1].Allow(key)
				if i := slices.Index(recent, s); i >= 0 {
					recent = slices.Delete(recent, i, i+1)
				}
				recent = append(recent, s)
			} else {
				got, _ = pair[0].Check(key)
				pair[1].Check(key)
			}
			if got != want {
				t.Fatalf("seed %d step %d: allowed %v; the model says %v", seed, step, got, want)
			}
			if n := tight.Len(); n > small {
				t.Fatalf("seed %d step %d: %d buckets in a table of %d", seed, step, n, small)
			}
			for _, k := range recent[max(0, len(recent)-small/2):] {
				h := maphash.Comparable(tight.seed, k)
				_, inCurrent := tight.current[h]
				_, inPrevious := tight.previous[h]
				if !inCurrent && !inPrevious && at-model[k].last < time.Minute {
					t.Fatalf("seed %d step %d: a bucket among the last %d taken from was dropped before it refilled", seed, step, small/2)
				}
			}
		}
	}
}
