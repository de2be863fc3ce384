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
	c := &ClientIP{}
	for _, f := range strings.Split(trusted, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %w", f, err)
			}
			f = netip.PrefixFrom(a, a.BitLen()).String()
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", f, err)
		}
		c.trusted = append(c.trusted, p.Masked())
	}
	return c, nil
}

// Of returns the client address for a request's RemoteAddr and X-Forwarded-For values.
func (c *ClientIP) Of(remoteAddr string, forwardedFor []string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr = addr.Unmap()
	if !c.isTrusted(addr) {
		return addr.String()
	}
	var hops []string
	for _, v := range forwardedFor {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr.String() // a garbled chain: trust only what we saw
		}
		a = a.Unmap()
		if !c.isTrusted(a) {
			return a.String()
		}
		addr = a
	}
	return addr.String()
}

func (c *ClientIP) isTrusted(a netip.Addr) bool {
	for _, p := range c.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
