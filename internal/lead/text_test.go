package lead

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/errs"
)

func TestRefusedCharacters(t *testing.T) {
	tests := []struct {
		r          rune
		line, text bool // refused in a one-line field, in free text
	}{
		{0x00, true, true}, {0x07, true, true}, {'\t', true, false}, {'\n', true, false}, {'\r', true, false},
		{0x1b, true, true}, {0x1f, true, true}, {' ', false, false}, {'~', false, false}, {0x7f, true, true},
		{0x80, true, true}, {0x85, true, true}, {0x9b, true, true}, {0x9f, true, true}, {0xa0, false, false},
		{'é', false, false}, {'ő', false, false}, {0x200b, false, false}, {0x200d, false, false},
		{0x200e, true, false}, {0x200f, true, false}, {0x2029, false, false}, {0x202a, true, false},
		{0x202e, true, false}, {0x202f, false, false}, {0x2065, false, false}, {0x2066, true, false},
		{0x2069, true, false}, {0x206a, false, false}, {0xfeff, false, false},
	}
	for _, tt := range tests {
		if got := RefusedInLine(tt.r); got != tt.line {
			t.Errorf("RefusedInLine(%U) = %v, want %v", tt.r, got, tt.line)
		}
		if got := RefusedInText(tt.r); got != tt.text {
			t.Errorf("RefusedInText(%U) = %v, want %v", tt.r, got, tt.text)
		}
	}
}

func TestCheckLineAndText(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		line, text string // the code each gives, "" when accepted
	}{
		{"plain", "Kovács Péter", "", ""},
		{"surrounding space is trimmed", " \t Anna\r\n", "", ""},
		{"inner newline", "Anna\nBéla", "invalid_characters", ""},
		{"inner tab", "Anna\tBéla", "invalid_characters", ""},
		{"ESC sequence", "\x1b[31mAnna", "invalid_characters", "invalid_characters"},
		{"NUL", "a\x00b", "invalid_characters", "invalid_characters"},
		{"C1 CSI", "a\u009b2Jb", "invalid_characters", "invalid_characters"},
		{"NEL at the end", "Anna\u0085", "invalid_characters", "invalid_characters"},
		{"NEL at the start", "\u0085Anna", "invalid_characters", "invalid_characters"},
		{"NEL alone", "\u0085", "invalid_characters", "invalid_characters"},
		{"C1 at the end after space", "Anna \u0080 ", "invalid_characters", "invalid_characters"},
		{"no-break space is trimmed", "\u00a0Anna\u00a0", "", ""},
		{"right-to-left override", "moc.live\u202e@anna", "invalid_characters", ""},
		{"isolate", "a\u2066b\u2069", "invalid_characters", ""},
		{"invalid UTF-8", "a\xc3(", "invalid_characters", "invalid_characters"},
		{"too long", strings.Repeat("é", 21), "invalid_field", "invalid_field"},
		{"too long with a refused character", strings.Repeat("é", 21) + "\x00", "invalid_characters", "invalid_characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				check func(string, string, int) (string, error)
				want  string
			}{{CheckLine, tt.line}, {CheckText, tt.text}} {
				_, err := c.check("f", tt.in, 20)
				switch {
				case c.want == "" && err != nil:
					t.Errorf("unexpected error %v", err)
				case c.want != "" && (err == nil || string(errs.As(err).Code) != c.want || errs.As(err).Field != "f"):
					t.Errorf("error %v, want %s on field f", err, c.want)
				}
			}
		})
	}
}

