package ratelimit

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// ClientIP finds the client's address: the connection's, unless that is a trusted proxy, in
// which case X-Forwarded-For is read from the right, skipping trusted proxies, so a client
// cannot pick its own address by sending the header itself.
type ClientIP struct {
	trusted []netip.Prefix
}

// NewClientIP parses a comma-separated list of trusted proxy addresses or CIDR ranges.
func NewClientIP(trusted string) (*ClientIP, error) {
	p, err := ParseNetworks(trusted)
	if err != nil {
		return nil, fmt.Errorf("trusted proxy %w", err)
	}
	return &ClientIP{trusted: p}, nil
}

// ParseNetworks parses a comma-separated list of addresses and CIDR ranges; an address stands
// for itself alone.
func ParseNetworks(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", f, err)
			}
			f = netip.PrefixFrom(a, a.BitLen()).String()
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", f, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// Of returns the client address for a request's RemoteAddr and X-Forwarded-For values; the
// zero Addr when RemoteAddr holds no IP address (a Unix socket).
func (c *ClientIP) Of(remoteAddr string, forwardedFor []string) netip.Addr {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	addr = addr.Unmap().WithZone("")
	if !c.isTrusted(addr) {
		return addr
	}
	var hops []string
	for _, v := range forwardedFor {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr // a garbled chain: trust only what we saw
		}
		a = a.Unmap().WithZone("")
		if !c.isTrusted(a) {
			return a
		}
		addr = a
	}
	return addr
}

func (c *ClientIP) isTrusted(a netip.Addr) bool { return Contains(c.trusted, a) }

// Contains reports whether any of the networks holds a.
func Contains(networks []netip.Prefix, a netip.Addr) bool {
	for _, p := range networks {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Key names a bucket: a client's network, an API key, or both.
type Key struct {
	client [16]byte
	id     [16]byte
}

// ClientKey is the key of a client address: an IPv4 address whole, an IPv6 address by its /64,
// the smallest network a provider hands one subscriber, so that a client rotating through its
// own 2^64 addresses is still one client.
func ClientKey(a netip.Addr) Key {
	var k Key
	a = a.Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		a = p.Addr()
	}
	if a.IsValid() {
		k.client = a.As16()
	}
	return k
}

// IDKey is the key of an API key (by its id) alone.
func IDKey(id [16]byte) Key { return Key{id: id} }

// WithID narrows a client's key to one API key.
func (k Key) WithID(id [16]byte) Key {
	k.id = id
	return k
}
