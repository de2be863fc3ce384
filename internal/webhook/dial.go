package webhook

import (
	"fmt"
	"net/netip"
	"syscall"
)

// refusePrivate is the dialler's check on the address it is about to connect to, after DNS: a
// host name that resolves (or is rebound) to a private address is refused like the address.
func refusePrivate(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook target %q: %w", address, err)
	}
	if reason := forbidden(ap.Addr()); reason != "" {
		return fmt.Errorf("webhook target %s refused: %s address", ap.Addr(), reason)
	}
	return nil
}

// sharedSpace is carrier-grade NAT space (RFC 6598), as private as 10/8 in practice.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// forbidden names why a webhook may not connect to a, or is empty when it may.
func forbidden(a netip.Addr) string {
	a = a.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate(), sharedSpace.Contains(a):
		return "private"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	case a.Is4() && a.As4()[0] == 0:
		return "unspecified" // 0.0.0.0/8 reaches this host on Linux
	}
	return ""
}