func TestCheckEmailAndPhone(t *testing.T) {
	for _, tt := range []struct {
		name, email, code string
	}{
		{"valid", " Anna@Example.HU ", ""},
		{"control character", "anna\x01@example.hu", "invalid_characters"},
		{"bidi control", "anna@exam\u202eple.hu", "invalid_characters"},
		{"not an address", "anna", "invalid_email"},
	} {
		t.Run("email "+tt.name, func(t *testing.T) {
			got, err := CheckEmail(tt.email)
			if tt.code == "" && (err != nil || got != "Anna@example.hu") {
				t.Errorf("CheckEmail = %q, %v", got, err)
			}
			if tt.code != "" && (err == nil || string(errs.As(err).Code) != tt.code || errs.As(err).Field != "email") {
				t.Errorf("CheckEmail error %v, want %s", err, tt.code)
			}
		})
	}
	for _, tt := range []struct {
		name, phone, code string
	}{
		{"valid", " 06 30 123 4567 ", ""},
		{"blank is absent", "  ", ""},
		{"pasted with bidi marks", "\u202a+36 30 123 4567\u202c", "invalid_characters"},
		{"with a newline", "+36 30\n123 4567", "invalid_characters"},
		{"too few digits", "12345", "invalid_phone"},
		{"too long", "+36 30" + strings.Repeat(" ", 40) + "123 4567", "invalid_phone"},
	} {
		t.Run("phone "+tt.name, func(t *testing.T) {
			phone, e164, err := CheckPhone(tt.phone)
			if tt.code == "" && (err != nil || phone != Trim(tt.phone) || (phone != "" && e164 != "+36301234567")) {
				t.Errorf("CheckPhone = %q, %q, %v", phone, e164, err)
			}
			if tt.code != "" && (err == nil || string(errs.As(err).Code) != tt.code || errs.As(err).Field != "phone") {
				t.Errorf("CheckPhone error %v, want %s", err, tt.code)
			}
		})
	}
}

// FuzzCheckText holds the character rules to their promise: whatever CheckLine or CheckText
// accepts is trimmed UTF-8 within the length limit and holds no refused character; whatever
// they refuse for its characters holds one; a one-line field is never laxer than free text;
// and an accepted email or phone holds no character a one-line field refuses.
func FuzzCheckText(f *testing.F) {
	for _, s := range []string{"Kovács Péter", " a\r\nb\t ", "\x1b[2J", "a\u202eb", "a\xff", "\u0085", "שלום\u200f",
		"anna@example.hu", "\u202a+36 30 123 4567\u202c", strings.Repeat("é", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		const max = 30
		line, lineErr := CheckLine("f", s, max)
		text, textErr := CheckText("f", s, max)
		for _, c := range []struct {
			got     string
			err     error
			refused func(rune) bool
		}{{line, lineErr, RefusedInLine}, {text, textErr, RefusedInText}} {
			trimmed := Trim(s)
			if c.err == nil {
				if c.got != trimmed || !utf8.ValidString(c.got) || utf8.RuneCountInString(c.got) > max ||
					strings.IndexFunc(c.got, c.refused) >= 0 {
					t.Fatalf("accepted %q as %q", s, c.got)
				}
				continue
			}
			switch e := errs.As(c.err); e.Code {
			case "invalid_characters":
				if utf8.ValidString(trimmed) && strings.IndexFunc(trimmed, c.refused) < 0 {
					t.Fatalf("refused %q for characters it does not hold", s)
				}
			case "invalid_field":
				if utf8.RuneCountInString(trimmed) <= max {
					t.Fatalf("refused %q as too long", s)
				}
			default:
				t.Fatalf("unexpected error %v", c.err)
			}
		}
		if lineErr == nil && textErr != nil {
			t.Fatalf("%q passes as a line but not as text: %v", s, textErr)
		}
		if email, err := CheckEmail(s); err == nil && (!utf8.ValidString(email) || strings.IndexFunc(email, RefusedInLine) >= 0) {
			t.Fatalf("accepted email %q", email)
		}
		if phone, _, err := CheckPhone(s); err == nil && (!utf8.ValidString(phone) || strings.IndexFunc(phone, RefusedInLine) >= 0) {
			t.Fatalf("accepted phone %q", phone)
		}
	})
}
