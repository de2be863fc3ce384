package widget

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/internal/plan"
)

func ptr[T any](v T) *T { return &v }

func TestConfigThemeByPlan(t *testing.T) {
	s := Settings{
		Language: "hu", PrimaryHex: ptr("#0a7c66"), AccentHex: ptr("#f2b705"), HeaderTitle: ptr("Napfény"),
		BorderRadiusPx: ptr(16), HidePoweredBy: ptr(true),
	}
	full := &Theme{PrimaryHex: "#0A7C66", AccentHex: ptr("#F2B705"), HeaderTitle: ptr("Napfény"), BorderRadiusPx: ptr(16), HidePoweredBy: ptr(true)}
	tests := []struct {
		name string
		plan plan.Plan
		s    Settings
		want *Theme
	}{
		{"free has no theme", plan.Free, s, nil},
		{"starter has no theme", plan.Starter, s, nil},
		{"pro has the primary colour only", plan.Pro, s, &Theme{PrimaryHex: "#0A7C66"}},
		{"business has every set field", plan.Business, s, full},
		{"enterprise has every set field", plan.Enterprise, s, full},
		{"pro without a colour gets the default", plan.Pro, Settings{Language: "hu"}, &Theme{PrimaryHex: DefaultPrimaryHex}},
		{"business shows only what is set", plan.Business, Settings{Language: "hu", HeaderTitle: ptr("X")}, &Theme{PrimaryHex: DefaultPrimaryHex, HeaderTitle: ptr("X")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.s.Config(tt.plan).Theme); diff != "" {
				t.Errorf("theme (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	hu := DefaultSettings().Config(plan.Free)
	if hu.WelcomeMessage != "Üdvözöljük! Miben segíthetünk?" || len(hu.QuickButtons) == 0 || hu.Language != "hu" {
		t.Errorf("Hungarian defaults = %+v", hu)
	}
	en := Settings{Language: "en"}.Config(plan.Free)
	if !strings.HasPrefix(en.WelcomeMessage, "Hello") {
		t.Errorf("English welcome = %q", en.WelcomeMessage)
	}
	none := Settings{Language: "hu", QuickButtons: []string{}}.Config(plan.Free)
	if none.QuickButtons == nil || len(none.QuickButtons) != 0 {
		t.Errorf("explicitly no buttons = %#v", none.QuickButtons)
	}
}

func TestSettingsCheck(t *testing.T) {
	tests := []struct {
		name string
		s    Settings
		bad  string // "" when valid
	}{
		{"defaults", DefaultSettings(), ""},
		{"bad colour", Settings{Language: "hu", PrimaryHex: ptr("red")}, "primary-hex"},
		{"short colour", Settings{Language: "hu", AccentHex: ptr("#fff")}, "accent-hex"},
		{"radius too small", Settings{Language: "hu", BorderRadiusPx: ptr(7)}, "border-radius"},
		{"radius too large", Settings{Language: "hu", BorderRadiusPx: ptr(29)}, "border-radius"},
		{"radius at the edges", Settings{Language: "hu", BorderRadiusPx: ptr(8)}, ""},
		{"unknown language", Settings{Language: "de"}, "language"},
		{"blank quick button", Settings{Language: "hu", QuickButtons: []string{" "}}, "quick-button"},
		{"title too long", Settings{Language: "hu", HeaderTitle: ptr(strings.Repeat("a", 101))}, "header-title"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Check()
			switch {
			case tt.bad == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.bad != "" && (err == nil || !strings.Contains(err.Error(), tt.bad)):
				t.Errorf("error = %v, want one about %s", err, tt.bad)
			}
		})
	}
}
