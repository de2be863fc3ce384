package leadclient

import (
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{" 1 ", time.Second},
		{"0", 0},
		{"-5", 0},
		{"soon", 0},
		{"Sat, 01 Mar 2025 12:00:30 GMT", 30 * time.Second},
		{"Sat, 01 Mar 2025 11:59:00 GMT", 0},
	} {
		if got := parseRetryAfter(tc.header, now); got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	for retry, base := range map[int]time.Duration{
		1: 100 * time.Millisecond, 2: 400 * time.Millisecond, 3: 1600 * time.Millisecond,
		4: maxBackoff, 100: maxBackoff,
	} {
		for range 50 {
			if d := backoff(retry); d < base*3/4 || d >= base*5/4 {
				t.Fatalf("backoff(%d) = %v, want within ±25%% of %v", retry, d, base)
			}
		}
	}
}

func TestNewIdempotencyKey(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		k := newIdempotencyKey()
		if len(k) != 36 || k[14] != '4' || seen[k] {
			t.Fatalf("key %q is not a fresh UUID v4", k)
		}
		seen[k] = true
	}
}
