package httpapi

import (
	"net/http"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/ratelimit"
)

// Limits are the per-minute request limits of DECISIONS.md; a nil *Limits turns them all off.
type Limits struct {
	LeadsPublic  *ratelimit.Limiter // per client IP and key
	LeadsPrivate *ratelimit.Limiter // per key
	Config       *ratelimit.Limiter // per client IP
	Chat         *ratelimit.Limiter // per client IP
}

// NewLimits builds the limiters from per-minute figures.
func NewLimits(leadsPublic, leadsPrivate, config, chat int) *Limits {
	return &Limits{
		LeadsPublic: ratelimit.New(leadsPublic, nil), LeadsPrivate: ratelimit.New(leadsPrivate, nil),
		Config: ratelimit.New(config, nil), Chat: ratelimit.New(chat, nil),
	}
}

// limitByIP applies the per-IP limits of the embed endpoints, before the key is looked up, so
// guessing keys costs an attacker its budget too.
func (s *server) limitByIP(path string, r *http.Request) error {
	if s.limits == nil {
		return nil
	}
	switch path {
	case pathConfig:
		return s.take(s.limits.Config, "config", s.clientIP(r))
	case pathChat:
		return s.take(s.limits.Chat, "chat", s.clientIP(r))
	}
	return nil
}

// limitByKey applies the lead endpoints' limits, which depend on the key's kind. The calls that
// read or change stored leads (private keys only) take the private key's limit in a bucket of
// their own, so a client paging through its leads never holds up its lead creates.
func (s *server) limitByKey(path string, p auth.Principal, r *http.Request) error {
	if s.limits == nil {
		return nil
	}
	if readsLeads(r.Method, path) {
		return s.take(s.limits.LeadsPrivate, "leads_read", "read "+p.KeyID.String())
	}
	if path != pathLeads {
		return nil
	}
	if p.Kind == auth.Public {
		return s.take(s.limits.LeadsPublic, "leads_public", s.clientIP(r)+" "+p.KeyID.String())
	}
	return s.take(s.limits.LeadsPrivate, "leads_private", p.KeyID.String())
}

func (s *server) take(l *ratelimit.Limiter, name, key string) error {
	ok, wait := l.Allow(key)
	if ok {
		return nil
	}
	s.metrics.RateLimited(name)
	return &errs.Error{Kind: errs.RateLimited, Code: errs.CodeRateLimited, RetryAfter: ratelimit.RetryAfterSeconds(wait)}
}

func (s *server) clientIP(r *http.Request) string {
	return s.ips.Of(r.RemoteAddr, r.Header.Values("X-Forwarded-For"))
}
