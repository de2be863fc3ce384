package admin

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Client text (what visitors and integrations sent) reaches the operator's terminal through the
// commands' tables. Printed raw, an ESC sequence could recolour, retitle or clear the terminal
// or hide a link; a newline or tab could fake a table row or column; a bidirectional control
// could make what follows read backwards. printable and escapeJSON make such text harmless.

// printable returns s for a table cell: every rune that is not graphic (control characters, ESC,
// DEL, C1, format characters such as the bidirectional controls, line and paragraph separators)
// and the backslash, which would make the escapes ambiguous, are written as Go escapes (\n,
// \x1b, \u202e, \\). Letters of every script, and spaces, stay as they are.
func printable(s string) string {
	if strings.IndexFunc(s, needsEscape) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case needsEscape(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

func needsEscape(r rune) bool { return r == '\\' || !unicode.IsGraphic(r) }

// escapeJSON rewrites encoded JSON so that no rune a terminal would act on is printed raw:
// encoding/json escapes C0 controls, U+2028 and U+2029, but leaves DEL, C1 controls and the
// bidirectional controls as they are. Outside ASCII such runes occur only inside strings, where
// a \u escape means the same, so the document is unchanged for a program that reads it.
func escapeJSON(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x7f && r != utf8.RuneError && !unicode.IsGraphic(r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			if r < 0x10000 {
				out = fmt.Appendf(out, `\u%04x`, r)
			} else {
				hi, lo := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
			}
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}
