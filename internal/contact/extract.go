package contact

import (
	"regexp"
	"strings"
)

// Found is what Extract finds in a message; an empty field was not found.
type Found struct {
	FirstName string
	LastName  string
	// Email is normalised as NormalizeEmail returns it.
	Email string
	// Phone is the number as the visitor typed it, trimmed.
	Phone string
	// PhoneE164 is Phone in E.164 form, always set together with Phone.
	PhoneE164 string
	// Correction is set when the text says that the details it gives correct earlier ones
	// ("bocs, elírtam: …", "sorry, typo: …"); only with a detail found.
	Correction bool
}

// Extract finds a visitor's name, email address and phone number in free chat text, taking
// the first of each that it recognises. It is deterministic, uses no network, and its cost
// grows linearly with the text, so it may run on every chat message. Phone numbers without a
// country code are read as Hungarian.
func Extract(text string) Found { return ExtractIn(text, "hu") }

// ExtractIn is Extract for a conversation in the given language ("hu", "en", "de"): a phone
// number in the national format of a country the language points to ("07700 900123",
// "(415) 555-2671" in English) is found too, as written.
func ExtractIn(text, language string) Found {
	var f Found
	f.Email = findEmail(text)
	f.Phone, f.PhoneE164 = findPhone(text, languageRegions[language])
	f.FirstName, f.LastName = findName(text)
	if f != (Found{}) {
		f.Correction = correcting(text)
	}
	return f
}

// languageRegions are the countries whose national phone numbers a conversation in a language
// may hold, most likely first.
var languageRegions = map[string][]string{
	"en": {"GB", "US", "IE"},
	"de": {"DE", "AT", "CH"},
}

// emailCandidate matches anything shaped like an address; NormalizeEmail has the last word.
// Non-ASCII is left out of both parts: a visitor who types "kovács@..." rarely means it, and
// NormalizeEmail would refuse a Unicode domain anyway.
var emailCandidate = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+`)

// maxEmailCandidates bounds the work on text full of at signs.
const maxEmailCandidates = 16

// findEmail returns the first valid address in text, normalised, or "".
func findEmail(text string) string {
	if !strings.Contains(text, "@") {
		return ""
	}
	for _, m := range emailCandidate.FindAllString(text, maxEmailCandidates) {
		at := strings.LastIndexByte(m, '@')
		local := strings.TrimLeft(m[:at], ".")
		domain, ok := trimDomain(m[at+1:])
		if !ok {
			continue
		}
		if e, err := NormalizeEmail(local + "@" + domain); err == nil {
			return e
		}
	}
	return ""
}

// trimDomain cuts what follows an address in Hungarian text ("x@gmail.com-ra" is "to
// x@gmail.com") and refuses a top-level label that is not alphabetic: real TLDs are letters,
// or punycode, and a "TLD" like "c" or "hu2" is a typo we should not store.
func trimDomain(d string) (string, bool) {
	dot := strings.LastIndexByte(d, '.')
	tld := d[dot+1:]
	if !strings.HasPrefix(tld, "xn--") {
		if i := strings.IndexByte(tld, '-'); i >= 0 {
			tld = tld[:i]
		}
		if len(tld) < 2 {
			return "", false
		}
		for i := 0; i < len(tld); i++ {
			if c := tld[i] | 0x20; c < 'a' || c > 'z' {
				return "", false
			}
		}
	}
	return d[:dot+1] + tld, true
}
