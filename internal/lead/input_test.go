package lead

import (
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
		{"NUL", Input{FirstName: "A\x00", Email: "a@example.hu"}, "invalid_field"},
		{"long details", Input{FirstName: "A", Email: "a@example.hu", Details: sp(strings.Repeat("é", limits.DetailsLen+1))}, "invalid_field"},
		{"details at the limit", Input{FirstName: "A", Email: "a@example.hu", Details: sp(strings.Repeat("é", limits.DetailsLen))}, ""},
		{"long referral value", Input{FirstName: "A", Email: "a@example.hu", ReferralData: map[string]string{"gclid": strings.Repeat("x", limits.ReferralValueLen+1)}}, "invalid_referral_data"},
		{"long unknown referral value is dropped", Input{FirstName: "A", Email: "a@example.hu", ReferralData: map[string]string{"junk": strings.Repeat("x", 5000)}}, ""},
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
