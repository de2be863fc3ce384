package httpapi

import (
	"context"
	"net/http"
	"net/netip"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/ratelimit"
)

// Limits are the per-minute request limits the contract describes; a nil *Limits turns them all off.
type Limits struct {
	LeadsPublic  Limiter // per client IP and key
	LeadsPrivate Limiter // per key
	LeadsRead    Limiter // per key: reading and changing stored leads, at the private rate
	Config       Limiter // per client IP
	Chat         Limiter // per client IP
	AuthFailures Limiter // failed authentications per client IP
}

// Limiter is one limit's buckets: in this instance's memory (ratelimit.Limiter) or shared by
// every instance through PostgreSQL (ratelimit.Shared), which can fail like any query.
type Limiter interface {
	// Allow takes a token for key; without one it says how long until there is one.
	Allow(ctx context.Context, key ratelimit.Key) (bool, time.Duration, error)
	// Check is Allow without taking the token.
	Check(ctx context.Context, key ratelimit.Key) (bool, time.Duration, error)
}

// Rates are the per-minute figures of the limits, and where their buckets live.
type Rates struct {
	LeadsPublic, LeadsPrivate, Config, Chat, AuthFailures int
	// Shared, when set, keeps every bucket there for all instances; otherwise they live in one
	// table of this instance's memory of at most Buckets buckets.
	Shared  ratelimit.SharedStore
	Buckets int
}

// NewLimits builds the limiters. Shared buckets are named for their limit, the same names as
// the refusal metric's.
func NewLimits(r Rates) *Limits {
	var newLimiter func(name string, perMinute int) Limiter
	if r.Shared != nil {
		newLimiter = func(name string, perMinute int) Limiter { return ratelimit.NewShared(r.Shared, name, perMinute) }
	} else {
		t := ratelimit.NewBuckets(r.Buckets, nil)
		newLimiter = func(_ string, perMinute int) Limiter { return inMemory{t.Limiter(perMinute)} }
	}
	return &Limits{
		LeadsPublic: newLimiter("leads_public", r.LeadsPublic), LeadsPrivate: newLimiter("leads_private", r.LeadsPrivate),
		LeadsRead: newLimiter("leads_read", r.LeadsPrivate), Config: newLimiter("config", r.Config), Chat: newLimiter("chat", r.Chat),
		AuthFailures: newLimiter("auth_failures", r.AuthFailures),
	}
}

// inMemory is a limiter of this instance's memory, which never fails.
type inMemory struct{ l *ratelimit.Limiter }

func (m inMemory) Allow(_ context.Context, key ratelimit.Key) (bool, time.Duration, error) {
	ok, wait := m.l.Allow(key)
	return ok, wait, nil
}

func (m inMemory) Check(_ context.Context, key ratelimit.Key) (bool, time.Duration, error) {
	ok, wait := m.l.Check(key)
	return ok, wait, nil
}

// limitByIP applies the per-IP limits before the key is looked up: a client that has failed
// authentication too often is refused at once, and the embed endpoints' budgets are spent, so
// guessing keys costs an attacker its budget too.
func (s *server) limitByIP(path string, r *http.Request) error {
	if s.limits == nil {
		return nil
	}
	client := ratelimit.ClientKey(s.clientIP(r))
	ok, wait, err := s.limits.AuthFailures.Check(r.Context(), client)
	if err != nil {
		return err
	}
	if !ok {
		s.metrics.RateLimited("auth_failures")
		return rateLimited(wait)
	}
	switch path {
	case pathConfig, pathEvents:
		return s.take(r, s.limits.Config, "config", client)
	case pathChat:
		return s.take(r, s.limits.Chat, "chat", client)
	}
	return nil
}

// authFailed counts a failed authentication against the client's address. A count the shared
// store could not take is dropped: the request is refused either way, and the store's failure
// is the database's, which the next request that needs it reports.
func (s *server) authFailed(r *http.Request) {
	if s.limits != nil {
		_, _, _ = s.limits.AuthFailures.Allow(r.Context(), ratelimit.ClientKey(s.clientIP(r)))
	}
}

// limitByKey applies the lead endpoints' limits, which depend on the key's kind. The calls that
// read or change stored leads (private keys only) take the private key's limit in a bucket of
// their own, so a client paging through its leads never holds up its lead creates.
func (s *server) limitByKey(path string, p auth.Principal, r *http.Request) error {
	if s.limits == nil {
		return nil
	}
	if readsLeads(r.Method, path) {
		return s.take(r, s.limits.LeadsRead, "leads_read", ratelimit.IDKey(p.KeyID))
	}
	if path != pathLeads {
		return nil
	}
	if p.Kind == auth.Public {
		return s.take(r, s.limits.LeadsPublic, "leads_public", ratelimit.ClientKey(s.clientIP(r)).WithID(p.KeyID))
	}
	return s.take(r, s.limits.LeadsPrivate, "leads_private", ratelimit.IDKey(p.KeyID))
}

// take takes a token of l for key; a shared store that cannot answer fails the request
// (unavailable, like the queries that would follow).
func (s *server) take(r *http.Request, l Limiter, name string, key ratelimit.Key) error {
	ok, wait, err := l.Allow(r.Context(), key)
	if err != nil || ok {
		return err
	}
	s.metrics.RateLimited(name)
	return rateLimited(wait)
}

func rateLimited(wait time.Duration) error {
	return &errs.Error{Kind: errs.RateLimited, Code: errs.CodeRateLimited, RetryAfter: ratelimit.RetryAfterSeconds(wait)}
}

// clientIP is the request's client address by the trusted-proxy rules of ratelimit.ClientIP.
func (s *server) clientIP(r *http.Request) netip.Addr {
	return s.ips.Of(r.RemoteAddr, r.Header.Values("X-Forwarded-For"))
}
