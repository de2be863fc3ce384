package httpapi

import (
	"net/http"
	"net/netip"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/ratelimit"
)

// Limits are the per-minute request limits the contract describes; a nil *Limits turns them all off.
type Limits struct {
	LeadsPublic  *ratelimit.Limiter // per client IP and key
	LeadsPrivate *ratelimit.Limiter // per key
	LeadsRead    *ratelimit.Limiter // per key: reading and changing stored leads, at the private rate
	Config       *ratelimit.Limiter // per client IP
	Chat         *ratelimit.Limiter // per client IP
	AuthFailures *ratelimit.Limiter // failed authentications per client IP
}

// Rates are the per-minute figures of the limits, and how many buckets they may keep together.
type Rates struct {
	LeadsPublic, LeadsPrivate, Config, Chat, AuthFailures int
	Buckets                                               int
}

// NewLimits builds the limiters, their buckets in one table of r.Buckets.
func NewLimits(r Rates) *Limits {
	t := ratelimit.NewBuckets(r.Buckets, nil)
	return &Limits{
		LeadsPublic: t.Limiter(r.LeadsPublic), LeadsPrivate: t.Limiter(r.LeadsPrivate), LeadsRead: t.Limiter(r.LeadsPrivate),
		Config: t.Limiter(r.Config), Chat: t.Limiter(r.Chat), AuthFailures: t.Limiter(r.AuthFailures),
	}
}

// limitByIP applies the per-IP limits before the key is looked up: a client that has failed
// authentication too often is refused at once, and the embed endpoints' budgets are spent, so
// guessing keys costs an attacker its budget too.
func (s *server) limitByIP(path string, r *http.Request) error {
	if s.limits == nil {
		return nil
	}
	client := ratelimit.ClientKey(s.clientIP(r))
	if ok, wait := s.limits.AuthFailures.Check(client); !ok {
		s.metrics.RateLimited("auth_failures")
		return rateLimited(wait)
	}
	switch path {
	case pathConfig:
		return s.take(s.limits.Config, "config", client)
	case pathChat:
		return s.take(s.limits.Chat, "chat", client)
	}
	return nil
}

// authFailed counts a failed authentication against the client's address.
func (s *server) authFailed(r *http.Request) {
	if s.limits != nil {
		s.limits.AuthFailures.Allow(ratelimit.ClientKey(s.clientIP(r)))
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
		return s.take(s.limits.LeadsRead, "leads_read", ratelimit.IDKey(p.KeyID))
	}
	if path != pathLeads {
		return nil
	}
	if p.Kind == auth.Public {
		return s.take(s.limits.LeadsPublic, "leads_public", ratelimit.ClientKey(s.clientIP(r)).WithID(p.KeyID))
	}
	return s.take(s.limits.LeadsPrivate, "leads_private", ratelimit.IDKey(p.KeyID))
}

func (s *server) take(l *ratelimit.Limiter, name string, key ratelimit.Key) error {
	ok, wait := l.Allow(key)
	if ok {
		return nil
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
