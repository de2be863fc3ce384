package widget_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/widget"
)

// These tests drive embed.js in a real Chromium against the real server and database. The host
// page comes from a second origin, so CORS is real, and carries a strict CSP.

// Texts of the widget and of the default Hungarian settings that the tests expect to see.
const (
	huWelcome    = "Üdvözöljük! Miben segíthetünk?"
	huPrompt     = "Hagyja meg az elérhetőségét, és hamarosan felvesszük Önnel a kapcsolatot."
	huSentNote   = "Elérhetőségét elküldtük."
	huError      = "Nem sikerült elérni a szolgáltatást. Kérjük, próbálja újra."
	huOpenLabel  = "Csevegés megnyitása"
	huCloseLabel = "Csevegés bezárása"
)

var huQuickButtons = []string{"Árajánlatot kérek", "Visszahívást kérek", "Nyitvatartás"}

// steps runs dependent subtests in order and stops at the first that fails, since the ones
// after it would only report its consequences.
func steps(t *testing.T, b *browser) func(name string, f func(t *testing.T, b *browser)) {
	return func(name string, f func(t *testing.T, b *browser)) {
		t.Helper()
		if !t.Run(name, func(t *testing.T) { f(t, b.on(t)) }) {
			t.FailNow()
		}
	}
}

// waitForReply waits until the log holds n messages, the last one the assistant's, and the
// typing indicator is gone.
func waitForReply(b *browser, n int) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("reply #%d", n), fmt.Sprintf(`$$('msg').length === %d && $$('msg')[%d].getAttribute('data-role') === 'assistant'
		&& $$('msg')[%d].textContent.trim() !== '' && !shown($('typing'))`, n, n-1, n-1))
}

