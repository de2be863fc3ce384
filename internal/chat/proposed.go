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
		if e164, err := contact.NormalizePhone(ph); err == nil && len(d) >= 6 && strings.Contains(digits, d) {
			out.Phone, out.PhoneE164 = ph, e164
		}
	}
	return out
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
