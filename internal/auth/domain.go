package auth

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a host name (RFC 1035 §2.3.4), without the trailing dot of the fully qualified form.
const (
	maxHostLen  = 253
	maxLabelLen = 63
)

// NormalizeDomain checks an allowed-domain entry typed by an administrator and returns the form
// to store: a lower-case host name (example.com, that host only) or a wildcard (*.example.com,
// any subdomain at any depth, never the apex). A trailing dot is dropped. Internationalised
// names must be given in punycode (xn--...): the module has no IDNA library, and guessing a
// conversion could allow a look-alike site. The errors are plain English, for the CLI.
func NormalizeDomain(entry string) (string, error) {
	s := strings.TrimSpace(entry)
	switch {
	case s == "":
		return "", errors.New("the domain is empty")
	case strings.Contains(s, "://"):
		return "", errors.New("give a host name, not a URL: leave out the scheme (https://) and any path")
	case strings.ContainsAny(s, "/?#"):
		return "", errors.New("give a host name only, without a path, query or fragment")
	case strings.IndexFunc(s, unicode.IsSpace) >= 0:
		return "", errors.New("a host name cannot contain spaces")
	case !isASCII(s):
		return "", errors.New("the domain has non-ASCII characters: give an internationalised name in its punycode form " +
			"(xn--...), for example xn--bcher-kva.example for bücher.example")
	case strings.Contains(s, "@"):
		return "", errors.New("give a host name without a user name (@)")
	case strings.ContainsAny(s, "[]"):
		return "", errors.New("IPv6 addresses are not supported: give a host name")
	case strings.Contains(s, ":"):
		return "", errors.New("give a host name without a port: the check ignores ports")
	}
	s = strings.TrimSuffix(asciiLower(s), ".")
	if s == "*" {
		return "", errors.New("a lone * would allow every site: to allow any origin leave the domain list empty, " +
			"or give a wildcard such as *.example.com")
	}
	rest, wildcard := strings.CutPrefix(s, "*.")
	switch {
	case strings.Contains(rest, "*"):
		return "", errors.New("a wildcard is allowed only as the whole first label, as in *.example.com")
	case strings.HasPrefix(rest, "."):
		return "", errors.New("a leading dot is not a wildcard: write *.example.com for any subdomain, " +
			"or example.com for that host only")
	}
	if err := checkHost(rest); err != nil {
		return "", err
	}
	if !wildcard {
		return rest, nil
	}
	if isIPv4(rest) {
		return "", errors.New("a wildcard needs a domain name, not an IP address")
	}
	if !strings.Contains(rest, ".") {
		return "", fmt.Errorf("*.%s would allow every site under a top-level domain: "+
			"give at least two labels after the *., as in *.example.com", rest)
	}
	return "*." + rest, nil
}

// HostAllowed reports whether host (as from RequestHost) matches one of the allowed entries,
// which are in NormalizeDomain's form. Case and a trailing dot on host do not matter; a host
// that is not a valid host name matches nothing, so no oddity can satisfy a wildcard. An empty
// list allows nothing here: that an empty list means "any origin" is the caller's rule.
func HostAllowed(host string, allowed []string) bool {
	host = strings.TrimSuffix(asciiLower(host), ".")
	if checkHost(host) != nil {
		return false
	}
	for _, e := range allowed {
		e = strings.TrimSuffix(e, ".")
		if suffix, ok := strings.CutPrefix(e, "*"); ok {
			// suffix is ".example.com"; host has no empty labels, so anything longer that ends
			// with it is a proper subdomain, while evil-example.com and the apex are not.
			if len(suffix) > 1 && suffix[0] == '.' && len(host) > len(suffix) &&
				strings.EqualFold(host[len(host)-len(suffix):], suffix) {
				return true
			}
			continue
		}
		if strings.EqualFold(host, e) {
			return true
		}
	}
	return false
}

// checkHost reports why s, lower-case and without a trailing dot, is not a host name: labels of
// 1 to 63 letters, digits and inner hyphens, 253 characters in all, and a last label that is not
// all digits unless the whole is an IPv4 address.
func checkHost(s string) error {
	if s == "" {
		return errors.New("no host name given")
	}
	if len(s) > maxHostLen {
		return fmt.Errorf("the host name is longer than %d characters", maxHostLen)
	}
	rest := s
	for {
		label, after, more := strings.Cut(rest, ".")
		if err := checkLabel(label); err != nil {
			return err
		}
		if !more {
			if allDigits(label) && !isIPv4(s) {
				return errors.New("not a valid host name or IPv4 address: the last label is all digits")
			}
			return nil
		}
		rest = after
	}
}

func checkLabel(label string) error {
	switch {
	case label == "":
		return errors.New("the host name has an empty label (two dots in a row, or a dot at the start)")
	case len(label) > maxLabelLen:
		return fmt.Errorf("the label %q is longer than %d characters", label, maxLabelLen)
	case label[0] == '-' || label[len(label)-1] == '-':
		return fmt.Errorf("the label %q starts or ends with a hyphen", label)
	}
	for i := 0; i < len(label); i++ {
		if c := label[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return fmt.Errorf("invalid character %q: a host name holds only letters, digits, hyphens and dots", c)
		}
	}
	return nil
}

func isIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower lower-cases ASCII letters only: host names are ASCII, and strings.ToLower would
// rewrite invalid UTF-8, changing what is later compared.
func asciiLower(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if i < 0 {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}
