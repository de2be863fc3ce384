package ratelimit

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	now := time.Unix(0, 0)
	l := New(10, func() time.Time { return now })
	for i := range 10 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("event %d refused within the burst", i)
		}
	}
	ok, wait := l.Allow("a")
	if ok || wait != 6*time.Second {
		t.Fatalf("11th event: ok %v, wait %v; want refused, 6s", ok, wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another key shares the bucket")
	}
	now = now.Add(6 * time.Second)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("no token after the wait")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("two tokens after one refill")
	}
	now = now.Add(2 * time.Minute)
	l.Allow("c")
	if _, kept := l.buckets["a"]; kept {
		t.Error("a refilled bucket was not swept")
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Of(tt.remote, tt.xff); got != tt.want {
				t.Errorf("Of(%q, %q) = %q, want %q", tt.remote, tt.xff, got, tt.want)
			}
		})
	}
	if _, err := NewClientIP("not-an-ip"); err == nil {
		t.Error("a bad proxy list was accepted")
	}
}
