package admin

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/widget"
)

// widgetSet changes only the settings named by its flags; the others keep their stored value
// (the defaults until set).
func widgetSet(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "widget set")
	company := companyFlag(fs)
	fs.String("welcome-message", "", "the first message in the chat panel")
	var buttons stringList
	fs.Var(&buttons, "quick-button", "a quick-reply button label; repeatable (--quick-button= alone removes them all)")
	fs.String("contact-prompt", "", "the text above the contact form")
	fs.Bool("require-phone", false, "ask for a phone number too")
	fs.Bool("gate-quote", false, "give no price or quote before the visitor's contact details")
	fs.String("primary-hex", "", "theme colour, #RRGGBB (pro and up)")
	fs.String("accent-hex", "", "accent colour, #RRGGBB (business and up)")
	fs.String("header-title", "", "chat panel title (business and up)")
	fs.Int("border-radius", 0, "corner radius in pixels, 8 to 28 (business and up)")
	fs.Bool("hide-powered-by", false, "hide the \"powered by\" line (business and up)")
	fs.String("language", "", "hu, en or auto (each visitor in their own language)")
	fs.String("privacy-url", "", "the privacy notice linked beside the contact form, https (empty unsets)")
	fs.String("marketing-consent-text", "", "marketing consent shown as an unticked checkbox (empty unsets)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	c, err := env.Store.Company(ctx, id)
	if err != nil {
		return notFound(err, "company", id, "company")
	}
	s, err := env.Store.WidgetSettings(ctx, id)
	if err != nil {
		return err
	}
	var problems, unserved []string
	fs.Visit(func(f *flag.Flag) {
		if !widget.Served(c.Plan, f.Name) {
			unserved = append(unserved, "--"+f.Name)
		}
		v := f.Value.String()
		str := func() *string { t := strings.TrimSpace(v); return &t }
		boolean := func() bool { b, _ := strconv.ParseBool(v); return b }
		switch f.Name {
		case "welcome-message":
			s.WelcomeMessage = str()
		case "quick-button":
			s.QuickButtons = []string{}
			for _, b := range buttons {
				if b = strings.TrimSpace(b); b != "" || len(buttons) > 1 {
					s.QuickButtons = append(s.QuickButtons, b)
				}
			}
		case "contact-prompt":
			s.ContactPrompt = str()
		case "require-phone":
			s.RequirePhone = boolean()
		case "gate-quote":
			s.GateQuote = boolean()
		case "primary-hex":
			s.PrimaryHex = str()
		case "accent-hex":
			s.AccentHex = str()
		case "header-title":
			s.HeaderTitle = str()
		case "border-radius":
			n, _ := strconv.Atoi(v)
			s.BorderRadiusPx = &n
		case "hide-powered-by":
			b := boolean()
			s.HidePoweredBy = &b
		case "language":
			s.Language = strings.TrimSpace(v)
		case "privacy-url":
			s.PrivacyURL = orNil(str())
		case "marketing-consent-text":
			s.MarketingConsentText = orNil(str())
		}
		if p := str(); (f.Name == "welcome-message" || f.Name == "contact-prompt" || f.Name == "header-title") && *p == "" {
			problems = append(problems, "--"+f.Name+" may not be empty")
		}
	})
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	if err := s.Check(); err != nil {
		return err
	}
	if err := env.Store.SetWidgetSettings(ctx, id, s); err != nil {
		return err
	}
	if len(unserved) > 0 {
		fmt.Fprintf(env.Stderr, "saved, but plan %s does not show %s; the widget gets them on a plan that does\n",
			c.Plan, strings.Join(unserved, ", "))
	}
	cfg := s.Config(c.Plan)
	warnContrast(env.Stderr, cfg.Theme)
	if *asJSON {
		return printJSON(env.Stdout, configJSON(cfg))
	}
	fmt.Fprintf(env.Stdout, "widget settings saved for %s (plan %s); the widget now receives:\n", c.Name, c.Plan)
	return printJSON(env.Stdout, configJSON(cfg))
}

// orNil unsets a setting given as an empty value.
func orNil(s *string) *string {
	if *s == "" {
		return nil
	}
	return s
}

// warnContrast says on stderr which of the theme's colours the widget shows in another shade, so
// that text, icons, focus rings and borders reach their contrast, and why.
func warnContrast(w io.Writer, th *widget.Theme) {
	if th == nil {
		return
	}
	accent := ""
	if th.AccentHex != nil {
		accent = *th.AccentHex
	}
	_, adjusted, err := widget.NewPalette(th.PrimaryHex, accent)
	if err != nil {
		return // Check refuses a colour that is not #RRGGBB before this runs
	}
	for _, a := range adjusted {
		fmt.Fprintf(w, "widget set: %s\n", a)
	}
}

// configJSON is the config as GET /api/embed/config shows it.
func configJSON(c widget.Config) map[string]any {
	m := map[string]any{
		"welcome_message": c.WelcomeMessage, "quick_buttons": c.QuickButtons,
		"contact_prompt_text": c.ContactPrompt, "require_phone": c.RequirePhone,
		"gate_quote": c.GateQuote, "language": c.Language, "chat_theme": nil,
		"privacy_url": c.PrivacyURL, "marketing_consent_text": c.MarketingConsentText,
	}
	if t := c.Theme; t != nil {
		theme := map[string]any{"primary_hex": t.PrimaryHex}
		if t.AccentHex != nil {
			theme["accent_hex"] = *t.AccentHex
		}
		if t.HeaderTitle != nil {
			theme["header_title"] = *t.HeaderTitle
		}
		if t.BorderRadiusPx != nil {
			theme["border_radius_px"] = *t.BorderRadiusPx
		}
		if t.HidePoweredBy != nil {
			theme["hide_powered_by"] = *t.HidePoweredBy
		}
		m["chat_theme"] = theme
	}
	return m
}

func assistantSet(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "assistant set")
	company := companyFlag(fs)
	file := fs.String("profile", "", "a YAML or JSON file: company_name, description, services, faq, opening_hours")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	if err := required(fs, "profile"); err != nil {
		return err
	}
	data, err := os.ReadFile(*file)
	if err != nil {
		return fmt.Errorf("--profile: %w", err)
	}
	p, err := assistant.ParseProfile(data)
	if err != nil {
		return fmt.Errorf("--profile %s: %w", *file, err)
	}
	if _, err := env.Store.Company(ctx, id); err != nil {
		return notFound(err, "company", id, "company")
	}
	if err := SetProfile(ctx, env.Store, id, p); err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, p)
	}
	fmt.Fprintf(env.Stdout, "assistant profile saved: %s, %s\n", plural(len(p.Services), "service", "services"),
		plural(len(p.FAQ), "FAQ answer", "FAQ answers"))
	return nil
}
