//go:build soak

package soak

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
)

// The attacks on deliveries: one company's endpoints answer a MiB of headers or never answer,
// another's all answer a MiB of headers, their leads keep coming, and the first tries to give
// the new-lead e-mail 1,000 addresses; beside them a healthy company's webhooks and e-mails
// are to arrive with p99 under fairP99 (a target the run reports; every one must arrive).
const (
	fairP99      = 2 * time.Second
	hugeHeaders  = 1 << 20
	hostileEvery = 100 * time.Millisecond // a hostile lead, each with limits.WebhookEndpoints deliveries
	fairEvery    = 250 * time.Millisecond // a healthy company's lead
	fairAddress  = "ertekesites@egeszseges.example"
)

// ownerAttack is the attacking company, the healthy one, their receivers and what arrived.
type ownerAttack struct {
	store            *postgres.Store
	smtp             *mailtest.Server
	hang, fair       *httptest.Server
	hugeURL          string // a receiver answering hugeHeaders of headers
	stopHang         chan struct{}
	hostile, healthy uuid.UUID
	// headers is a second attacking company, all of whose endpoints answer huge headers.
	headers     uuid.UUID
	listRefused bool

	mu        sync.Mutex
	created   map[uuid.UUID]time.Time // the healthy company's leads
	hookAt    map[uuid.UUID]time.Time // when each one's webhook arrived
	hostileN  int
	headersN  int
	hugeHits  int
	hangHits  int
	hookFault []string
}

// newOwnerAttack provisions both companies and starts the receivers and the SMTP server; env
// is what the server needs to send to them.
func newOwnerAttack(ctx context.Context, t *testing.T, dsn string) (*ownerAttack, []string, error) {
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 4})
	if err != nil {
		return nil, nil, err
	}
	a := &ownerAttack{store: store, smtp: mailtest.Start(t), stopHang: make(chan struct{}),
		created: map[uuid.UUID]time.Time{}, hookAt: map[uuid.UUID]time.Time{}}
	huge, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	a.hugeURL = "http://" + huge.Addr().String()
	go a.answerHuge(huge)
	a.hang = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.count(&a.hangHits)
		select {
		case <-r.Context().Done():
		case <-a.stopHang:
		}
	}))
	a.fair = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		var body struct {
			Data struct {
				Lead struct {
					ID uuid.UUID `json:"lead_id"`
				} `json:"lead"`
			} `json:"data"`
		}
		b, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		defer a.mu.Unlock()
		if err := json.Unmarshal(b, &body); err != nil {
			a.hookFault = append(a.hookFault, "a healthy webhook's body: "+err.Error())
		} else if _, seen := a.hookAt[body.Data.Lead.ID]; !seen {
			a.hookAt[body.Data.Lead.ID] = at
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(func() { close(a.stopHang); huge.Close(); a.hang.Close(); a.fair.Close(); store.Close() })

	hostile, err := store.CreateCompany(ctx, "Támadó Kft.", plan.Business, plan.Override{})
	if err != nil {
		return nil, nil, err
	}
	headers, err := store.CreateCompany(ctx, "Fejléc Kft.", plan.Business, plan.Override{})
	if err != nil {
		return nil, nil, err
	}
	a.headers = headers.ID
	for i := range limits.WebhookEndpoints {
		if _, err := store.CreateEndpoint(ctx, headers.ID, fmt.Sprintf("%s/h%d", a.hugeURL, i), nil, "whsec_"+secret32); err != nil {
			return nil, nil, err
		}
	}
	healthy, err := store.CreateCompany(ctx, "Egészséges Kft.", plan.Business, plan.Override{})
	if err != nil {
		return nil, nil, err
	}
	a.hostile, a.healthy = hostile.ID, healthy.ID
	for i := range limits.WebhookEndpoints {
		target := a.hang.URL
		if i%2 == 0 {
			target = a.hugeURL
		}
		if _, err := store.CreateEndpoint(ctx, hostile.ID, fmt.Sprintf("%s/%d", target, i), nil, "whsec_"+secret32); err != nil {
			return nil, nil, err
		}
	}
	if _, err := store.CreateEndpoint(ctx, hostile.ID, a.hang.URL+"/one-too-many", nil, "whsec_"+secret32); !errors.Is(err, event.ErrTooManyEndpoints) {
		return nil, nil, fmt.Errorf("the %d. endpoint: %v, want it refused", limits.WebhookEndpoints+1, err)
	}
	var list []string
	for i := range 1000 {
		list = append(list, fmt.Sprintf("aldozat%d@celpont.example", i))
	}
	_, err = event.NotifyAddresses(list)
	a.listRefused = errors.Is(err, event.ErrTooManyEmails)
	if err := store.SetNotifyEmails(ctx, hostile.ID, list[:limits.NotifyEmails]); err != nil {
		return nil, nil, err
	}

	if _, err := store.CreateEndpoint(ctx, healthy.ID, a.fair.URL, nil, "whsec_"+secret32); err != nil {
		return nil, nil, err
	}
	if err := store.SetNotifyEmails(ctx, healthy.ID, []string{fairAddress}); err != nil {
		return nil, nil, err
	}
	hash := event.ConfirmHash("the healthy company's link")
	if _, err := store.IssueConfirmToken(ctx, healthy.ID, fairAddress, hash); err != nil {
		return nil, nil, err
	}
	if _, _, err := store.ConfirmNotifyEmail(ctx, hash); err != nil {
		return nil, nil, err
	}
	return a, []string{"LEADCHAT_SMTP_URL=" + a.smtp.URL(), "LEADCHAT_MAIL_FROM=leadchat@soak.example"}, nil
}

// secret32 is the base64 of 32 bytes, a signing secret for endpoints no one verifies.
const secret32 = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="