func TestWidgetConversation(t *testing.T) {
	b := newBrowser(t) // first: without Chromium there is nothing to set up
	srv := startServer(t)
	title := "Teszt Kft. ügyfélszolgálat"
	s := newSite(t, srv, widget.Settings{Language: "hu", RequirePhone: true, HeaderTitle: &title, PrimaryHex: ptr("#7A4E2D")})
	page := hostPage(t, srv.base, s.key)
	b.do("setting a desktop viewport", chromedp.EmulateViewport(1280, 800))
	step := steps(t, b)

	step("bubble appears", func(t *testing.T, b *browser) {
		b.open(page)
		got := eval[map[string]any](b, `var e = $('bubble'), r = e.getBoundingClientRect();
			return {tag: e.tagName, label: e.getAttribute('aria-label'), expanded: e.getAttribute('aria-expanded'),
				right: Math.round(innerWidth - r.right), bottom: Math.round(innerHeight - r.bottom), size: Math.round(r.width),
				panel: shown($('panel'))};`)
		want := map[string]any{"tag": "BUTTON", "label": huOpenLabel, "expanded": "false", "right": 20.0, "bottom": 20.0, "size": 60.0, "panel": false}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("bubble (-want +got):\n%s", diff)
		}
	})

	step("open shows title, welcome text and quick buttons", func(t *testing.T, b *browser) {
		b.click("bubble", 0)
		b.waitFor("the panel", `shown($('panel'))`)
		if got := b.text("title"); got != title {
			t.Errorf("title = %q, want %q", got, title)
		}
		if diff := cmp.Diff([][2]string{{"assistant", huWelcome}}, b.messages()); diff != "" {
			t.Errorf("messages (-want +got):\n%s", diff)
		}
		quick := eval[[]string](b, `return $$('quick-button').filter(shown).map(function (e) { return e.textContent; });`)
		if diff := cmp.Diff(huQuickButtons, quick); diff != "" {
			t.Errorf("quick buttons (-want +got):\n%s", diff)
		}
		a11y := eval[[]string](b, `return [$('panel').getAttribute('role'), $('bubble').getAttribute('aria-expanded'),
			$('log').getAttribute('role'), $('log').getAttribute('aria-live')];`)
		if diff := cmp.Diff([]string{"dialog", "true", "log", "polite"}, a11y); diff != "" {
			t.Errorf("roles (-want +got):\n%s", diff)
		}
	})

	step("focus moves to the input on open", func(t *testing.T, b *browser) {
		if got := b.focused(); got != "input" {
			t.Errorf("focused: %s, want the input", got)
		}
	})

	step("a quick button gets a reply", func(t *testing.T, b *browser) {
		b.watchTyping()
		b.click("quick-button", 2)
		waitForReply(b, 3)
		msgs := b.messages()
		if diff := cmp.Diff([2]string{"visitor", huQuickButtons[2]}, msgs[1]); diff != "" {
			t.Errorf("visitor message (-want +got):\n%s", diff)
		}
		if n := b.typingShown(); n != 1 {
			t.Errorf("the typing indicator was shown %d times while waiting, want 1", n)
		}
		if b.shown("quick") {
			t.Error("the quick buttons are still shown after the visitor wrote")
		}
	})

	step("a typed message gets a reply", func(t *testing.T, b *browser) {
		b.click("input", 0)
		b.keys("Szeretnék árajánlatot kérni")
		b.keys(kb.Enter)
		waitForReply(b, 5)
		if got := b.messages()[3]; got != [2]string{"visitor", "Szeretnék árajánlatot kérni"} {
			t.Errorf("visitor message = %q", got)
		}
		if n := b.typingShown(); n != 2 {
			t.Errorf("the typing indicator was shown %d times for two messages", n)
		}
		if v := eval[string](b, `return $('input').value;`); v != "" {
			t.Errorf("the input still holds %q after sending", v)
		}
	})

	step("the contact form appears when the server asks for it", func(t *testing.T, b *browser) {
		b.waitFor("the contact form", `shown($('contact'))`)
		if got := b.text("contact-prompt"); got != huPrompt {
			t.Errorf("prompt = %q, want %q", got, huPrompt)
		}
		for _, part := range []string{"contact-name", "contact-email", "contact-phone", "contact-submit", "contact-dismiss"} {
			if !b.shown(part) {
				t.Errorf("%s is not shown", part)
			}
		}
		// The honeypot is for bots: off screen, out of the tab order, hidden from screen readers.
		hp := eval[[]any](b, `var e = $('contact-hp'); return [e.getBoundingClientRect().right < 0, e.tabIndex, e.parentNode.getAttribute('aria-hidden')];`)
		if diff := cmp.Diff([]any{true, -1.0, "true"}, hp); diff != "" {
			t.Errorf("honeypot [off screen, tabindex, aria-hidden] (-want +got):\n%s", diff)
		}
	})

	step("the contact form leaves a chat lead with those details", func(t *testing.T, b *browser) {
		for _, f := range [][2]string{{"contact-name", "Kovács Anna"}, {"contact-email", "anna.kovacs@example.hu"}, {"contact-phone", "+36 30 123 4567"}} {
			b.click(f[0], 0)
			b.keys(f[1])
		}
		b.screenshot("desktop")
		// The form drops submits within 2 s of appearing, as a bot's would be.
		b.fillSlowly()
		b.click("contact-submit", 0)
		waitForReply(b, 7)
		// The widget shows a note, not a message in the visitor's name that they did not write.
		if got := b.messages()[5]; got != [2]string{"note", huSentNote} {
			t.Errorf("message after the form = %q, want the details-sent note", got)
		}
		if b.shown("contact") {
			t.Error("the contact form is still shown after it was sent")
		}

		type details struct{ FirstName, LastName, Email, Phone, Source string }
		want := []details{{FirstName: "Anna", LastName: "Kovács", Email: "anna.kovacs@example.hu", Phone: "+36 30 123 4567", Source: string(lead.SourceChat)}}
		var got []details
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			leads, err := lead.Collect(lead.All(context.Background(), srv.svc.Store(), s.company, lead.Filter{}))
			if err != nil {
				t.Fatal(err)
			}
			got = got[:0]
			for _, l := range leads {
				got = append(got, details{l.FirstName, l.LastName, l.Email, l.Phone, string(l.Source)})
			}
			if len(got) > 0 || time.Now().After(deadline) {
				break
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("leads (-want +got):\n%s", diff)
		}
	})

	step("reload keeps the conversation", func(t *testing.T, b *browser) {
		before := b.messages()
		b.do("reloading", chromedp.Reload())
		b.waitFor("the bubble after the reload", `shown($('bubble'))`)
		b.click("bubble", 0)
		b.waitFor("the panel", `shown($('panel'))`)
		if diff := cmp.Diff(before, b.messages()); diff != "" {
			t.Errorf("messages after the reload (-before +after):\n%s", diff)
		}
		if b.shown("quick") {
			t.Error("the quick buttons are back after the reload")
		}
		b.keys("Köszönöm, várom a hívásukat!")
		b.keys(kb.Enter)
		waitForReply(b, len(before)+2)

		var sessions, visitorMessages int
		err := srv.svc.Store().DB().QueryRow(`SELECT count(*), coalesce(max(visitor_messages), 0) FROM chat_sessions WHERE company_id = $1`,
			s.company).Scan(&sessions, &visitorMessages)
		if err != nil {
			t.Fatal(err)
		}
		if sessions != 1 || visitorMessages != 4 {
			t.Errorf("%d chat sessions with %d visitor messages, want 1 session with all 4", sessions, visitorMessages)
		}
	})

	step("the funnel counted the bubble shown and the panel opened, a number per day", func(t *testing.T, b *browser) {
		var shown, opened int
		for deadline := time.Now().Add(10 * time.Second); shown == 0 || opened == 0; time.Sleep(20 * time.Millisecond) {
			if err := srv.svc.Store().DB().QueryRow(`SELECT coalesce(sum(shown), 0), coalesce(sum(opened), 0) FROM widget_events WHERE company_id = $1`,
				s.company).Scan(&shown, &opened); err != nil {
				t.Fatal(err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("the widget's beacons counted %d shown, %d opened; want both", shown, opened)
			}
		}
		if shown > 2 || opened > shown {
			t.Errorf("%d shown, %d opened over two page loads: once per page each at most", shown, opened)
		}
	})

	step("the strict-CSP page logs no CSP violation", func(t *testing.T, b *browser) {
		if v := b.cspViolations(); len(v) > 0 {
			t.Errorf("CSP violations:\n%s", strings.Join(v, "\n"))
		}
		if ex := b.consoleLines("exception:"); len(ex) > 0 {
			t.Errorf("uncaught exceptions:\n%s", strings.Join(ex, "\n"))
		}
		// An inline style that the policy blocks must be seen, or the check above proves nothing.
		eval[bool](b, `var s = document.createElement('style'); s.textContent = 'body{color:red}'; document.head.appendChild(s); return true;`)
		for deadline := time.Now().Add(5 * time.Second); len(b.cspViolations()) == 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("an inline style the CSP blocks was not reported; the violation check is blind")
			}
		}
	})
}

