package webhook

import (
	"fmt"
	"net/netip"
	"syscall"
)

// refusePrivate is the dialler's check on the address it is about to connect to, after DNS: a
// host name that resolves (or is rebound) to a special-purpose address is refused like the
// address.
func refusePrivate(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook target %q: %w", address, err)
	}
	if reason := SpecialPurpose(ap.Addr()); reason != "" {
		return fmt.Errorf("webhook target %s refused: %s address", ap.Addr(), reason)
	}
	return nil
}

// special is a block of the IANA special-purpose address registries (IPv4 and IPv6) that a
// webhook must not reach, with the word the refusal uses. The blocks that only wrap an IPv4
// address (IPv4-mapped, NAT64, 6to4) are not here: SpecialPurpose judges the address inside.
type special struct {
	prefix netip.Prefix
	reason string
}

var specials = func() []special {
	var out []special
	for _, s := range []struct{ prefix, reason string }{
		{"0.0.0.0/8", "unspecified"}, // "this network": 0.0.0.0 reaches this host on Linux
		{"10.0.0.0/8", "private"},
		{"100.64.0.0/10", "private"}, // carrier-grade NAT, as private as 10/8 in practice
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local"},
		{"172.16.0.0/12", "private"},
		{"192.0.0.0/24", "IETF protocol assignment"},
		{"192.0.2.0/24", "documentation"},
		{"192.88.99.0/24", "6to4 relay"},
		{"192.168.0.0/16", "private"},
		{"198.18.0.0/15", "benchmarking"},
		{"198.51.100.0/24", "documentation"},
		{"203.0.113.0/24", "documentation"},
		{"224.0.0.0/4", "multicast"},
		{"240.0.0.0/4", "reserved"}, // with 255.255.255.255, the broadcast address
		{"::/128", "unspecified"},
		{"::1/128", "loopback"},
		{"::/96", "IPv4-compatible"}, // deprecated; no public host has one
		{"64:ff9b:1::/48", "local NAT64"},
		{"100::/64", "discard-only"},
		{"2001::/23", "IETF protocol assignment"}, // Teredo, ORCHID, benchmarking among them
		{"2001:db8::/32", "documentation"},
		{"3fff::/20", "documentation"},
		{"5f00::/16", "segment routing"},
		{"fc00::/7", "private"}, // unique local
		{"fe80::/10", "link-local"},
		{"fec0::/10", "site-local"},
		{"ff00::/8", "multicast"},
	} {
		out = append(out, special{netip.MustParsePrefix(s.prefix), s.reason})
	}
	return out
}()

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// SpecialPurpose names why a webhook may not connect to a (an address of the IANA
// special-purpose registries, or an IPv6 form that carries one of those IPv4 addresses), or is
// empty when it may.
func SpecialPurpose(a netip.Addr) string {
	a = a.WithZone("")
	if a.Is4In6() {
		return embedded(a.Unmap(), "IPv4-mapped")
	}
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return embedded(netip.AddrFrom4([4]byte(b[12:16])), "NAT64")
		case sixToFour.Contains(a):
			return embedded(netip.AddrFrom4([4]byte(b[2:6])), "6to4")
		}
	}
	for _, s := range specials {
		if s.prefix.Contains(a) {
			return s.reason
		}
	}
	return ""
}

// embedded judges the IPv4 address that an IPv6 form of kind carries.
func embedded(v4 netip.Addr, kind string) string {
	if r := SpecialPurpose(v4); r != "" {
		return r + " (" + kind + ")"
	}
	return ""
}
