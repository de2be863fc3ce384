package lead

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

func sp(s string) *string { return &s }

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		code errs.Code // "" when valid
	}{
		{"minimal", Input{FirstName: "Anna", Email: "a@example.hu"}, ""},
		{"blank name", Input{FirstName: " \t", Email: "a@example.hu"}, "missing_field"},
		{"bad email", Input{FirstName: "Anna", Email: "a@b"}, "invalid_email"},
		{"bad phone", Input{FirstName: "Anna", Email: "a@example.hu", Phone: sp("123")}, "invalid_phone"},
		{"blank phone is absent", Input{FirstName: "Anna", Email: "a@example.hu", Phone: sp("  ")}, ""},
		{"bad source", Input{FirstName: "Anna", Email: "a@example.hu", Source: sp("fax")}, "invalid_source"},
		{"NUL", Input{FirstName: "A\x00", Email: "a@example.hu"}, "invalid_characters"},
		{"ESC in a name", Input{FirstName: "A\x1b[2J", Email: "a@example.hu"}, "invalid_characters"},
		{"newline in a last name", Input{FirstName: "A", LastName: sp("B\nC"), Email: "a@example.hu"}, "invalid_characters"},
		{"RLO in a service", Input{FirstName: "A", Email: "a@example.hu", Service: sp("x\u202ey")}, "invalid_characters"},
		{"C1 in an email", Input{FirstName: "A", Email: "a\u0085@example.hu"}, "invalid_characters"},
		{"LRM in an email", Input{FirstName: "A", Email: "a\u200e@example.hu"}, "invalid_characters"},
		{"bidi-wrapped phone", Input{FirstName: "A", Email: "a@example.hu", Phone: sp("\u202a+36 30 123 4567\u202c")}, "invalid_characters"},
		{"tab in a phone", Input{FirstName: "A", Email: "a@example.hu", Phone: sp("+36 30\t123 4567")}, "invalid_characters"},
		{"line breaks and tabs in details", Input{FirstName: "A", Email: "a@example.hu", Details: sp("sor 1\r\nsor 2\tvége")}, ""},
		{"bell in details", Input{FirstName: "A", Email: "a@example.hu", Details: sp("x\ay")}, "invalid_characters"},
		{"DEL in details", Input{FirstName: "A", Email: "a@example.hu", Details: sp("x\x7fy")}, "invalid_characters"},
		{"bidi mark in details", Input{FirstName: "A", Email: "a@example.hu", Details: sp("שלום\u200f 123")}, ""},
		{"invalid UTF-8 in a name", Input{FirstName: "A\xff", Email: "a@example.hu"}, "invalid_characters"},
		{"long details", Input{FirstName: "A", Email: "a@example.hu", Details: sp(strings.Repeat("é", limits.DetailsLen+1))}, "invalid_field"},
		{"details at the limit", Input{FirstName: "A", Email: "a@example.hu", Details: sp(strings.Repeat("é", limits.DetailsLen))}, ""},
		{"long referral value", Input{FirstName: "A", Email: "a@example.hu", ReferralData: map[string]string{"gclid": strings.Repeat("x", 2049)}}, "invalid_referral_data"},
		{"long unknown referral value is dropped", Input{FirstName: "A", Email: "a@example.hu", ReferralData: map[string]string{"junk": strings.Repeat("x", 5000)}}, ""},
	}
	// Every one-line field refuses every C1 control, inside the value and at either end, where
	// trimming must not swallow NEL (U+0085), which Unicode counts as white space.
	for _, r := range []rune{0x80, 0x85, 0x9f} {
		c := string(r)
		for _, at := range []struct {
			name string
			put  func(v string) string
		}{
			{"inside", func(v string) string { return v[:1] + c + v[1:] }},
			{"at the end", func(v string) string { return v + c }},
			{"at the start", func(v string) string { return c + v }},
		} {
			for field, in := range map[string]Input{
				"first_name": {FirstName: at.put("Anna"), Email: "a@example.hu"},
				"last_name":  {FirstName: "A", LastName: sp(at.put("Kovács")), Email: "a@example.hu"},
				"email":      {FirstName: "A", Email: at.put("a@example.hu")},
				"phone":      {FirstName: "A", Email: "a@example.hu", Phone: sp(at.put("+36 30 123 4567"))},
				"service":    {FirstName: "A", Email: "a@example.hu", Service: sp(at.put("tetőjavítás"))},
			} {
				tests = append(tests, struct {
					name string
					in   Input
					code errs.Code
				}{fmt.Sprintf("%U %s of %s", r, at.name, field), in, "invalid_characters"})
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.in.Check()
			switch {
			case tt.code == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.code != "" && (err == nil || errs.As(err).Code != tt.code):
				t.Errorf("error %v, want code %s", err, tt.code)
			}
		})
	}
}

func TestCheckNormalises(t *testing.T) {
	l, err := Input{FirstName: " Anna ", Email: " Anna@Example.HU ", Phone: sp("06 30 123 4567"),
		ReferralData: map[string]string{"utm_source": "x", "evil": "y"}}.Check()
	if err != nil {
		t.Fatal(err)
	}
	if l.FirstName != "Anna" || l.Email != "Anna@example.hu" || l.PhoneE164 != "+36301234567" || l.Source != SourceAPI {
		t.Errorf("lead = %+v", l)
	}
	if len(l.ReferralData) != 1 || l.ReferralData["utm_source"] != "x" {
		t.Errorf("referral = %v", l.ReferralData)
	}
}
