package widget_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/widget"
)

// errorsShown returns the contact form's error lines that are not empty, by field.
func errorsShown(b *browser) map[string]string {
	return eval[map[string]string](b, `var out = {};
		['name', 'email', 'phone'].forEach(function (f) { var e = $('contact-' + f + '-error'); if (e && e.textContent) out[f] = e.textContent; });
		return out;`)
}

// askForForm opens a new site's chat and sends a first message that makes the server ask for
// contact details.
func askForForm(t *testing.T, ws widget.Settings, message string) (*browser, *server, site) {
	t.Helper()
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, ws)
	b.open(hostPage(t, srv.base, s.key))
	b.click("bubble", 0)
	b.waitFor("the panel", `shown($('panel'))`)
	b.keys(message)
	b.keys(kb.Enter)
	waitForReply(b, 3)
	b.waitFor("the contact form", `shown($('contact'))`)
	return b, srv, s
}

func TestWidgetContactFormChecksBeforeSending(t *testing.T) {
	b, srv, s := askForForm(t, widget.Settings{Language: "hu"}, "Szeretnék árajánlatot kérni")
	step := steps(t, b)

	step("an empty form at once shows field errors and sends nothing", func(t *testing.T, b *browser) {
		b.click("contact-submit", 0) // well within 2 s of the form appearing
		b.waitFor("the error lines", `$('contact-name-error').textContent !== ''`)
		want := map[string]string{"name": "Kérjük, adja meg a nevét.", "email": "Kérjük, adjon meg egy érvényes e-mail-címet."}
		if diff := cmp.Diff(want, errorsShown(b)); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		}
		if !b.shown("contact") || b.focused() != "contact-name" {
			t.Errorf("form shown %v, focus on %s; want the form with the focus on the name", b.shown("contact"), b.focused())
		}
		invalid := eval[[]string](b, `return [$('contact-name').getAttribute('aria-invalid'), $('contact-email').getAttribute('aria-invalid')];`)
		if diff := cmp.Diff([]string{"true", "true"}, invalid); diff != "" {
			t.Errorf("aria-invalid (-want +got):\n%s", diff)
		}
		// The submit's handler has run (its error lines are shown), and a sending handler shows
		// the message or note and the typing line before it returns: no wait for the answer.
		if n := len(b.messages()); n != 3 || b.shown("typing") {
			t.Errorf("%d messages after an empty submit (typing shown %v), want the 3 before it and nothing sent", n, b.shown("typing"))
		}
	})

	step("an invalid email keeps only its own error", func(t *testing.T, b *browser) {
		b.click("contact-name", 0)
		b.keys("Kovács Anna")
		b.click("contact-email", 0)
		b.keys("anna@")
		b.click("contact-submit", 0)
		b.waitFor("the name's error to go", `$('contact-name-error').textContent === ''`)
		if diff := cmp.Diff(map[string]string{"email": "Kérjük, adjon meg egy érvényes e-mail-címet."}, errorsShown(b)); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		}
	})

	step("the filled form sends the details under a note, not as the visitor's words", func(t *testing.T, b *browser) {
		b.keys("example.hu")
		b.fillSlowly() // the server takes a form filled faster for a bot's
		b.click("contact-submit", 0)
		waitForReply(b, 5)
		msgs := b.messages()
		if diff := cmp.Diff([2]string{"note", huSentNote}, msgs[3]); diff != "" {
			t.Errorf("the line for the form (-want +got):\n%s", diff)
		}
		for _, m := range msgs {
			if m[0] == "visitor" && m[1] != "Szeretnék árajánlatot kérni" {
				t.Errorf("a visitor message the visitor did not write: %q", m[1])
			}
		}
		if b.shown("contact") {
			t.Error("the form is still shown after contact is complete")
		}
		leads, err := lead.Collect(lead.All(context.Background(), srv.svc.Store(), s.company, lead.Filter{}))
		if err != nil || len(leads) != 1 || leads[0].FirstName != "Anna" || leads[0].LastName != "Kovács" || leads[0].Email != "anna@example.hu" {
			t.Errorf("leads = %+v, %v", leads, err)
		}
	})
}

func TestWidgetContactFormClosesWhenAMessageCompletesContact(t *testing.T) {
	b, _, _ := askForForm(t, widget.Settings{Language: "hu", RequirePhone: true}, "Mennyibe kerül a napelem?")
	b.click("input", 0)
	b.keys("Kovács Anna vagyok, anna@example.hu")
	b.keys(kb.Enter)
	waitForReply(b, 5)
	if !b.shown("contact") {
		t.Fatal("the form closed while the phone number is still missing")
	}
	b.click("input", 0)
	b.keys("A számom 06 30 123 4567")
	b.keys(kb.Enter)
	waitForReply(b, 7)
	b.waitFor("the form to close", `!shown($('contact'))`)
	if got := b.messages()[6][1]; !strings.Contains(got, "Minden adatot megkaptam") {
		t.Errorf("reply = %q", got)
	}
}

func TestWidgetLanguageAuto(t *testing.T) {
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: widget.LanguageAuto})
	b.open(hostPage(t, srv.base, s.key))
	b.click("bubble", 0)
	b.waitFor("the panel", `shown($('panel'))`)
	placeholder := func() string { return eval[string](b, `return $('input').getAttribute('placeholder');`) }

	for i, c := range []struct{ message, reply, placeholder, submit string }{
		{"Mikor vagytok nyitva?", "Nyitvatartásunk: Hétfőtől péntekig 8:00–16:00.", "Írja be az üzenetét…", "Elküldöm"},
		{"What are your opening hours?", "Our opening hours: „Hétfőtől péntekig 8:00–16:00” (in Hungarian).", "Type your message…", "Send"},
	} {
		b.click("input", 0)
		b.keys(c.message)
		b.keys(kb.Enter)
		waitForReply(b, 3+2*i)
		if got := b.messages()[2+2*i][1]; !strings.HasPrefix(got, c.reply) {
			t.Errorf("reply to %q = %q, want it to begin %q", c.message, got, c.reply)
		}
		b.waitFor(fmt.Sprintf("the widget's texts in the reply's language (%s)", c.placeholder), fmt.Sprintf(`$('input').getAttribute('placeholder') === %q`, c.placeholder))
		if got := b.text("contact-submit"); got != c.submit {
			t.Errorf("submit button = %q, want %q (placeholder %q)", got, c.submit, placeholder())
		}
	}
}
