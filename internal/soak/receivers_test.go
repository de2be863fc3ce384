//go:build soak

package soak

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/webhook"
)

// webhookRetry is the server's retry schedule in the soak: short, and long enough that a
// receiver failing at random almost never fails a delivery for good.
const webhookRetry = "200ms,500ms,1s,1s,2s,2s,3s,3s,5s,5s,5s,5s"

// deliveryWait bounds how long the deliveries may take to catch up after the run: a job whose
// server was killed mid-attempt waits for River's rescue (30 s after it started, checked every
// 30 s).
const deliveryWait = 3 * time.Minute

// receiver is a webhook endpoint that fails at random: 500s, 503s with Retry-After, dropped
// connections, slow answers. It verifies every request's signature and counts the events it
// accepted (answered 2xx) by webhook-id.
type receiver struct {
	srv     *httptest.Server
	id      uuid.UUID
	webhook *standardwebhooks.Webhook

	mu        sync.Mutex
	requests  int
	failed    map[string]int       // injected failures by kind
	badSig    []string             // requests whose signature did not verify
	accepted  map[string]int       // webhook-id -> 2xx answers
	created   map[string]time.Time // lead id -> first accepted lead.created
	otherType map[string]int       // accepted events of other types
}

func newReceiver() *receiver {
	rc := &receiver{failed: map[string]int{}, accepted: map[string]int{}, created: map[string]time.Time{},
		otherType: map[string]int{}}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.requests++
	if err := rc.webhook.Verify(body, r.Header); err != nil {
		rc.badSig = append(rc.badSig, fmt.Sprintf("%s: %v", r.Header.Get("webhook-id"), err))
	}
	rc.mu.Unlock()
	if err != nil {
		return
	}
	fail := func(kind string) {
		rc.mu.Lock()
		rc.failed[kind]++
		rc.mu.Unlock()
	}
	switch p := rand.Float64(); {
	case p < 0.20:
		fail("500")
		w.WriteHeader(http.StatusInternalServerError)
		return
	case p < 0.25:
		fail("503 Retry-After: 1")
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	case p < 0.30:
		fail("connection dropped")
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		w.WriteHeader(http.StatusBadGateway)
		return
	case p < 0.35:
		time.Sleep(time.Duration(500+rand.N(1500)) * time.Millisecond) // slow, within the timeout
	}
	var ev struct {
		Type string `json:"type"`
		Data struct {
			Lead struct {
				ID string `json:"lead_id"`
			} `json:"lead"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &ev)
	rc.mu.Lock()
	rc.accepted[r.Header.Get("webhook-id")]++
	if ev.Type == "lead.created" {
		if _, seen := rc.created[ev.Data.Lead.ID]; !seen {
			rc.created[ev.Data.Lead.ID] = time.Now()
		}
	} else {
		rc.otherType[ev.Type]++
	}
	rc.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// missing lists the leads that have no accepted lead.created yet.
func (rc *receiver) missing(leads []string) []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []string
	for _, id := range leads {
		if _, ok := rc.created[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// receivers are the soak's webhook endpoints.
type receivers []*receiver

// startReceivers starts n receivers and adds each as a webhook endpoint of the company.
func startReceivers(ctx context.Context, dsn string, companyID uuid.UUID, n int) (receivers, error) {
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 2})
	if err != nil {
		return nil, err
	}
	defer store.Close()
	var rs receivers
	for range n {
		rc := newReceiver()
		secret, err := webhook.NewSecret()
		if err != nil {
			return nil, err
		}
		if rc.webhook, err = standardwebhooks.NewWebhook(secret); err != nil {
			return nil, err
		}
		ep, err := store.CreateEndpoint(ctx, companyID, rc.srv.URL, nil, secret)
		if err != nil {
			return nil, err
		}
		rc.id = ep.ID
		rs = append(rs, rc)
	}
	return rs, nil
}

func (rs receivers) close() {
	for _, rc := range rs {
		rc.srv.Close()
	}
}

// deliveryFigures is what the receivers got, held against the stored leads.
type deliveryFigures struct {
	leads, requests, accepted, distinct, duplicates, badSig int
	failed                                                  map[string]int
	waited                                                  time.Duration
}

// awaitDeliveries waits until every stored lead of the company has an accepted lead.created at
// every receiver, then checks that every accepted event is of a stored lead and every request
// verified.
func (rs receivers) awaitDeliveries(ctx context.Context, dsn string, companyID uuid.UUID) (deliveryFigures, []string, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return deliveryFigures{}, nil, err
	}
	defer db.Close()
	var leads []string
	err = scan(ctx, db, `SELECT id::text FROM leads WHERE company_id = $1`, companyID, func(rows *sql.Rows) error {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		leads = append(leads, id)
		return nil
	})
	if err != nil {
		return deliveryFigures{}, nil, err
	}
	began := time.Now()
	var problems []string
	for _, rc := range rs {
		for {
			miss := rc.missing(leads)
			if len(miss) == 0 {
				break
			}
			if time.Since(began) > deliveryWait {
				for i, id := range miss {
					if i == 10 {
						problems = append(problems, fmt.Sprintf("... and %d more leads without lead.created at %s", len(miss)-i, rc.srv.URL))
						break
					}
					problems = append(problems, fmt.Sprintf("lost event: lead %s is stored, and %s never accepted its lead.created (waited %v)",
						id, rc.srv.URL, deliveryWait))
				}
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	fig := deliveryFigures{leads: len(leads), failed: map[string]int{}, waited: time.Since(began)}
	stored := map[string]bool{}
	for _, id := range leads {
		stored[id] = true
	}
	for _, rc := range rs {
		rc.mu.Lock()
		fig.requests += rc.requests
		fig.badSig += len(rc.badSig)
		for _, s := range rc.badSig {
			problems = append(problems, "signature: "+s)
		}
		for k, n := range rc.failed {
			fig.failed[k] += n
		}
		for _, n := range rc.accepted {
			fig.accepted += n
			fig.distinct++
			fig.duplicates += n - 1
		}
		for id := range rc.created {
			if !stored[id] {
				problems = append(problems, fmt.Sprintf("event without its change: lead.created of lead %s, which is not stored", id))
			}
		}
		for typ, n := range rc.otherType {
			problems = append(problems, fmt.Sprintf("%d unexpected %s events", n, typ))
		}
		rc.mu.Unlock()
	}
	slices.Sort(problems)
	return fig, problems, nil
}
