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
