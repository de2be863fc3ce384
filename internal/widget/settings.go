package widget

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/plan"
)

// Settings are a company's stored widget settings; nil means "not set, use the default".
type Settings struct {
	WelcomeMessage *string
	QuickButtons   []string // nil: the defaults; empty: no buttons
	ContactPrompt  *string
	RequirePhone   bool
	GateQuote      bool
	PrimaryHex     *string
	AccentHex      *string
	HeaderTitle    *string
	BorderRadiusPx *int
	HidePoweredBy  *bool
	Language       string // "hu", "en" or "auto" (each visitor in their own language)
	// PrivacyURL is the company's privacy notice, linked beside the contact form (https).
	PrivacyURL *string
	// MarketingConsentText is shown as an unticked checkbox beside the contact form.
	MarketingConsentText *string
}

// Theme is the part of the config the plan decides; nil fields are not shown.
type Theme struct {
	PrimaryHex     string
	AccentHex      *string
	HeaderTitle    *string
	BorderRadiusPx *int
	HidePoweredBy  *bool
}

// Config is what the widget receives: settings with defaults filled in and the theme cut to
// the plan.
type Config struct {
	WelcomeMessage       string
	QuickButtons         []string
	ContactPrompt        *string
	RequirePhone         bool
	GateQuote            bool
	Language             string
	Theme                *Theme // nil on plans without a theme
	PrivacyURL           *string
	MarketingConsentText *string
}

// DefaultPrimaryHex is the theme colour of a plan with a theme whose company set none.
const DefaultPrimaryHex = "#1F6FEB"

var hexColour = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// InvalidError is what Check refuses: the settings by their flag names (primary-hex,
// border-radius...), so each interface can name them in its own words, and the CLI's messages.
type InvalidError struct {
	Fields   []string
	problems []string
}

func (e *InvalidError) Error() string {
	return "invalid widget settings: " + strings.Join(e.problems, "; ")
}

func (e *InvalidError) add(field, format string, args ...any) {
	if !slices.Contains(e.Fields, field) {
		e.Fields = append(e.Fields, field)
	}
	e.problems = append(e.problems, fmt.Sprintf(format, args...))
}

// Check refuses settings the widget cannot show: bad colours, a radius outside 8..28, texts
// too long, too many quick buttons, an unknown language; the error is an *InvalidError.
func (s Settings) Check() error {
	e := &InvalidError{}
	for _, c := range []struct {
		name string
		v    *string
	}{{"primary-hex", s.PrimaryHex}, {"accent-hex", s.AccentHex}} {
		if c.v != nil && !hexColour.MatchString(*c.v) {
			e.add(c.name, "--%s %q: want a colour like #1F6FEB", c.name, *c.v)
		}
	}
	if r := s.BorderRadiusPx; r != nil && (*r < limits.BorderRadiusMin || *r > limits.BorderRadiusMax) {
		e.add("border-radius", "--border-radius %d: want 8 to 28", *r)
	}
	tooLong := func(flag string, v *string, max int) {
		if v != nil && utf8.RuneCountInString(*v) > max {
			e.add(flag, "--%s: at most %d characters", flag, max)
		}
	}
	tooLong("welcome-message", s.WelcomeMessage, limits.WelcomeLen)
	tooLong("contact-prompt", s.ContactPrompt, limits.ContactPromptLen)
	tooLong("header-title", s.HeaderTitle, limits.HeaderTitleLen)
	tooLong("marketing-consent-text", s.MarketingConsentText, limits.ConsentTextLen)
	if u := s.PrivacyURL; u != nil && !lead.HTTPSURL(*u, limits.PrivacyURLLen) {
		e.add("privacy-url", "--privacy-url %q: want an https:// address of at most %d characters", *u, limits.PrivacyURLLen)
	}
	if len(s.QuickButtons) > limits.QuickButtons {
		e.add("quick-button", "--quick-button: at most %d buttons", limits.QuickButtons)
	}
	for _, b := range s.QuickButtons {
		if strings.TrimSpace(b) == "" || utf8.RuneCountInString(b) > limits.QuickButtonLen {
			e.add("quick-button", "--quick-button %q: want 1 to %d characters", b, limits.QuickButtonLen)
		}
	}
	if s.Language != "hu" && s.Language != "en" && s.Language != LanguageAuto {
		e.add("language", "--language %q: want hu, en or auto", s.Language)
	}
	if len(e.Fields) > 0 {
		return e
	}
	return nil
}

// LanguageAuto answers Hungarian visitors in Hungarian and English ones in English.
const LanguageAuto = "auto"

// DefaultSettings are the settings of a company that set none.
func DefaultSettings() Settings { return Settings{Language: "hu"} }

// Config fills in defaults for the settings' language and keeps the theme fields p allows.
func (s Settings) Config(p plan.Plan) Config {
	lang := s.Language
	if lang != "en" && lang != LanguageAuto {
		lang = "hu"
	}
	c := Config{
		WelcomeMessage: defaultWelcome(lang), QuickButtons: defaultButtons(lang),
		ContactPrompt: s.ContactPrompt, RequirePhone: s.RequirePhone, GateQuote: s.GateQuote, Language: lang,
		PrivacyURL: s.PrivacyURL, MarketingConsentText: s.MarketingConsentText,
	}
	if s.WelcomeMessage != nil {
		c.WelcomeMessage = *s.WelcomeMessage
	}
	if s.QuickButtons != nil {
		c.QuickButtons = s.QuickButtons
	}
	primary, whiteLabel := p.Theme()
	if primary {
		c.Theme = &Theme{PrimaryHex: DefaultPrimaryHex}
		if s.PrimaryHex != nil {
			c.Theme.PrimaryHex = strings.ToUpper(*s.PrimaryHex)
		}
	}
	if whiteLabel {
		c.Theme.AccentHex, c.Theme.HeaderTitle = upper(s.AccentHex), s.HeaderTitle
		c.Theme.BorderRadiusPx, c.Theme.HidePoweredBy = s.BorderRadiusPx, s.HidePoweredBy
	}
	return c
}

func upper(s *string) *string {
	if s == nil {
		return nil
	}
	u := strings.ToUpper(*s)
	return &u
}

func defaultWelcome(lang string) string {
	switch lang {
	case "en":
		return "Hello! How can we help you?"
	case LanguageAuto:
		return "Üdvözöljük! Miben segíthetünk? – Hello! How can we help you?"
	}
	return "Üdvözöljük! Miben segíthetünk?"
}

func defaultButtons(lang string) []string {
	if lang == "en" {
		return []string{"I'd like a quote", "Please call me back", "Opening hours"}
	}
	return []string{"Árajánlatot kérek", "Visszahívást kérek", "Nyitvatartás"}
}

// Served reports whether plan p shows a theme setting, named as `widget set` names it
// (primary-hex on pro and up; accent-hex, header-title, border-radius and hide-powered-by on
// business and up); settings that are not theme settings are served on every plan. The
// settings are kept whatever the plan, so that an upgrade needs no re-entry.
func Served(p plan.Plan, setting string) bool {
	primary, whiteLabel := p.Theme()
	switch setting {
	case "primary-hex":
		return primary
	case "accent-hex", "header-title", "border-radius", "hide-powered-by":
		return whiteLabel
	}
	return true
}
