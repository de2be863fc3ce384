package auth

import "testing"

func TestRequestHost(t *testing.T) {
	tests := []struct {
		name, origin, referer string
		want                  string
		wantOK                bool
	}{
		{"origin host", "https://example.com", "", "example.com", true},
		{"origin over http", "http://example.com", "", "example.com", true},
		{"port dropped", "https://shop.example.com:8443", "", "shop.example.com", true},
		{"lower-cased", "HTTPS://Shop.Example.COM", "", "shop.example.com", true},
		{"trailing dot kept for HostAllowed", "https://example.com.", "", "example.com.", true},
		{"spaces around origin trimmed", " https://example.com ", "", "example.com", true},
		{"origin beats referer", "https://a.example", "https://b.example/page", "a.example", true},
		{"null origin falls back to referer", "null", "https://b.example/page?q=1#top", "b.example", true},
		{"missing origin falls back to referer", "", "https://b.example:8080/x", "b.example", true},
		{"referer user info ignored", "", "https://user:pw@b.example/", "b.example", true},
		{"IPv6 origin unbracketed", "http://[::1]:8080", "", "::1", true},
		{"bad origin is not outvoted by referer", "ftp://a.example", "https://b.example/", "", false},
		{"unparsable origin is not outvoted by referer", "https://a.example:port", "https://b.example/", "", false},
		{"null origin and no referer", "null", "", "", false},
		{"neither header", "", "", "", false},
		{"referer without scheme", "", "example.com/page", "", false},
		{"scheme-relative referer", "", "//example.com/page", "", false},
		{"file referer", "", "file:///etc/passwd", "", false},
		{"javascript referer", "", "javascript:alert(1)", "", false},
		{"opaque http URL", "", "http:example.com", "", false},
		{"no host", "https://", "", "", false},
		{"invalid UTF-8 left for HostAllowed to reject", "https://\xff\xfe.example.com", "", "\xff\xfe.example.com", true},
		{"control character", "https://exa\x00mple.com", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := RequestHost(tt.origin, tt.referer)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("RequestHost(%q, %q) = %q, %v; want %q, %v", tt.origin, tt.referer, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// The two functions together, as the lead endpoint uses them.
func TestRequestHostThenHostAllowed(t *testing.T) {
	allowed := []string{"example.com", "*.example.com"}
	tests := []struct {
		name, origin, referer string
		want                  bool
	}{
		{"site itself", "https://example.com", "", true},
		{"subdomain with port", "https://shop.example.com:8443", "", true},
		{"fully qualified origin", "https://Shop.Example.com.", "", true},
		{"look-alike", "https://evil-example.com", "", false},
		{"example.com as a subdomain elsewhere", "https://example.com.evil.org", "", false},
		{"null origin, allowed referer", "null", "https://example.com/contact", true},
		{"foreign origin, allowed referer", "https://evil.org", "https://example.com/", false},
		{"no headers", "", "", false},
		{"invalid UTF-8 subdomain", "https://\xff.example.com", "", false},
		{"percent-encoded dot", "https://evil%2eexample.com", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host, ok := RequestHost(tt.origin, tt.referer)
			if got := ok && HostAllowed(host, allowed); got != tt.want {
				t.Errorf("origin %q, referer %q: allowed = %v, want %v", tt.origin, tt.referer, got, tt.want)
			}
		})
	}
}

func TestAllowsOrigin(t *testing.T) {
	locked := Principal{Kind: Public, HostnameCheck: true, AllowedDomains: []string{"example.com", "*.shop.example.com"}}
	unchecked := Principal{Kind: Public, HostnameCheck: false, AllowedDomains: []string{"example.com"}}
	open := Principal{Kind: Public, HostnameCheck: true}
	private := Principal{Kind: Private, HostnameCheck: true, AllowedDomains: []string{"example.com"}}
	tests := []struct {
		name            string
		p               Principal
		origin, referer string
		want            bool
	}{
		{"listed host", locked, "https://example.com", "", true},
		{"wildcard subdomain", locked, "https://a.shop.example.com", "", true},
		{"apex of a wildcard", locked, "https://shop.example.com", "", false},
		{"other site", locked, "https://evil.org", "", false},
		{"listed referer without origin", locked, "", "https://example.com/kapcsolat", true},
		{"other origin, listed referer", locked, "https://evil.org", "https://example.com/", false},
		{"no origin and no referer", locked, "", "", false},
		{"check off", unchecked, "https://evil.org", "", true},
		{"check off, no headers", unchecked, "", "", true},
		{"empty list", open, "https://evil.org", "", true},
		{"empty list, no headers", open, "", "", true},
		{"private key is not the domain rule's", private, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.AllowsOrigin(tt.origin, tt.referer); got != tt.want {
				t.Errorf("AllowsOrigin(%q, %q) = %v, want %v", tt.origin, tt.referer, got, tt.want)
			}
		})
	}
}
