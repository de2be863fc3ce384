package auth

import (
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// FuzzParse feeds Parse anything: it must not panic, must accept only keys of the documented
// shape, and must accept every key that Generate makes. The input also seeds a key built by
// the format's rules, which must parse, and one character of it changed, which must not.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", publicPrefix, privatePrefix, publicVector, privateVector,
		publicVector[:len(publicVector)-1] + "9", "lc_priv_" + strings.Repeat("z", 38), "\xff\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		kind, err := Parse(key)
		_ = Hash(key)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("Parse(%q) error %v does not wrap ErrMalformed", key, err)
			}
			if kind != "" || DisplayPrefix(key) != "" {
				t.Fatalf("Parse(%q) failed yet gave kind %q, display prefix %q", key, kind, DisplayPrefix(key))
			}
		} else {
			p := kind.prefix()
			if p == "" || !strings.HasPrefix(key, p) || len(key) != len(p)+randomLen+checksumLen {
				t.Fatalf("Parse(%q) accepted a key of the wrong shape as %q", key, kind)
			}
			if dp := DisplayPrefix(key); dp != key[:len(p)+displayLen] {
				t.Fatalf("DisplayPrefix(%q) = %q", key, dp)
			}
		}

		for _, k := range []Kind{Public, Private} {
			built := buildKey(k, key)
			if got, err := Parse(built); err != nil || got != k {
				t.Fatalf("Parse(%q) = %q, %v; want %q, nil", built, got, err, k)
			}
			i := len(k.prefix()) + len(key)%(randomLen+checksumLen)
			changed := built[:i] + string(base62[(strings.IndexByte(base62, built[i])+1+len(key)%61)%62]) + built[i+1:]
			if _, err := Parse(changed); !errors.Is(err, ErrMalformed) {
				t.Fatalf("Parse(%q), one character off %q, = %v; want ErrMalformed", changed, built, err)
			}
			g, err := Generate(k)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := Parse(g); err != nil || got != k {
				t.Fatalf("Parse(Generate(%q)) = %q, %v", k, got, err)
			}
		}
	})
}

// buildKey makes a well-formed key of kind whose random part is derived from seed.
func buildKey(kind Kind, seed string) string {
	b := []byte(kind.prefix())
	for i := range randomLen {
		c := byte(i)
		if seed != "" {
			c += seed[i%len(seed)]
		}
		b = append(b, base62[int(c)%len(base62)])
	}
	return string(appendChecksum(b, crc32.ChecksumIEEE(b)))
}

// FuzzHostAllowed checks that no host escapes a wildcard or an exact entry, and that whatever
// NormalizeDomain accepts is stable and matches what it should.
func FuzzHostAllowed(f *testing.F) {
	f.Add("www.example.com", "*.example.com")
	f.Add("example.com", "Example.com.")
	f.Add("evil-example.com", "example.com")
	f.Add("example.com.evil.org", "*.evil.org")
	f.Add("..example.com", "*.example.com")
	f.Add("WWW.EXAMPLE.COM.", "www.example.com")
	f.Add("\xffexample.com", "*.com")
	f.Fuzz(func(t *testing.T, host, entry string) {
		h := strings.TrimSuffix(asciiLower(host), ".")
		if HostAllowed(host, []string{"*.example.com"}) && (!strings.HasSuffix(h, ".example.com") || h == ".example.com") {
			t.Fatalf("HostAllowed(%q, *.example.com) = true", host)
		}
		if HostAllowed(host, []string{"example.com"}) && h != "example.com" {
			t.Fatalf("HostAllowed(%q, example.com) = true", host)
		}

		n, err := NormalizeDomain(entry)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("NormalizeDomain(%q) gave an empty message", entry)
			}
			return
		}
		if again, err := NormalizeDomain(n); err != nil || again != n {
			t.Fatalf("NormalizeDomain(%q) = %q, %v; want %q again", n, again, err, n)
		}
		apex, wildcard := strings.CutPrefix(n, "*.")
		if got := HostAllowed(apex, []string{n}); got == wildcard {
			t.Fatalf("HostAllowed(%q, %q) = %v", apex, n, got)
		}
		if wildcard && len("www."+apex) <= maxHostLen && !HostAllowed("WWW."+apex+".", []string{n}) {
			t.Fatalf("HostAllowed(WWW.%s., %q) = false", apex, n)
		}
		if HostAllowed(host, []string{n}) {
			if !wildcard && h != n || wildcard && !strings.HasSuffix(h, "."+apex) {
				t.Fatalf("HostAllowed(%q, %q) = true", host, n)
			}
		}
	})
}

// FuzzRequestHost checks that RequestHost never panics, gives only lower-case hosts, lets a
// present Origin decide alone, and feeds HostAllowed nothing that escapes a wildcard.
func FuzzRequestHost(f *testing.F) {
	f.Add("https://shop.example.com:8443", "")
	f.Add("null", "https://example.com/page")
	f.Add("", "http://user@example.com./x?y#z")
	f.Add("https://a.example", "https://b.example")
	f.Add("ftp://example.com", "https://example.com")
	f.Add("http://[::1]:80", "javascript:alert(1)")
	f.Add("https://example.com%2eevil.org", "")
	f.Fuzz(func(t *testing.T, origin, referer string) {
		host, ok := RequestHost(origin, referer)
		if ok != (host != "") {
			t.Fatalf("RequestHost(%q, %q) = %q, %v", origin, referer, host, ok)
		}
		if asciiLower(host) != host {
			t.Fatalf("RequestHost(%q, %q) = %q, not lower-case", origin, referer, host)
		}
		if o := strings.TrimSpace(origin); o != "" && o != "null" {
			if h2, ok2 := RequestHost(origin, ""); h2 != host || ok2 != ok {
				t.Fatalf("referer %q changed the answer for origin %q", referer, origin)
			}
		}
		if ok && HostAllowed(host, []string{"*.example.com"}) && !strings.HasSuffix(strings.TrimSuffix(host, "."), ".example.com") {
			t.Fatalf("RequestHost(%q, %q) = %q, allowed by *.example.com", origin, referer, host)
		}
	})
}
