package chat

import (
	"strings"
	"unicode"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/contact"
)

// verified keeps the contact details a model proposed that appear in the visitor's own
// messages, so a model cannot invent or carry over a detail. Names split like the extractor's
// single-field form: the whole name goes to FirstName.
func verified(p assistant.Contact, visitor []string) Contact {
	var out Contact
	text := strings.ToLower(strings.Join(visitor, "\n"))
	digits := onlyDigits(text)
	if n := strings.TrimSpace(p.Name); n != "" && len(n) <= 200 && strings.Contains(text, strings.ToLower(n)) {
		out.FirstName = n
	}
	if e, err := contact.NormalizeEmail(p.Email); err == nil && strings.Contains(text, strings.ToLower(e)) {
		out.Email = e
	}
	if ph := strings.TrimSpace(p.Phone); ph != "" {
		d := onlyDigits(ph)
		e164, err := contact.NormalizePhone(ph)
		if err == nil && len(d) >= 6 && (strings.Contains(digits, d) || writtenAs(e164, visitor)) {
			out.Phone, out.PhoneE164 = ph, e164
		}
	}
	return out
}

// writtenAs reports whether a visitor message holds the phone number e164 in any written form
// ("06 30 …" for "+3630…").
func writtenAs(e164 string, visitor []string) bool {
	if e164 == "" {
		return false
	}
	for _, m := range visitor {
		if contact.Extract(m).PhoneE164 == e164 {
			return true
		}
	}
	return false
}

func onlyDigits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
