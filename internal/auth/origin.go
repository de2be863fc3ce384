package auth

import (
	"net/url"
	"strings"
)

// RequestHost is the lower-cased host name, without port, of the page a browser request comes
// from: that of Origin when the header is present and not "null", else that of Referer; a
// trailing dot is left for HostAllowed to ignore. A present Origin decides alone: when it is not
// an http(s) URL with a host the answer is false, so an odd Origin cannot be outvoted by a
// Referer. "null" (sandboxed frames, file pages, some redirects) names no page, so Referer is
// used then.
func RequestHost(origin, referer string) (string, bool) {
	if o := strings.TrimSpace(origin); o != "" && o != "null" {
		return urlHost(o)
	}
	return urlHost(strings.TrimSpace(referer))
}

// urlHost is the host name of an absolute http or https URL.
func urlHost(raw string) (string, bool) {
	if raw == "" {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false
	}
	h := asciiLower(u.Hostname())
	if h == "" {
		return "", false
	}
	return h, true
}

// AllowsOrigin reports whether the page a request comes from, named by its Origin and Referer
// headers, may use the key. A public key with a non-empty allowed-domain list and its hostname
// check on requires the page's host (RequestHost) to match an entry, so a request naming no page
// is refused; any other key allows every page. That a private key refuses any Origin at all is
// the caller's rule.
func (p Principal) AllowsOrigin(origin, referer string) bool {
	if p.Kind != Public || !p.HostnameCheck || len(p.AllowedDomains) == 0 {
		return true
	}
	host, ok := RequestHost(origin, referer)
	return ok && HostAllowed(host, p.AllowedDomains)
}
