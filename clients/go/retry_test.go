package leadclient_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

func TestCreateLeadRetries(t *testing.T) {
	t.Run("5xx then created, with the same key", func(t *testing.T) {
		srv, s := serve(t, failing(500, "internal", "Belső hiba történt."), created(leadID))
		res, err := newSDK(t, srv.URL).CreateLead(context.Background(), minimal)
		if err != nil {
			t.Fatal(err)
		}
		if res.LeadID != leadID {
			t.Errorf("lead id = %s", res.LeadID)
		}
		sameKey(t, s.requests(), 2)
	})

	t.Run("timeout then created, with the same key", func(t *testing.T) {
		srv, s := serve(t, hanging, created(leadID))
		res, err := newSDK(t, srv.URL, leadclient.WithTimeout(100*time.Millisecond)).CreateLead(context.Background(), minimal)
		if err != nil {
			t.Fatal(err)
		}
		if res.LeadID != leadID {
			t.Errorf("lead id = %s", res.LeadID)
		}
		sameKey(t, s.requests(), 2)
	})

	t.Run("first attempt still running, then replayed", func(t *testing.T) {
		srv, s := serve(t, failing(409, "idempotency_key_in_use", "Folyamatban."), created(leadID, "Idempotent-Replayed", "true"))
		res, err := newSDK(t, srv.URL).CreateLead(context.Background(), minimal)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Replayed {
			t.Error("not replayed")
		}
		sameKey(t, s.requests(), 2)
	})

	t.Run("429 waits out Retry-After", func(t *testing.T) {
		srv, s := serve(t, failing(429, "rate_limited", "Túl sok kérés.", "Retry-After", "1"), created(leadID))
		if _, err := newSDK(t, srv.URL).CreateLead(context.Background(), minimal); err != nil {
			t.Fatal(err)
		}
		reqs := sameKey(t, s.requests(), 2)
		if gap := reqs[1].at.Sub(reqs[0].at); gap < time.Second {
			t.Errorf("retried after %v, want at least the 1 s of Retry-After", gap)
		}
	})

	t.Run("gives up after 3 attempts with the last error", func(t *testing.T) {
		srv, s := serve(t, failing(503, "unavailable", "Nem érhető el."))
		_, err := newSDK(t, srv.URL).CreateLead(context.Background(), minimal)
		if !leadclient.IsCode(err, "unavailable") {
			t.Errorf("err = %v, want unavailable", err)
		}
		sameKey(t, s.requests(), 3)
	})

	t.Run("no retries", func(t *testing.T) {
		srv, s := serve(t, failing(503, "unavailable", "Nem érhető el."))
		_, err := newSDK(t, srv.URL, leadclient.WithRetries(0)).CreateLead(context.Background(), minimal)
		if !leadclient.IsCode(err, "unavailable") {
			t.Errorf("err = %v, want unavailable", err)
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})

	t.Run("network error then created", func(t *testing.T) {
		srv, s := serve(t, func(w http.ResponseWriter, _ *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close() // hang up without an answer
			}
		}, created(leadID))
		if _, err := newSDK(t, srv.URL).CreateLead(context.Background(), minimal); err != nil {
			t.Fatal(err)
		}
		sameKey(t, s.requests(), 2)
	})
}

// sameKey checks that there were n requests, all with one Idempotency-Key.
func sameKey(t *testing.T, reqs []seen, n int) []seen {
	t.Helper()
	if len(reqs) != n {
		t.Fatalf("%d requests, want %d", len(reqs), n)
	}
	key := reqs[0].header.Get("Idempotency-Key")
	for i, r := range reqs {
		if got := r.header.Get("Idempotency-Key"); got != key || key == "" {
			t.Errorf("request %d has Idempotency-Key %q, the first had %q", i+1, got, key)
		}
	}
	return reqs
}

func TestCreateLeadContext(t *testing.T) {
	t.Run("deadline while the server hangs", func(t *testing.T) {
		srv, _ := serve(t, hanging)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := newSDK(t, srv.URL).CreateLead(ctx, minimal)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want one wrapping context.DeadlineExceeded", err)
		}
		// Generous slack: this proves the deadline is obeyed, not how fast.
		if took := time.Since(start); took > 200*time.Millisecond+time.Second {
			t.Errorf("returned after %v", took)
		}
	})

	t.Run("deadline while waiting to retry", func(t *testing.T) {
		srv, s := serve(t, failing(500, "internal", "Belső hiba történt."))
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		_, err := newSDK(t, srv.URL, leadclient.WithRetries(10)).CreateLead(ctx, minimal)
		if !leadclient.IsCode(err, "internal") {
			t.Errorf("err = %v, want the last failure, internal", err)
		}
		if n := len(s.requests()); n > 3 {
			t.Errorf("%d requests within 250 ms", n)
		}
	})

	t.Run("Retry-After beyond the deadline returns at once", func(t *testing.T) {
		srv, s := serve(t, failing(429, "rate_limited", "Túl sok kérés.", "Retry-After", "20"))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := newSDK(t, srv.URL).CreateLead(ctx, minimal)
		var apiErr *leadclient.APIError
		if !errors.As(err, &apiErr) || apiErr.Code != "rate_limited" || apiErr.RetryAfter != 20*time.Second {
			t.Errorf("err = %v, want rate_limited with RetryAfter 20s", err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("returned after %v", took)
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		srv, _ := serve(t, hanging)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		_, err := newSDK(t, srv.URL).CreateLead(ctx, minimal)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want one wrapping context.Canceled", err)
		}
	})
}
