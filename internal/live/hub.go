// Package live routes the news of chat messages, which the database announces to every
// instance, to the streams this instance holds: a visitor's stream of one conversation, or a
// dashboard's of all of a company's. A notification only wakes a stream; the stream reads what
// is new itself, after the last message it sent, so a wake-up lost, doubled or merged with
// another loses or repeats no message.
package live

import (
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

type sessionKey struct {
	company uuid.UUID
	session string
}

// Sub is one open stream's subscription.
type Sub struct {
	// Wake has a value when the stream should read what is new.
	Wake chan struct{}
	// Ended is closed when the stream must end: another stream of the session opened, or the
	// hub closed.
	Ended chan struct{}
	key   sessionKey
	ip    netip.Addr
	ended bool
}

func newSub(k sessionKey, ip netip.Addr) *Sub {
	return &Sub{Wake: make(chan struct{}, 1), Ended: make(chan struct{}), key: k, ip: ip}
}

func (s *Sub) wake() {
	select {
	case s.Wake <- struct{}{}:
	default:
	}
}

// Hub holds this instance's open streams.
type Hub struct {
	mu        sync.Mutex
	sessions  map[sessionKey]*Sub
	companies map[uuid.UUID]map[*Sub]struct{}
	perIP     map[netip.Addr]int
	closed    bool
}

// NewHub builds an empty hub.
func NewHub() *Hub {
	return &Hub{sessions: map[sessionKey]*Sub{}, companies: map[uuid.UUID]map[*Sub]struct{}{},
		perIP: map[netip.Addr]int{}}
}

// Visitor opens the one stream of a conversation for a client address: a stream already open
// for the conversation ends; past limits.StreamsPerIP streams of the address it is refused.
func (h *Hub) Visitor(company uuid.UUID, session string, ip netip.Addr) (*Sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errs.E(errs.Unavailable, errs.CodeUnavailable)
	}
	k := sessionKey{company, session}
	old := h.sessions[k]
	n := h.perIP[ip]
	if old != nil && old.ip == ip {
		n-- // the new stream replaces one of the address's own
	}
	if n >= limits.StreamsPerIP {
		return nil, errs.E(errs.RateLimited, errs.CodeRateLimited)
	}
	if old != nil {
		h.end(old)
	}
	s := newSub(k, ip)
	h.sessions[k] = s
	h.perIP[ip]++
	return s, nil
}

// Follow opens a visitor's stream of a conversation (as Visitor does) and then reads what the
// client missed with read. In this order, news of a message that commits between the read and
// the subscription wakes the stream, rather than reaching nobody and leaving the message
// unsent until some later news. When read fails, the stream is released.
func Follow[T any](h *Hub, company uuid.UUID, session string, ip netip.Addr, read func() (T, error)) (*Sub, T, error) {
	var missed T
	s, err := h.Visitor(company, session, ip)
	if err != nil {
		return nil, missed, err
	}
	if missed, err = read(); err != nil {
		h.Release(s)
		return nil, missed, err
	}
	return s, missed, nil
}

// Dashboard opens a stream of all of a company's conversations.
func (h *Hub) Dashboard(company uuid.UUID) (*Sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errs.E(errs.Unavailable, errs.CodeUnavailable)
	}
	s := newSub(sessionKey{company: company}, netip.Addr{})
	if h.companies[company] == nil {
		h.companies[company] = map[*Sub]struct{}{}
	}
	h.companies[company][s] = struct{}{}
	return s, nil
}

// Release ends a stream's subscription; call it once the stream has ended.
func (h *Hub) Release(s *Sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.end(s)
}

// end removes s and closes its Ended, once; h.mu is held.
func (h *Hub) end(s *Sub) {
	if s.ended {
		return
	}
	s.ended = true
	close(s.Ended)
	if s.key.session == "" {
		delete(h.companies[s.key.company], s)
		if len(h.companies[s.key.company]) == 0 {
			delete(h.companies, s.key.company)
		}
		return
	}
	if h.sessions[s.key] == s {
		delete(h.sessions, s.key)
	}
	if h.perIP[s.ip]--; h.perIP[s.ip] <= 0 {
		delete(h.perIP, s.ip)
	}
}

// Open counts the visitor and dashboard streams open.
func (h *Hub) Open() (visitors, dashboards int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range h.companies {
		dashboards += len(m)
	}
	return len(h.sessions), dashboards
}

// Changed takes a notification: "<message id> <company id> <session id>" (id 0 when who has
// the conversation changed), "p <company id>" when the company's people came or went, or ""
// when anything may have changed (the listener reconnected).
func (h *Hub) Changed(payload string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := strings.Fields(payload)
	var company uuid.UUID
	var err error
	if len(f) >= 2 {
		company, err = uuid.Parse(f[1])
	}
	switch {
	case len(f) == 3 && err == nil:
		if _, e := strconv.ParseInt(f[0], 10, 64); e != nil {
			return
		}
		if s := h.sessions[sessionKey{company, f[2]}]; s != nil {
			s.wake()
		}
		for s := range h.companies[company] {
			s.wake()
		}
	case len(f) == 2 && f[0] == "p" && err == nil:
		for k, s := range h.sessions {
			if k.company == company {
				s.wake()
			}
		}
	default:
		h.wakeAll()
	}
}

// Live takes the listener's state: once it is back, anything may have been missed.
func (h *Hub) Live(up bool) {
	if up {
		h.mu.Lock()
		h.wakeAll()
		h.mu.Unlock()
	}
}

func (h *Hub) wakeAll() {
	for _, s := range h.sessions {
		s.wake()
	}
	for _, m := range h.companies {
		for s := range m {
			s.wake()
		}
	}
}

// Close ends every stream and refuses new ones, for shutdown.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, s := range h.sessions {
		h.end(s)
	}
	for _, m := range h.companies {
		for s := range m {
			h.end(s)
		}
	}
}
