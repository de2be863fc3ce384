//go:build soak

package soak

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// request is one lead a client means to create. Its marker is the lead's details, unique, so
// the stored lead can be found again; body is built once, so every retry sends the same bytes.
type request struct {
	marker   string
	idemKey  string // empty: sent once, without an Idempotency-Key
	body     []byte
	attempts int
	leadID   string // from the 201; empty while unacknowledged
	lastFail string // what the last failed attempt got: "transport" or the status code
	failedID string // the X-Request-Id of the last failed answer, to find it in the server log
}

// load is the clients and what they were told.
type load struct {
	base, apiKey string
	http         *http.Client
	onAck        func() // called on every 201, when set

	sent, acked, failed, retries atomic.Int64

	mu         sync.Mutex
	requests   []*request
	failures   map[string]int // failed attempts by what they got: "transport" or the status code
	unexpected []string       // answers a valid create must never get
}

func newLoad(base, apiKey string) *load {
	return &load{base: base, apiKey: apiKey, failures: map[string]int{}, http: &http.Client{
		Timeout:   15 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 64},
	}}
}

// run runs n clients until ctx ends; even-numbered ones send an Idempotency-Key and retry.
func (l *load) run(ctx context.Context, n int) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { l.client(ctx, i%2 == 0) })
	}
	wg.Wait()
}

// client creates leads one after another. An idempotent client retries a request (same key,
// same body) after a transport error, a 5xx or a 409 until it gets its 201 or ctx ends; the
// others send each request once. A request in flight when ctx ends still gets its answer.
func (l *load) client(ctx context.Context, idempotent bool) {
	for ctx.Err() == nil {
		r := l.newRequest(idempotent)
		for {
			outcome := l.attempt(r)
			if outcome != retryable || !idempotent || ctx.Err() != nil {
				break
			}
			l.retries.Add(1)
			pause(ctx, 20*time.Millisecond, 150*time.Millisecond)
		}
		if r.leadID == "" {
			// A failure is an outage: do not spin on a server that is down.
			pause(ctx, 20*time.Millisecond, 100*time.Millisecond)
		}
	}
}

func (l *load) newRequest(idempotent bool) *request {
	marker := uuid.NewString()
	r := &request{marker: marker}
	if idempotent {
		r.idemKey = "soak-" + marker
	}
	r.body, _ = json.Marshal(map[string]string{
		"first_name": "Soak Teszt", "email": "soak+" + marker[:8] + "@example.hu",
		"details": marker, "source": "api",
	})
	l.mu.Lock()
	l.requests = append(l.requests, r)
	l.mu.Unlock()
	return r
}

type outcome int

const (
	created   outcome = iota // 201
	retryable                // transport error, 5xx or 409: the outcome is unknown or not yet known
	rejected                 // any other answer, which a valid create never gets
)

// attempt sends r once and records what came back.
func (l *load) attempt(r *request) outcome {
	r.attempts++
	l.sent.Add(1)
	res, err := l.post(r)
	switch {
	case err != nil:
		l.fail(r, "transport")
		r.failedID = ""
		return retryable
	case res.status >= 500, res.status == http.StatusConflict:
		l.fail(r, fmt.Sprint(res.status))
		r.failedID = res.requestID
		return retryable
	case res.status == http.StatusCreated && res.leadID != "":
		l.acked.Add(1)
		r.leadID = res.leadID
		if l.onAck != nil {
			l.onAck()
		}
		return created
	}
	l.reject(fmt.Sprintf("request %s: %d %s", r.marker, res.status, res.body))
	return rejected
}

func (l *load) fail(r *request, what string) {
	l.failed.Add(1)
	r.lastFail = what
	l.mu.Lock()
	l.failures[what]++
	l.mu.Unlock()
}

func (l *load) reject(msg string) {
	l.mu.Lock()
	l.unexpected = append(l.unexpected, msg)
	l.mu.Unlock()
}

// answer is what the service said to one attempt.
type answer struct {
	status    int
	leadID    string
	replayed  bool
	requestID string
	body      string
}

// post sends r without a context of the run, so the end of the run cancels no request halfway.
func (l *load) post(r *request) (answer, error) {
	req, err := http.NewRequest(http.MethodPost, l.base+"/api/v1/leads", bytes.NewReader(r.body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", l.apiKey)
	if r.idemKey != "" {
		req.Header.Set("Idempotency-Key", r.idemKey)
	}
	resp, err := l.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return answer{}, err
	}
	a := answer{status: resp.StatusCode, body: string(b), requestID: resp.Header.Get("X-Request-Id"),
		replayed: resp.Header.Get("Idempotent-Replayed") == "true"}
	if a.status == http.StatusCreated {
		var ok struct {
			LeadID string `json:"lead_id"`
		}
		if err := json.Unmarshal(b, &ok); err != nil {
			return answer{}, fmt.Errorf("201 with an unreadable body %q: %w", b, err)
		}
		a.leadID = ok.LeadID
	}
	return a, nil
}

// pause sleeps a random time in [lo, hi) or until ctx ends.
func pause(ctx context.Context, lo, hi time.Duration) {
	t := time.NewTimer(lo + rand.N(hi-lo))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