func TestWidgetShowsMarkupAsText(t *testing.T) {
	const (
		welcome = `<img src=x onerror="window.__pwned=1">`
		button  = `<img src=x onerror="window.__pwned=2">`
		prompt  = `<img src=x onerror="window.__pwned=3"> <b>Adja meg!</b>`
		title   = `<b onclick="window.__pwned=4">Teszt</b>`
		visitor = `<img src=x onerror="window.__pwned=5">`
		hours   = `<img src=x onerror="window.__pwned=6"> hétfőtől péntekig 8–17`
	)
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: "hu", WelcomeMessage: ptr(welcome), QuickButtons: []string{button, "Nyitvatartás"},
		ContactPrompt: ptr(prompt), HeaderTitle: ptr(title)})
	// The built-in assistant quotes the profile, so its replies carry the markup too.
	profile := fmt.Sprintf(`{"company_name": "Teszt Kft.", "opening_hours": %q}`, hours)
	if err := srv.svc.Store().SetAssistantProfile(context.Background(), s.company, []byte(profile)); err != nil {
		t.Fatal(err)
	}
	// A page without a CSP, like most: here nothing but the widget stops the markup from running.
	b.open(servePage(t, srv.base, srv.base, s.key, false))
	b.click("bubble", 0)
	b.waitFor("the panel", `shown($('panel'))`)

	b.click("quick-button", 1) // Nyitvatartás: the reply quotes the opening hours
	waitForReply(b, 3)
	b.click("input", 0)
	b.keys(visitor)
	b.keys(kb.Enter)
	waitForReply(b, 5)
	b.waitFor("the contact form", `shown($('contact'))`)

	msgs := b.messages()
	if msgs[0] != [2]string{"assistant", welcome} {
		t.Errorf("welcome = %q, want the markup as text", msgs[0])
	}
	if !strings.Contains(msgs[2][1], hours) {
		t.Errorf("the assistant's reply about the opening hours = %q, want it to quote %q as text", msgs[2][1], hours)
	}
	if msgs[3] != [2]string{"visitor", visitor} {
		t.Errorf("visitor message = %q, want the markup as text", msgs[3])
	}
	for part, want := range map[string]string{"title": title, "contact-prompt": prompt} {
		if got := b.text(part); got != want {
			t.Errorf("%s = %q, want the markup as text", part, got)
		}
	}
	if got := eval[string](b, `return $$('quick-button')[0].textContent;`); got != button {
		t.Errorf("quick button = %q, want the markup as text", got)
	}
	elements := eval[[]string](b, `return Array.prototype.map.call(root.querySelectorAll('img, b, script, [onerror], [onclick]'),
		function (e) { return e.outerHTML; }).concat(Array.prototype.map.call(document.querySelectorAll('img, [onerror]'), function (e) { return e.outerHTML; }));`)
	if len(elements) > 0 {
		t.Errorf("text became elements: %q", elements)
	}
	if got := eval[string](b, `return typeof window.__pwned;`); got != "undefined" {
		t.Errorf("window.__pwned is %s: markup ran", got)
	}
}

