package lead

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

// ConsentInput is what a person saw and chose when leaving their details, as a client sends
// it: whether they ticked the marketing box, the consent text shown (nil: none), the privacy
// notice linked (nil: none).
type ConsentInput struct {
	Marketing  bool
	Text       *string
	PrivacyURL *string
}

// Consent is a consent as a lead keeps it: what was sent, when the service received it and the
// path it came through. It is stored as JSON with these names and returned as the Lead's
// consent.
type Consent struct {
	Marketing  bool      `json:"marketing"`
	Text       *string   `json:"text"`
	PrivacyURL *string   `json:"privacy_url"`
	GivenAt    time.Time `json:"given_at"`
	Source     Source    `json:"source"`
}

// Check validates the consent and records it as received at now through source. A ticked box
// needs the text that was ticked; the notice must be an https address; the text keeps line
// breaks but no other control character. Every refusal is invalid_consent (a refused character
// is invalid_characters, as in every other text), naming the part.
func (c ConsentInput) Check(source Source, now time.Time) (*Consent, error) {
	out := &Consent{Marketing: c.Marketing, GivenAt: now.UTC(), Source: source}
	if c.Text != nil {
		text := Trim(*c.Text)
		if err := refuse("consent.text", text, RefusedInText); err != nil {
			return nil, err
		}
		if utf8.RuneCountInString(text) > limits.ConsentTextLen {
			return nil, errs.Field(errs.CodeInvalidConsent, "consent.text")
		}
		if text != "" {
			out.Text = &text
		}
	}
	if c.Marketing && out.Text == nil {
		return nil, errs.Field(errs.CodeInvalidConsent, "consent.text")
	}
	if c.PrivacyURL != nil {
		u := strings.TrimSpace(*c.PrivacyURL)
		if !HTTPSURL(u, limits.PrivacyURLLen) {
			return nil, errs.Field(errs.CodeInvalidConsent, "consent.privacy_url")
		}
		out.PrivacyURL = &u
	}
	return out, nil
}

// HTTPSURL reports whether u is an absolute https address with a host and no user part, of at
// most max characters, without spaces or control characters.
func HTTPSURL(u string, max int) bool {
	if u == "" || len(u) > max || strings.ContainsFunc(u, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return false
	}
	p, err := url.Parse(u)
	return err == nil && p.Scheme == "https" && p.Host != "" && p.User == nil
}
