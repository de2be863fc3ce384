package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/widget"
)

// widgetForm is the settings form as typed: what it shows, and what it shows again after an error.
type widgetForm struct {
	WelcomeMessage, QuickButtons, ContactPrompt string
	RequirePhone, GateQuote                     bool
	PrimaryHex, AccentHex, HeaderTitle          string
	// AccentUnset is true while no accent colour is stored: the form shows the primary colour,
	// which the widget uses then, and saving it unchanged keeps it unset.
	AccentUnset   bool
	BorderRadius  string
	HidePoweredBy bool
	Language      string
	// PrivacyURL and ConsentText are the privacy notice linked beside the contact form and the
	// marketing consent shown as an unticked box; empty unsets them.
	PrivacyURL, ConsentText string
}

type widgetData struct {
	Form widgetForm
	// Primary and WhiteLabel tell which theme fields the plan uses.
	Primary, WhiteLabel bool
	// PreviewKey is the public key the preview runs on; "" when no key works on this host.
	PreviewKey string
	Host       string
	Errors     []string
}

// fieldNames are the settings' names on the form, by their flag names, with their limits.
var fieldNames = map[string]string{
	"welcome-message": fmt.Sprintf("Üdvözlő üzenet (legfeljebb %d karakter)", limits.WelcomeLen),
	"quick-button": fmt.Sprintf("Gyorsgombok (legfeljebb %d, egyenként 1–%d karakter)",
		limits.QuickButtons, limits.QuickButtonLen),
	"contact-prompt": fmt.Sprintf("Szöveg az elérhetőségi űrlap felett (legfeljebb %d karakter)", limits.ContactPromptLen),
	"primary-hex":    "Főszín (#RRGGBB)",
	"accent-hex":     "Kiemelőszín (#RRGGBB)",
	"header-title":   fmt.Sprintf("Fejléc címe (legfeljebb %d karakter)", limits.HeaderTitleLen),
	"border-radius":  fmt.Sprintf("Lekerekítés (%d–%d képpont)", limits.BorderRadiusMin, limits.BorderRadiusMax),
	"language":       "Nyelv",
	"privacy-url":    fmt.Sprintf("Adatkezelési tájékoztató címe (https://, legfeljebb %d karakter)", limits.PrivacyURLLen),
	"marketing-consent-text": fmt.Sprintf("Marketing-hozzájárulás szövege (legfeljebb %d karakter)",
		limits.ConsentTextLen),
}

func formOf(s widget.Settings, c widget.Config) widgetForm {
	f := widgetForm{WelcomeMessage: c.WelcomeMessage, QuickButtons: strings.Join(c.QuickButtons, "\n"),
		RequirePhone: s.RequirePhone, GateQuote: s.GateQuote, PrimaryHex: widget.DefaultPrimaryHex,
		AccentHex: widget.DefaultPrimaryHex, BorderRadius: "16", Language: c.Language}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	f.ContactPrompt, f.HeaderTitle = str(s.ContactPrompt), str(s.HeaderTitle)
	f.PrivacyURL, f.ConsentText = str(s.PrivacyURL), str(s.MarketingConsentText)
	if s.PrimaryHex != nil {
		f.PrimaryHex = strings.ToUpper(*s.PrimaryHex)
		f.AccentHex = f.PrimaryHex
	}
	f.AccentUnset = s.AccentHex == nil
	if s.AccentHex != nil {
		f.AccentHex = strings.ToUpper(*s.AccentHex)
	}
	if s.BorderRadiusPx != nil {
		f.BorderRadius = strconv.Itoa(*s.BorderRadiusPx)
	}
	f.HidePoweredBy = s.HidePoweredBy != nil && *s.HidePoweredBy
	return f
}

