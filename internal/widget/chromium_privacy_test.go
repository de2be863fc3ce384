package widget_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/widget"
)

// The contact form links the company's privacy notice and shows its marketing consent as an
// unticked box that the keyboard reaches and ticks; the lead stores what the visitor saw and
// chose. On a desktop the visitor ticks the box, on a phone they leave it, under the strict CSP
// with no violation and no accessibility finding.
func TestWidgetPrivacyNoticeAndConsent(t *testing.T) {
	notice, agree := "https://ceg.example/adatvedelem", "Kérek e-mailben ajánlatokat és híreket."
	for i, vp := range viewports {
		tt := struct {
			name     string
			viewport chromedp.Action[chromedp.Void]
			tick     bool
		}{vp.name, vp.set, i == 0}
		t.Run(tt.name, func(t *testing.T) {
			b := newBrowser(t)
			srv := startServer(t)
			s := newSite(t, srv, widget.Settings{Language: "hu", PrivacyURL: &notice, MarketingConsentText: &agree})
			b.do("setting the viewport", tt.viewport)
			b.open(hostPage(t, srv.base, s.key))
			b.click("bubble", 0)
			b.waitFor("the panel", `shown($('panel'))`)
			b.keys("Szeretnék árajánlatot kérni")
			b.keys(kb.Enter)
			waitForReply(b, 3)
			b.waitFor("the contact form", `shown($('contact'))`)

			link := eval[map[string]string](b, `var a = $('privacy-link');
				return {href: a.href, target: a.target, rel: a.rel, text: a.textContent};`)
			if link["href"] != notice || link["target"] != "_blank" || link["rel"] != "noopener noreferrer" || link["text"] != "Adatkezelési tájékoztató" {
				t.Errorf("privacy link = %v", link)
			}
			box := eval[map[string]any](b, `var c = $('contact-consent');
				return {checked: c.checked, type: c.type, label: c.closest('label').textContent, shown: shown(c)};`)
			if box["checked"] != false || box["type"] != "checkbox" || box["label"] != agree || box["shown"] != true {
				t.Errorf("consent box = %v, want an unticked, labelled, shown checkbox", box)
			}

			b.click("contact-name", 0)
			b.keys("Kovács Anna")
			b.keys(kb.Tab)
			b.keys("anna@example.hu")
			b.keys(kb.Tab)
			if f := b.focused(); f != "contact-consent" {
				t.Fatalf("Tab from the email goes to %s, want the consent box", f)
			}
			if tt.tick {
				b.keys(" ")
				b.waitFor("the box ticked", `$('contact-consent').checked`)
			}
			b.keys(kb.Tab)
			if f := b.focused(); f != "privacy-link" {
				t.Errorf("Tab from the box goes to %s, want the privacy link", f)
			}
			if v := b.axe(axeSource(b)); len(v) > 0 {
				t.Errorf("axe-core on the form with the privacy notice and consent:\n%v", v)
			}
			b.screenshot("privacy-" + tt.name)
			b.fillSlowly() // the server takes a form filled faster for a bot's
			b.click("contact-submit", 0)
			waitForReply(b, 5)
			if v := b.cspViolations(); len(v) > 0 {
				t.Errorf("CSP violations: %v", v)
			}

			leads, err := lead.Collect(lead.All(context.Background(), srv.svc.Store(), s.company, lead.Filter{}))
			if err != nil || len(leads) != 1 {
				t.Fatalf("leads = %+v, %v", leads, err)
			}
			c := leads[0].Consent
			if c == nil || c.Marketing != tt.tick || c.Text == nil || *c.Text != agree || c.PrivacyURL == nil ||
				*c.PrivacyURL != notice || c.Source != lead.SourceChat {
				t.Errorf("stored consent = %+v, want marketing %v with the text and notice shown, from chat", c, tt.tick)
			}
		})
	}
}
