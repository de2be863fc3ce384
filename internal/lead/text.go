package lead

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/contact"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

// The characters a client may not send. One-line fields (names, service, email, phone) refuse
// every control character, C0 (NUL to U+001F), DEL and C1 (U+0080 to U+009F), and the
// bidirectional controls (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which make a value
// display as something other than what it holds. Free text (details, chat messages) allows line
// breaks and tabs and refuses every other control character; it keeps the bidirectional
// controls, which right-to-left writing needs and which phones put around a copied number, so
// whatever prints free text for a person escapes them. Invalid UTF-8 is refused everywhere.

// CheckLine trims a one-line value and checks its characters (invalid_characters) and its
// length in characters (invalid_field).
func CheckLine(field, s string, max int) (string, error) {
	s = Trim(s)
	if err := refuse(field, s, RefusedInLine); err != nil {
		return "", err
	}
	if err := checkLen(field, s, max); err != nil {
		return "", err
	}
	return s, nil
}

// CheckText trims a free-text value and checks its characters (invalid_characters) and its
// length in characters (invalid_field).
func CheckText(field, s string, max int) (string, error) {
	s = Trim(s)
	if err := refuse(field, s, RefusedInText); err != nil {
		return "", err
	}
	if err := checkLen(field, s, max); err != nil {
		return "", err
	}
	return s, nil
}

// CheckEmail checks an email field: one bare address without refused characters, returned
// trimmed with its domain lower-cased.
func CheckEmail(s string) (string, error) {
	s = Trim(s)
	if err := refuse("email", s, RefusedInLine); err != nil {
		return "", err
	}
	email, err := contact.NormalizeEmail(s)
	if err != nil {
		return "", errs.Field(errs.CodeInvalidEmail, "email")
	}
	return email, nil
}

// CheckPhone checks a phone field, free text of at most limits.PhoneLen characters holding 6 to 15 digits
// and no refused character, and returns it trimmed with its E.164 form ("" when no numbering
// plan recognises it). A blank value is absent: empty results and no error.
func CheckPhone(s string) (phone, e164 string, err error) {
	phone = Trim(s)
	if err := refuse("phone", phone, RefusedInLine); err != nil {
		return "", "", err
	}
	if phone == "" {
		return "", "", nil
	}
	if utf8.RuneCountInString(phone) > limits.PhoneLen {
		return "", "", errs.Field(errs.CodeInvalidPhone, "phone")
	}
	if e164, err = contact.NormalizePhone(phone); err != nil {
		return "", "", errs.Field(errs.CodeInvalidPhone, "phone")
	}
	return phone, e164, nil
}

// Trim is s without the white space around it. It is strings.TrimSpace but for NEL (U+0085),
// the one C1 control Unicode counts as white space: trimmed, a NEL at either end would vanish
// instead of being refused, and the value would pass as if it were clean.
func Trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r != 0x85 && unicode.IsSpace(r) })
}

// RefusedInLine reports whether a one-line field refuses r: a control character (C0, DEL, C1)
// or a bidirectional control.
func RefusedInLine(r rune) bool { return isControl(r) || IsBidiControl(r) }

// RefusedInText reports whether free text refuses r: a control character other than a line
// break (LF, CR) or a tab.
func RefusedInText(r rune) bool { return isControl(r) && r != '\n' && r != '\r' && r != '\t' }

// IsBidiControl reports whether r is a bidirectional control: the marks LRM and RLM, the
// embeddings and overrides LRE, RLE, PDF, LRO and RLO, or the isolates LRI, RLI, FSI and PDI.
func IsBidiControl(r rune) bool {
	return r == 0x200e || r == 0x200f || 0x202a <= r && r <= 0x202e || 0x2066 <= r && r <= 0x2069
}

// isControl reports whether r is a C0 control, DEL or a C1 control (Unicode category Cc).
func isControl(r rune) bool { return r < 0x20 || 0x7f <= r && r <= 0x9f }

// refuse is the invalid_characters error when s is not UTF-8 or holds a rune refused reports.
func refuse(field, s string, refused func(rune) bool) error {
	if !utf8.ValidString(s) || strings.IndexFunc(s, refused) >= 0 {
		return errs.Field(errs.CodeInvalidCharacters, field)
	}
	return nil
}

func checkLen(field, s string, max int) error {
	if utf8.RuneCountInString(s) > max {
		return errs.Field(errs.CodeInvalidField, field)
	}
	return nil
}
