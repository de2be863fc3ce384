package postgres_test

import (
	"context"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/ratelimit"
)

// twoInstances opens two stores on one database, each with its own pool, as two instances of
// the service would.
func twoInstances(t *testing.T) (*postgres.Store, *postgres.Store) {
	t.Helper()
	dsn := pgtest.NewDSN(t)
	var stores [2]*postgres.Store
	for i := range stores {
		s, err := postgres.Open(context.Background(), dsn, postgres.Options{MaxOpenConns: 8})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	return stores[0], stores[1]
}

// age moves every bucket's last use back by d, as if d had passed.
func age(t *testing.T, s *postgres.Store, d time.Duration) {
	t.Helper()
	if _, err := s.DB().Exec(`UPDATE rate_limit_buckets SET updated_at = updated_at - $1::interval`, d.String()); err != nil {
		t.Fatal(err)
	}
}

func TestSharedLimiterAcrossInstances(t *testing.T) {
	t.Parallel()
	a, b := twoInstances(t)
	ctx := context.Background()
	la, lb := ratelimit.NewShared(a, "config", 10), ratelimit.NewShared(b, "config", 10)
	client := ratelimit.ClientKey(netip.MustParseAddr("192.0.2.1"))
	for i := range 10 {
		l := la
		if i%2 == 1 {
			l = lb
		}
		if ok, _, err := l.Allow(ctx, client); err != nil || !ok {
			t.Fatalf("event %d: ok %v, err %v; want allowed within the burst", i, ok, err)
		}
	}
	ok, wait, err := lb.Allow(ctx, client)
	if err != nil || ok || wait < 5*time.Second || wait > 6*time.Second {
		t.Fatalf("11th event on the other instance: ok %v, wait %v, err %v; want refused, about 6s", ok, wait, err)
	}
	if ok, _, _ := la.Check(ctx, client); ok {
		t.Error("Check allows an empty bucket")
	}
	for name, l := range map[string]*ratelimit.Shared{
		"another limiter": ratelimit.NewShared(a, "chat", 10),
		"another client":  la,
	} {
		key := client
		if name == "another client" {
			key = ratelimit.ClientKey(netip.MustParseAddr("192.0.2.2"))
		}
		if ok, _, err := l.Allow(ctx, key); err != nil || !ok {
			t.Errorf("%s shares the bucket (ok %v, err %v)", name, ok, err)
		}
	}
	sameNet := ratelimit.ClientKey(netip.MustParseAddr("2001:db8:1:2::1"))
	for range 10 {
		la.Allow(ctx, sameNet)
	}
	if ok, _, _ := lb.Allow(ctx, ratelimit.ClientKey(netip.MustParseAddr("2001:db8:1:2:ffff::9"))); ok {
		t.Error("another address of the same IPv6 /64 has a bucket of its own")
	}

	age(t, a, 6*time.Second)
	if ok, _, _ := lb.Allow(ctx, client); !ok {
		t.Error("no token after six seconds at 10 a minute")
	}
	if ok, _, _ := la.Allow(ctx, client); ok {
		t.Error("two tokens after one refill")
	}
}

func TestSharedCheckTakesNothing(t *testing.T) {
	t.Parallel()
	a, _ := twoInstances(t)
	ctx := context.Background()
	l := ratelimit.NewShared(a, "auth_failures", 2)
	key := ratelimit.ClientKey(netip.MustParseAddr("198.51.100.7"))
	for range 5 {
		if ok, _, err := l.Check(ctx, key); err != nil || !ok {
			t.Fatalf("Check of a fresh key: ok %v, err %v", ok, err)
		}
	}
	l.Allow(ctx, key)
	l.Allow(ctx, key)
	if ok, wait, _ := l.Check(ctx, key); ok || wait <= 0 {
		t.Errorf("Check after the burst: ok %v, wait %v; want refused with a wait", ok, wait)
	}
}

// TestSharedLimitUnderConcurrency: requests racing on both instances get exactly the burst, plus
// what refilled while they ran.
func TestSharedLimitUnderConcurrency(t *testing.T) {
	t.Parallel()
	a, b := twoInstances(t)
	ctx := context.Background()
	const perMinute = 60
	ls := []*ratelimit.Shared{ratelimit.NewShared(a, "chat", perMinute), ratelimit.NewShared(b, "chat", perMinute)}
	key := ratelimit.ClientKey(netip.MustParseAddr("203.0.113.5"))
	var allowed atomic.Int64
	var wg sync.WaitGroup
	began := time.Now()
	for i := range 16 {
		wg.Go(func() {
			for range 15 {
				ok, _, err := ls[i%2].Allow(ctx, key)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	refilled := int64(time.Since(began).Seconds()*perMinute/60) + 1
	if n := allowed.Load(); n < perMinute || n > perMinute+refilled {
		t.Errorf("%d of 240 racing requests allowed, want %d to %d", n, perMinute, perMinute+refilled)
	}
}

func TestPurgeRateBuckets(t *testing.T) {
	t.Parallel()
	a, _ := twoInstances(t)
	ctx := context.Background()
	l := ratelimit.NewShared(a, "config", 5)
	l.Allow(ctx, ratelimit.ClientKey(netip.MustParseAddr("192.0.2.1")))
	age(t, a, 61*time.Second)
	l.Allow(ctx, ratelimit.ClientKey(netip.MustParseAddr("192.0.2.2")))
	n, err := a.PurgeRateBuckets(ctx)
	if err != nil || n != 1 {
		t.Fatalf("purged %d (%v), want the one bucket untouched for a minute", n, err)
	}
	var left int
	if err := a.DB().QueryRow(`SELECT count(*) FROM rate_limit_buckets`).Scan(&left); err != nil || left != 1 {
		t.Errorf("%d buckets left (%v), want 1", left, err)
	}
}