func TestWidgetKeyboardOnly(t *testing.T) {
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: "hu"})
	b.open(hostPage(t, srv.base, s.key))
	step := steps(t, b)

	step("Tab reaches the bubble", func(t *testing.T, b *browser) {
		for i := 0; b.focused() != "bubble"; i++ {
			if i == 10 {
				t.Fatalf("10 Tabs did not reach the bubble; the focus is on %s", b.focused())
			}
			b.keys(kb.Tab)
		}
	})

	step("Enter opens the panel with the focus in the input", func(t *testing.T, b *browser) {
		b.keys(kb.Enter)
		b.waitFor("the panel", `shown($('panel'))`)
		if got := b.focused(); got != "input" {
			t.Errorf("focused: %s, want the input", got)
		}
		if got := eval[string](b, `return $('bubble').getAttribute('aria-label');`); got != huCloseLabel {
			t.Errorf("the open bubble's label = %q, want %q", got, huCloseLabel)
		}
	})

	step("typing and Enter send a message that gets a reply", func(t *testing.T, b *browser) {
		b.keys("Mikor vannak nyitva?")
		b.keys(kb.Enter)
		waitForReply(b, 3)
		if got := b.messages()[1]; got != [2]string{"visitor", "Mikor vannak nyitva?"} {
			t.Errorf("visitor message = %q", got)
		}
		if got := b.focused(); got != "input" {
			t.Errorf("focused after sending: %s, want the input", got)
		}
	})

	step("Escape closes the panel and returns the focus to the bubble", func(t *testing.T, b *browser) {
		b.keys(kb.Escape)
		b.waitFor("the panel to close", `!shown($('panel'))`)
		if got := b.focused(); got != "bubble" {
			t.Errorf("focused: %s, want the bubble", got)
		}
		if got := eval[string](b, `return $('bubble').getAttribute('aria-expanded');`); got != "false" {
			t.Errorf("aria-expanded = %s after closing", got)
		}
	})
}

func TestWidgetMobileViewport(t *testing.T) {
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: "hu"})
	b.do("emulating a 375x667 phone", chromedp.EmulateViewport(375, 667, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	b.open(demoPage(t, srv.base, s.key))
	b.click("bubble", 0)
	b.waitFor("the panel", `shown($('panel'))`)
	// Let the opening animation end, so the rectangle and the screenshot are the final ones.
	b.waitFor("the panel to settle", `$('panel').getAnimations().every(function (a) { return a.playState === 'finished'; })`)

	got := eval[map[string]float64](b, `var r = $('panel').getBoundingClientRect();
		return {left: r.left, top: r.top, width: r.width, height: r.height, vw: innerWidth, vh: innerHeight,
			font: parseFloat(getComputedStyle($('input')).fontSize)};`)
	if got["vw"] != 375 || got["vh"] != 667 {
		t.Fatalf("viewport %vx%v, want 375x667", got["vw"], got["vh"])
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"left", got["left"], 0}, {"top", got["top"], 0}, {"width", got["width"], 375}, {"height", got["height"], 667}} {
		if math.Abs(c.got-c.want) > 1 {
			t.Errorf("panel %s = %v, want %v (full screen)", c.name, c.got, c.want)
		}
	}
	if got["font"] < 16 {
		t.Errorf("input font-size = %vpx, want at least 16px so that phones do not zoom in", got["font"])
	}
	// Nothing may cover the composer or the close button, the bubble included.
	for _, part := range []string{"input", "send", "close"} {
		hit := eval[string](b, fmt.Sprintf(`var e = $(%q), r = e.getBoundingClientRect(), h = root.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return h === e || e.contains(h) ? '' : (h ? h.outerHTML.slice(0, 80) : 'nothing');`, part))
		if hit != "" {
			t.Errorf("%s is covered by %s", part, hit)
		}
	}
	b.screenshot("mobile")
	if v := b.cspViolations(); len(v) > 0 {
		t.Errorf("CSP violations on the demo page:\n%s", strings.Join(v, "\n"))
	}
}