func (d *dashboard) widget(w http.ResponseWriter, r *http.Request, v viewer) {
	s, err := d.store.WidgetSettings(r.Context(), v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	d.renderWidget(w, r, v, http.StatusOK, widgetData{Form: formOf(s, s.Config(v.Company.Plan))})
}

func (d *dashboard) renderWidget(w http.ResponseWriter, r *http.Request, v viewer, status int, data widgetData) {
	data.Primary, data.WhiteLabel = v.Company.Plan.Theme()
	data.Host = requestHost(r)
	key, err := d.previewKey(r, v)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	data.PreviewKey = key
	d.render(w, r, status, "widget", &v, data)
}

// saveWidget stores the form. Theme fields the plan does not use are kept as stored: the form
// does not show them, and an upgrade should find them as they were.
func (d *dashboard) saveWidget(w http.ResponseWriter, r *http.Request, v viewer) {
	ctx := r.Context()
	s, err := d.store.WidgetSettings(ctx, v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	f := widgetForm{
		WelcomeMessage: strings.TrimSpace(r.PostFormValue("welcome_message")),
		QuickButtons:   r.PostFormValue("quick_buttons"),
		ContactPrompt:  strings.TrimSpace(r.PostFormValue("contact_prompt")),
		RequirePhone:   r.PostFormValue("require_phone") == "on",
		GateQuote:      r.PostFormValue("gate_quote") == "on",
		PrimaryHex:     strings.ToUpper(strings.TrimSpace(r.PostFormValue("primary_hex"))),
		AccentHex:      strings.ToUpper(strings.TrimSpace(r.PostFormValue("accent_hex"))),
		HeaderTitle:    strings.TrimSpace(r.PostFormValue("header_title")),
		BorderRadius:   strings.TrimSpace(r.PostFormValue("border_radius")),
		HidePoweredBy:  r.PostFormValue("hide_powered_by") == "on",
		Language:       r.PostFormValue("language"),
		PrivacyURL:     strings.TrimSpace(r.PostFormValue("privacy_url")),
		ConsentText:    strings.TrimSpace(r.PostFormValue("marketing_consent_text")),
	}
	var problems []string
	optional := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	s.WelcomeMessage = optional(f.WelcomeMessage)
	s.QuickButtons = []string{}
	for _, b := range strings.Split(f.QuickButtons, "\n") {
		if b = strings.TrimSpace(b); b != "" {
			s.QuickButtons = append(s.QuickButtons, b)
		}
	}
	s.ContactPrompt = optional(f.ContactPrompt)
	s.PrivacyURL, s.MarketingConsentText = optional(f.PrivacyURL), optional(f.ConsentText)
	s.RequirePhone, s.GateQuote, s.Language = f.RequirePhone, f.GateQuote, f.Language
	primary, whiteLabel := v.Company.Plan.Theme()
	if primary {
		s.PrimaryHex = optional(f.PrimaryHex)
	}
	if whiteLabel {
		if s.AccentHex != nil || f.AccentHex != strings.ToUpper(r.PostFormValue("accent_shown")) {
			s.AccentHex = optional(f.AccentHex)
		}
		s.HeaderTitle = optional(f.HeaderTitle)
		s.BorderRadiusPx = nil
		if f.BorderRadius != "" {
			n, err := strconv.Atoi(f.BorderRadius)
			if err != nil {
				problems = append(problems, fieldNames["border-radius"])
			}
			s.BorderRadiusPx = &n
		}
		s.HidePoweredBy = &f.HidePoweredBy
	}
	var invalid *widget.InvalidError
	if err := s.Check(); errors.As(err, &invalid) {
		for _, name := range invalid.Fields {
			if n := fieldNames[name]; n != "" && !strings.Contains(strings.Join(problems, "\n"), n) {
				problems = append(problems, n)
			}
		}
	} else if err != nil {
		d.serverError(w, r, err)
		return
	}
	if len(problems) > 0 {
		d.renderWidget(w, r, v, http.StatusUnprocessableEntity, widgetData{Form: f, Errors: problems})
		return
	}
	if err := d.store.SetWidgetSettings(ctx, v.CompanyID, s); err != nil {
		d.serverError(w, r, err)
		return
	}
	d.flash(ctx, "A csevegőablak beállításai elmentve; az előnézet és minden beágyazott widget már az újakat mutatja.")
	http.Redirect(w, r, "/app/widget", http.StatusSeeOther)
}

// previewKey finds the company's newest public key that the widget may use on this very host
// (no domain list, the check off, or the host on the list): the preview runs the real embed.js
// with it, so it sees the real config.
func (d *dashboard) previewKey(r *http.Request, v viewer) (string, error) {
	keys, err := d.store.ListKeys(r.Context(), v.CompanyID)
	if err != nil {
		return "", err
	}
	host := requestHost(r)
	for i := len(keys) - 1; i >= 0; i-- {
		k := keys[i]
		if k.Kind != auth.Public || k.RevokedAt != nil || k.PublicKey == "" {
			continue
		}
		if len(k.AllowedDomains) == 0 || !k.HostnameCheck || auth.HostAllowed(host, k.AllowedDomains) {
			return k.PublicKey, nil
		}
	}
	return "", nil
}

// preview is the page inside the widget page's frame: the widget as a visitor gets it.
func (d *dashboard) preview(w http.ResponseWriter, r *http.Request, v viewer) {
	key, err := d.previewKey(r, v)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	w.Header().Set("Content-Security-Policy", strings.Replace(csp, "frame-ancestors 'none'", "frame-ancestors 'self'", 1))
	w.Header().Set("X-Frame-Options", "SAMEORIGIN")
	d.render(w, r, http.StatusOK, "preview", nil, struct{ Key string }{key})
}

// createPreviewKey makes a public key allowed on the dashboard's own host only, for a company
// whose keys are all limited to its own sites.
func (d *dashboard) createPreviewKey(w http.ResponseWriter, r *http.Request, v viewer) {
	_, nk, err := auth.Create(auth.Public, []string{requestHost(r)}, true)
	if msg := domainError(err); msg != "" {
		d.flash(r.Context(), "Ezen a címen ("+requestHost(r)+") nem hozható létre előnézeti kulcs. "+msg)
		http.Redirect(w, r, "/app/widget", http.StatusSeeOther)
		return
	}
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	if _, err := d.store.CreateKey(r.Context(), v.CompanyID, nk); err != nil {
		d.serverError(w, r, err)
		return
	}
	d.flash(r.Context(), "Előnézeti kulcs létrehozva ("+requestHost(r)+"); a Beágyazás oldalon visszavonható.")
	http.Redirect(w, r, "/app/widget", http.StatusSeeOther)
}
