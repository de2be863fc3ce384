package auth

import (
	"strings"
	"testing"
)

// long247 is four 60-character labels and "com": 247 characters.
var long247 = strings.Repeat(strings.Repeat("a", 60)+".", 4) + "com"

func TestNormalizeDomainAccepts(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"host", "example.com", "example.com"},
		{"subdomain host", "www.example.com", "www.example.com"},
		{"wildcard", "*.example.com", "*.example.com"},
		{"deep wildcard", "*.shop.example.co.uk", "*.shop.example.co.uk"},
		{"lower-cased", "WWW.Example.COM", "www.example.com"},
		{"wildcard lower-cased", "*.Example.COM", "*.example.com"},
		{"trimmed", "  example.com\t\n", "example.com"},
		{"trailing dot dropped", "example.com.", "example.com"},
		{"wildcard trailing dot dropped", "*.example.com.", "*.example.com"},
		{"punycode", "xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"punycode wildcard", "*.XN--Bcher-kva.example", "*.xn--bcher-kva.example"},
		{"hyphens and digits inside labels", "my-shop2.example-1.com", "my-shop2.example-1.com"},
		{"single-label host", "localhost", "localhost"},
		{"IPv4 address", "192.168.1.10", "192.168.1.10"},
		{"253-character host", strings.Repeat("a", 5) + "." + long247, strings.Repeat("a", 5) + "." + long247},
		{"63-character label", strings.Repeat("a", 63) + ".com", strings.Repeat("a", 63) + ".com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeDomain(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("NormalizeDomain(%q) = %q, %v; want %q, nil", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestNormalizeDomainRejects(t *testing.T) {
	tests := []struct {
		name, in string
		says     string // a part of the message that tells the administrator what to do
	}{
		{"empty", "", "empty"},
		{"only spaces", "   ", "empty"},
		{"scheme", "https://example.com", "not a URL"},
		{"path", "example.com/shop", "without a path"},
		{"query", "example.com?x=1", "without a path"},
		{"port", "example.com:8080", "without a port"},
		{"inner space", "exa mple.com", "spaces"},
		{"user name", "me@example.com", "user name"},
		{"IPv6", "[::1]", "IPv6"},
		{"lone star", "*", "every site"},
		{"wildcard over a top-level domain", "*.com", "at least two labels"},
		{"wildcard with nothing after", "*.", "every site"},
		{"wildcard of a dot", "*..", "no host name"},
		{"star inside a label", "*example.com", "whole first label"},
		{"star in the middle", "shop.*.example.com", "whole first label"},
		{"double star", "*.*.example.com", "whole first label"},
		{"leading dot", ".example.com", "leading dot"},
		{"empty label", "example..com", "empty label"},
		{"two trailing dots", "example.com..", "empty label"},
		{"raw non-ASCII", "bücher.example", "punycode"},
		{"non-ASCII wildcard", "*.bücher.example", "punycode"},
		{"invalid UTF-8", "ex\xffample.com", "punycode"},
		{"underscore", "my_shop.example.com", "invalid character"},
		{"leading hyphen", "-shop.example.com", "hyphen"},
		{"trailing hyphen", "shop-.example.com", "hyphen"},
		{"64-character label", strings.Repeat("a", 64) + ".com", "longer than 63"},
		{"254-character host", "aaaaaa." + long247, "longer than 253"},
		{"numeric top-level label", "example.123", "all digits"},
		{"not an IPv4 address", "1.2.3.999", "all digits"},
		{"wildcard over an IP address", "*.10.0.0.1", "not an IP address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeDomain(tt.in)
			if err == nil {
				t.Fatalf("NormalizeDomain(%q) = %q, nil; want an error", tt.in, got)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("NormalizeDomain(%q) error %q, want it to say %q", tt.in, err, tt.says)
			}
		})
	}
}

func TestHostAllowed(t *testing.T) {
	exact := []string{"example.com"}
	wild := []string{"*.example.com"}
	tests := []struct {
		name    string
		host    string
		allowed []string
		want    bool
	}{
		{"exact host matches", "example.com", exact, true},
		{"subdomain does not match an exact entry", "www.example.com", exact, false},
		{"wildcard matches a subdomain", "www.example.com", wild, true},
		{"wildcard matches at any depth", "a.b.c.example.com", wild, true},
		{"wildcard does not match the apex", "example.com", wild, false},
		{"apex and wildcard together match both", "example.com", []string{"*.example.com", "example.com"}, true},
		{"case ignored", "WWW.Example.COM", wild, true},
		{"case ignored on exact entry", "EXAMPLE.com", exact, true},
		{"trailing dot ignored", "example.com.", exact, true},
		{"trailing dot ignored on wildcard", "shop.example.com.", wild, true},
		{"two trailing dots rejected", "example.com..", exact, false},
		{"evil-example.com is not example.com", "evil-example.com", exact, false},
		{"evil-example.com is not under the wildcard", "evil-example.com", wild, false},
		{"example.com.evil.org is not example.com", "example.com.evil.org", exact, false},
		{"example.com.evil.org is not under the wildcard", "example.com.evil.org", wild, false},
		{"suffix without a dot boundary rejected", "notexample.com", wild, false},
		{"host with a port matches nothing", "example.com:443", exact, false},
		{"leading dot is not a subdomain", ".example.com", wild, false},
		{"empty label is not a subdomain", "a..example.com", wild, false},
		{"empty host rejected", "", exact, false},
		{"empty list allows nothing here", "example.com", nil, false},
		{"later entry matches", "shop.example.org", []string{"example.com", "*.example.org"}, true},
		{"punycode host", "xn--bcher-kva.example", []string{"xn--bcher-kva.example"}, true},
		{"raw non-ASCII host rejected", "bücher.example.com", wild, false},
		{"invalid UTF-8 host rejected", "\xff.example.com", wild, false},
		{"space in host rejected", "a b.example.com", wild, false},
		{"lone star entry matches nothing", "example.com", []string{"*"}, false},
		{"IPv4 host", "10.0.0.1", []string{"10.0.0.1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HostAllowed(tt.host, tt.allowed); got != tt.want {
				t.Errorf("HostAllowed(%q, %q) = %v, want %v", tt.host, tt.allowed, got, tt.want)
			}
		})
	}
}