func TestWidgetServiceDown(t *testing.T) {
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: "hu"})
	// The script comes from srv, as if from a cache; the API is at an address where the service
	// is down at first, and later runs on the same database.
	apiAddr := closedAddr(t)
	page := servePage(t, srv.base, "http://"+apiAddr, s.key, true)
	var api *server
	bringBack := func(sub *testing.T) {
		var err error
		if api, err = launch(srv.dsn, apiAddr); err != nil {
			sub.Fatal(err)
		}
		stopAtEnd(t, api) // the test's end, not the step's
	}
	step := steps(t, b)

	wantErrorLine := func(t *testing.T, b *browser) {
		t.Helper()
		b.waitFor("the error line", `shown($('error'))`)
		if got := b.text("error-text"); got != huError {
			t.Errorf("error text = %q, want %q", got, huError)
		}
		if !b.shown("retry") {
			t.Error("no retry button next to the error")
		}
	}

	step("service unreachable at load shows the error line with a retry", func(t *testing.T, b *browser) {
		b.open(page)
		b.click("bubble", 0)
		wantErrorLine(t, b)
		if got := b.focused(); got != "retry" {
			t.Errorf("focused: %s, want the retry button", got)
		}
		if b.shown("composer") {
			t.Error("the composer is shown without a config")
		}
	})

	step("retry after the service is back shows the chat", func(t *testing.T, b *browser) {
		bringBack(t)
		b.click("retry", 0)
		b.waitFor("the welcome message", `$$('msg').length === 1 && shown($('composer')) && !shown($('error'))`)
		if got := b.focused(); got != "input" {
			t.Errorf("focused: %s, want the input", got)
		}
		// The widget counts its showing and opening with two beacons as the chat appears; the
		// next step stops the service, whose shutdown would wait for them, up to its grace on
		// a loaded machine. They are answered first.
		b.waitFor("the answers to the widget's two counts", `performance.getEntriesByType('resource').filter(function (e) {
			return e.initiatorType === 'beacon' && e.name === '`+"http://"+apiAddr+`/api/embed/events' && e.responseEnd > 0; }).length === 2`)
	})

	step("service down mid-chat shows the error line", func(t *testing.T, b *browser) {
		if err := api.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
		b.keys("Visszahívást kérek holnap délelőtt.")
		b.keys(kb.Enter)
		wantErrorLine(t, b)
		if got := b.messages(); len(got) != 2 || got[1][0] != "visitor" {
			t.Errorf("messages = %q, want the welcome and the visitor's message", got)
		}
		if b.shown("typing") {
			t.Error("the typing indicator is still shown after the failure")
		}
	})

	step("retry sends the message once the service is back", func(t *testing.T, b *browser) {
		bringBack(t)
		b.click("retry", 0)
		waitForReply(b, 3)
		if b.shown("error") {
			t.Error("the error line is still shown after the reply")
		}
		var n int
		if err := api.svc.Store().DB().QueryRow(`SELECT count(*) FROM chat_messages WHERE company_id = $1 AND visitor
			AND message_id ~ '^[0-9a-f]{16}$'`, s.company).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("%d visitor messages stored with the widget's message_id, want the retried one once", n)
		}
	})
}

func ptr[T any](v T) *T { return &v }
