// Package contact finds and normalises the contact details visitors give: names, email
// addresses and phone numbers, whether typed into a form or written in a chat message.
package contact

import (
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"github.com/leadchat/leadchat/internal/limits"
)

// DefaultRegion is the region assumed for phone numbers written without a country code.
const DefaultRegion = "HU"

// The parts of an address, by RFC 5321; the whole address and the phone number are bounded by
// the limits table.
const (
	maxLocalLen  = 64
	maxDomainLen = 253
	maxLabelLen  = 63
)

// ErrInvalidEmail is wrapped by every error NormalizeEmail returns.
var ErrInvalidEmail = errors.New("invalid email address")

// ErrInvalidPhone is wrapped by every error NormalizePhone returns.
var ErrInvalidPhone = errors.New("invalid phone number")

// NormalizeEmail checks that s is exactly one bare address and returns it trimmed with its
// domain lower-cased; the local part is kept as given because mail servers may treat it
// case-sensitively. Error texts never repeat the address, so they are safe to log.
func NormalizeEmail(s string) (string, error) { return normalizeEmail(s, plainLocal) }

// normalizeEmail is NormalizeEmail, which leaves the address whose local part plain accepts
// to its own checks instead of net/mail's parser.
func normalizeEmail(s string, plain func(local string) bool) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", fmt.Errorf("%w: empty", ErrInvalidEmail)
	case len(s) > limits.EmailLen:
		return "", fmt.Errorf("%w: longer than %d characters", ErrInvalidEmail, limits.EmailLen)
	case !utf8.ValidString(s):
		return "", fmt.Errorf("%w: not UTF-8", ErrInvalidEmail)
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return "", fmt.Errorf("%w: holds a space or control character", ErrInvalidEmail)
		}
	}
	// Display names, angle brackets, comments, quoted local parts, IP literals and lists are
	// all legal in RFC 5322 but never what a visitor means by "my email address".
	if strings.ContainsAny(s, `<>()"[],;:\`) {
		return "", fmt.Errorf("%w: not a bare address", ErrInvalidEmail)
	}
	if strings.Count(s, "@") != 1 {
		return "", fmt.Errorf("%w: needs exactly one @", ErrInvalidEmail)
	}
	at := strings.IndexByte(s, '@')
	if !plain(s[:at]) {
		addr, err := mail.ParseAddress(s)
		if err != nil {
			// mail's own error text may quote the address, which must not reach a log.
			return "", fmt.Errorf("%w: not an RFC 5322 address", ErrInvalidEmail)
		}
		if addr.Name != "" || addr.Address != s {
			return "", fmt.Errorf("%w: not a bare address", ErrInvalidEmail)
		}
	}
	local, domain := s[:at], strings.ToLower(s[at+1:])
	if len(local) > maxLocalLen {
		return "", fmt.Errorf("%w: local part longer than %d characters", ErrInvalidEmail, maxLocalLen)
	}
	if err := checkDomain(domain); err != nil {
		return "", err
	}
	if domain == s[at+1:] {
		return s, nil // already lower-case, as most are: no copy
	}
	return local + "@" + domain, nil
}

// plainLocal reports whether local is a local part of the common shape: letters, digits and
// "._%+-", no dot first, last or twice in a row. net/mail accepts such a part as it is, and
// checkDomain accepts only domains it accepts too, so an address with one needs no parser
// (which was most of an address's cost on a lead create); every other goes through it.
// FuzzNormalizeEmail holds the two ways to each other.
func plainLocal(local string) bool {
	if local == "" || local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return false
	}
	for i := 0; i < len(local); i++ {
		c := local[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._%+-", c) >= 0) {
			return false
		}
	}
	return true
}

// checkDomain accepts a lower-case DNS host name of at least two labels whose top-level label
// is not numeric, which also rules out dotted IP addresses.
func checkDomain(domain string) error {
	if len(domain) > maxDomainLen {
		return fmt.Errorf("%w: domain too long", ErrInvalidEmail)
	}
	if !strings.Contains(domain, ".") {
		return fmt.Errorf("%w: domain needs a dot", ErrInvalidEmail)
	}
	// The labels are walked in place: a lead create checks an address each time.
	var last string
	for rest := domain; ; {
		label, after, more := strings.Cut(rest, ".")
		if !isHostLabel(label) {
			return fmt.Errorf("%w: domain is not a host name", ErrInvalidEmail)
		}
		if !more {
			last = label
			break
		}
		rest = after
	}
	if strings.Trim(last, "0123456789") == "" {
		return fmt.Errorf("%w: numeric top-level domain", ErrInvalidEmail)
	}
	return nil
}

// isHostLabel reports whether l is a letters-digits-hyphen label (RFC 1123); internationalised
// domains are accepted in their ASCII (punycode) form only.
func isHostLabel(l string) bool {
	if l == "" || len(l) > maxLabelLen || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// NormalizePhone checks that s is a plausible phone number as free text and returns its
// E.164 form, or "" with a nil error when the text is acceptable but no known numbering plan
// recognises it (the free text is still worth keeping for a person to read).
func NormalizePhone(s string) (e164 string, err error) {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > limits.PhoneLen {
		return "", fmt.Errorf("%w: longer than %d characters", ErrInvalidPhone, limits.PhoneLen)
	}
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == ' ', r == '\u00a0', r == '\u202f', strings.ContainsRune("+-/().", r):
		default:
			return "", fmt.Errorf("%w: holds a character other than digits, spaces, dots and + - / ( )", ErrInvalidPhone)
		}
	}
	if digits < limits.PhoneMinDigits || digits > limits.PhoneMaxDigits {
		return "", fmt.Errorf("%w: needs %d to %d digits", ErrInvalidPhone, limits.PhoneMinDigits, limits.PhoneMaxDigits)
	}
	return toE164(canonical(s)), nil
}

// canonical keeps a leading + and the digits: the separators NormalizePhone allows carry no
// meaning for libphonenumber, whose patterns run faster on the short form.
func canonical(s string) string {
	b := make([]byte, 0, len(s))
	if strings.HasPrefix(s, "+") {
		b = append(b, '+')
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// toE164 formats s (canonical: an optional + and digits) as E.164 when libphonenumber
// recognises it as a valid number, else "".
func toE164(s string) string {
	if e, ok := quickE164(s); ok {
		return e
	}
	return parseE164(s)
}

// The default region's country code and national prefix ("06" in Hungary), and its numbering
// plan, for quickE164.
var (
	defaultCountryCode    = phonenumbers.GetCountryCodeForRegion(DefaultRegion)
	defaultNationalPrefix = phonenumbers.GetNddPrefixForRegion(DefaultRegion, true)
	defaultPlan           = compileNumberPlan(DefaultRegion)
)

// quickE164 formats the common shapes, "+<country code><number>", the default region's national
// prefix followed by the number, and a bare national number of the default region, without
// libphonenumber's parser, whose regular expressions were the largest cost of a lead create
// (make bench); the default region's numbers are checked against its plan compiled once. It
// answers only for a number libphonenumber then finds valid, and only when the number does not
// start with a zero (where the parser strips national prefixes or keeps Italian leading zeros)
// and a bare number does not start with the country code (which the parser may take for one);
// everything else goes to the parser, which gives the same result for every number this
// accepts (TestQuickE164AgreesWithTheParser).
func quickE164(s string) (string, bool) {
	var cc int
	var national string
	switch {
	case strings.HasPrefix(s, "+0"):
		// No country calling code starts with a zero; the parser refuses the number.
	case strings.HasPrefix(s, "+"):
		// Country calling codes are prefix-free: the first known one is the one.
		for n := 1; n <= 3 && n < len(s)-1; n++ {
			c, err := strconv.Atoi(s[1 : 1+n])
			if err == nil && phonenumbers.GetRegionCodeForCountryCode(c) != phonenumbers.UNKNOWN_REGION {
				cc, national = c, s[1+n:]
				break
			}
		}
	case defaultNationalPrefix != "" && strings.HasPrefix(s, defaultNationalPrefix):
		cc, national = defaultCountryCode, s[len(defaultNationalPrefix):]
	case s != "" && s[0] != '0' && !strings.HasPrefix(s, strconv.Itoa(defaultCountryCode)):
		cc, national = defaultCountryCode, s
	}
	if cc == 0 || national == "" || national[0] == '0' || len(national) > 17 {
		return "", false
	}
	if cc == defaultCountryCode && defaultPlan != nil {
		if !defaultPlan.valid(national) {
			return "", false
		}
		return e164Of(s, cc, national), true
	}
	nn, err := strconv.ParseUint(national, 10, 64)
	if err != nil {
		return "", false
	}
	cc32 := int32(cc)
	if !phonenumbers.IsValidNumber(&phonenumbers.PhoneNumber{CountryCode: &cc32, NationalNumber: &nn}) {
		return "", false
	}
	return e164Of(s, cc, national), true
}

// e164Of is the E.164 form of the number cc and national that quickE164 read from s: s itself
// when s was written so, from its "+", else a new string.
func e164Of(s string, cc int, national string) string {
	if strings.HasPrefix(s, "+") {
		return s
	}
	return "+" + strconv.Itoa(cc) + national
}

// parseE164 is toE164 by libphonenumber's parser.
func parseE164(s string) string {
	num, err := phonenumbers.Parse(s, DefaultRegion)
	if err != nil || !phonenumbers.IsValidNumber(num) {
		return ""
	}
	return phonenumbers.Format(num, phonenumbers.E164)
}