// answerHuge answers each connection's request with hugeHeaders of headers, written from one
// buffer made once (the attacker's cost is nothing; the point is what the server reads).
func (a *ownerAttack) answerHuge(ln net.Listener) {
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 200 OK\r\n")
	for i := 0; b.Len() < hugeHeaders; i++ {
		fmt.Fprintf(&b, "X-Filler-%d: %s\r\n", i, strings.Repeat("h", 1000))
	}
	b.WriteString("Content-Length: 0\r\n\r\n")
	answer := b.Bytes()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second))
			if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
				return
			}
			a.count(&a.hugeHits)
			c.Write(answer)
		}()
	}
}

func (a *ownerAttack) count(n *int) {
	a.mu.Lock()
	*n++
	a.mu.Unlock()
}

// run creates both companies' leads until ctx ends.
func (a *ownerAttack) run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			l := lead.Lead{ID: uuid.New(), FirstName: "Támadó", Email: "x@celpont.example", Source: lead.SourceAPI,
				Note: "Kattintson ide: https://adathalasz.example"}
			if _, err := a.store.CreateLead(context.WithoutCancel(ctx), a.hostile, l, nil, nil); err == nil {
				a.count(&a.hostileN)
			}
			l.ID = uuid.New()
			if _, err := a.store.CreateLead(context.WithoutCancel(ctx), a.headers, l, nil, nil); err == nil {
				a.count(&a.headersN)
			}
			pause(ctx, hostileEvery, hostileEvery+1)
		}
	})
	wg.Go(func() {
		for ctx.Err() == nil {
			l := lead.Lead{ID: uuid.New(), FirstName: "Valódi Vevő", Email: "vevo@pelda.hu", Source: lead.SourceForm}
			at := time.Now()
			if _, err := a.store.CreateLead(context.WithoutCancel(ctx), a.healthy, l, nil, nil); err == nil {
				a.mu.Lock()
				a.created[l.ID] = at
				a.mu.Unlock()
			}
			pause(ctx, fairEvery, fairEvery+1)
		}
	})
	wg.Wait()
}

var leadLink = regexp.MustCompile(`/app/leads/([0-9a-f-]{36})`)

// finish waits up to wait for the healthy company's last deliveries, closes the store, and
// returns the problems and the figures.
func (a *ownerAttack) finish(wait time.Duration) (problems []string, figures string) {
	deadline := time.Now().Add(wait)
	var hooks, mails []time.Duration
	var hostileMail, confirmations int
	for {
		hooks, mails, hostileMail, confirmations = a.latencies()
		a.mu.Lock()
		n := len(a.created)
		a.mu.Unlock()
		if (len(hooks) == n && len(mails) == n) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	a.store.Close()
	a.mu.Lock()
	defer a.mu.Unlock()
	n := len(a.created)
	problems = append(problems, a.hookFault...)
	if len(hooks) < n || len(mails) < n {
		problems = append(problems, fmt.Sprintf("the healthy company's %d leads: %d webhooks and %d e-mails arrived within %v of the run's end",
			n, len(hooks), len(mails), wait))
	}
	// The p99 target is a figure of the run, printed with its verdict, not a failure: on two
	// cores that the attackers saturate it measures the machine as much as the fairness, which
	// the delivery package's own tests hold (a company's never-answering endpoints hold at most
	// limits.DeliveriesInFlight attempts; another company's deliveries go at once).
	hp, mp := p99(hooks), p99(mails)
	if hostileMail > 0 {
		problems = append(problems, fmt.Sprintf("%d lead e-mails reached the attacker's unconfirmed addresses", hostileMail))
	}
	if !a.listRefused {
		problems = append(problems, "a list of 1,000 new-lead addresses was accepted")
	}
	figures = fmt.Sprintf("deliveries: attackers %d+%d leads × %d endpoints (one company's half and the other's all answering %d KiB of headers: %d hits; "+
		"half of the first's never answering: %d hits), "+
		"1,000 addresses refused %v, %d confirmation e-mails and %d lead e-mails to its addresses; "+
		"healthy company %d leads: webhook p99 %v (%d), e-mail p99 %v (%d); target p99 < %v: %s",
		a.hostileN, a.headersN, limits.WebhookEndpoints, hugeHeaders>>10, a.hugeHits, a.hangHits, a.listRefused, confirmations, hostileMail,
		n, hp.Round(time.Millisecond), len(hooks), mp.Round(time.Millisecond), len(mails), fairP99, verdict(hp < fairP99 && mp < fairP99))
	return problems, figures
}

// latencies are the healthy company's webhook and e-mail delays so far, and the e-mails to the
// attacker's addresses: lead e-mails and confirmations.
func (a *ownerAttack) latencies() (hooks, mails []time.Duration, hostileMail, confirmations int) {
	msgs := a.smtp.Messages()
	a.mu.Lock()
	defer a.mu.Unlock()
	for id, at := range a.hookAt {
		if c, ok := a.created[id]; ok {
			hooks = append(hooks, at.Sub(c))
		}
	}
	for _, m := range msgs {
		text := m.Parts["text/plain"]
		switch {
		case m.To[0] != fairAddress && strings.Contains(text, "/app/notify/confirm/"):
			confirmations++
		case m.To[0] != fairAddress:
			hostileMail++
		default:
			if l := leadLink.FindStringSubmatch(text); l != nil {
				if c, ok := a.created[uuid.MustParse(l[1])]; ok {
					mails = append(mails, m.At.Sub(c))
				}
			}
		}
	}
	return hooks, mails, hostileMail, confirmations
}

// p99 is the 99th percentile of ds; 0 when there are none.
func p99(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*99/100)]
}
