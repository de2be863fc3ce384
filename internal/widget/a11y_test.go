package widget_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/internal/widget"
)

// viewport is a screen the widget is tried on: beside the page on a desktop, full screen and
// modal on a phone.
type viewport struct {
	name  string
	modal bool
	set   chromedp.Action[chromedp.Void]
}

var viewports = []viewport{
	{"desktop", false, chromedp.EmulateViewport(1280, 800)},
	{"mobile", true, chromedp.EmulateViewport(375, 667, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch)},
}

// TestWidgetAccessibility takes the widget through its states (closed, open, waiting for an
// answer, the contact form, the form's errors, the error line) by keyboard alone, for every theme
// of testdata/contrast.json on both viewports. In each state axe-core finds no violation and
// every text, icon, control border and focus ring reaches its contrast; the widget paints each
// theme with the palette the vectors (and so the Go side) say.
func TestWidgetAccessibility(t *testing.T) {
	vectors := widget.LoadContrastVectors(t)
	b := newBrowserWithin(t, time.Duration(len(vectors.Themes))*40*time.Second)
	axeJS := axeSource(b)
	srv := startServer(t)
	gate := b.holdChat()
	t.Run("axe-core sees into the widget's shadow root", func(t *testing.T) {
		b := b.on(t)
		b.open(hostPage(t, srv.base, newSite(t, srv, widget.Settings{Language: "hu"}).key))
		// A button without a name, put into the shadow root, must be found, or a clean result
		// proves nothing about the widget.
		eval[bool](b, `var x = document.createElement('button'); x.setAttribute('data-lc', 'unnamed'); root.firstChild.appendChild(x); return true;`)
		v := b.axe(axeJS)
		if len(v) != 1 || !strings.HasPrefix(v[0], "button-name ") || !strings.Contains(v[0], "unnamed") {
			t.Fatalf("axe-core on a widget with an unnamed button found:%s", lines(v))
		}
	})
	lowest := map[string]float64{}
	for _, th := range vectors.Themes {
		t.Run(th.Name, func(t *testing.T) {
			ws := widget.Settings{Language: "hu", PrimaryHex: ptr(th.Primary)}
			if th.Accent != "" {
				ws.AccentHex = ptr(th.Accent)
			}
			page := hostPage(t, srv.base, newSite(t, srv, ws).key)
			for _, vp := range viewports {
				t.Run(vp.name, func(t *testing.T) {
					a := &a11yRun{b: b.on(t), axe: axeJS, gate: gate, vp: vp, lowest: lowest}
					a.walk(t, page, th)
				})
			}
		})
	}
	for _, kind := range []string{"text", "icon", "border", "ring"} {
		t.Logf("lowest %s contrast over every theme and state: %s", kind, widget.FormatRatio(lowest[kind]))
	}
}

// a11yRun is one theme on one viewport.
type a11yRun struct {
	b      *browser
	axe    string
	gate   *chatGate
	vp     viewport
	rings  []focusRing
	lowest map[string]float64 // by kind, over the whole test
}

// check runs axe-core and measures the widget's colours in the state the widget is in.
func (a *a11yRun) check(t *testing.T, state string) {
	t.Helper()
	b := a.b.on(t)
	if v := b.axe(a.axe); len(v) > 0 {
		t.Errorf("%s: axe-core found %d violations:%s", state, len(v), lines(v))
	}
	min := map[string]float64{"text": widget.MinTextContrast, "icon": widget.MinNonTextContrast, "border": widget.MinNonTextContrast}
	pairs := b.colourPairs()
	if len(pairs) == 0 {
		t.Errorf("%s: no colours measured", state)
	}
	for _, p := range pairs {
		a.assert(t, state, p.Kind, p.What, p.FG, p.BG, min[p.Kind])
	}
}

// assert checks one contrast and keeps the lowest of its kind.
func (a *a11yRun) assert(t *testing.T, state, kind, what, fg, bg string, min float64) {
	t.Helper()
	r, err := widget.Contrast(fg, bg)
	if err != nil {
		t.Fatalf("%s: %s: %v", state, what, err)
	}
	if r < min {
		t.Errorf("%s: %s %s is %s on %s, want at least %s", state, kind, what, widget.FormatRatio(r), bg, widget.FormatRatio(min))
	}
	if l, ok := a.lowest[kind]; !ok || r < l {
		a.lowest[kind] = r
	}
}

// checkRings asserts the focus rings seen since the last call: a solid 2px outline that reaches
// 3:1 on what lies behind it. The bubble's ring sits on the customer's page, whose colour the
// widget cannot know: it is two bands, a white one and a dark one that differ by at least 9:1,
// so that one of them reaches 3:1 on any page.
func (a *a11yRun) checkRings(t *testing.T, state string) {
	t.Helper()
	for _, r := range a.rings {
		if r.Style != "solid" || r.Width < 2 {
			t.Errorf("%s: %s's focus ring is %s %vpx, want a solid outline of at least 2px", state, r.Part, r.Style, r.Width)
			continue
		}
		if r.Part == "bubble" {
			if r.Halo == "" {
				t.Errorf("%s: the bubble's focus ring has no second band", state)
				continue
			}
			a.assert(t, state, "ring", "bubble ring against its white band", r.Ring, r.Halo, 9)
			continue
		}
		a.assert(t, state, "ring", r.Part+" ring", r.Ring, r.Around, widget.MinNonTextContrast)
	}
	a.rings = nil
}

// expectFocus fails unless the keys moved the focus through want.
func expectFocus(t *testing.T, what string, got, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: focus order (-want +got):\n%s", what, diff)
	}
}

// modalState is whether the panel is modal and the page behind it inert.
func (a *a11yRun) modalState() map[string]any {
	return eval[map[string]any](a.b, `return {modal: $('panel').getAttribute('aria-modal'), pageInert: document.querySelector('main').inert
		&& document.querySelector('header').inert, bubbleInert: $('bubble').inert};`)
}

func (a *a11yRun) walk(t *testing.T, page string, th widget.ThemeVector) {
	b := a.b
	step := steps(t, b)
	modal := map[string]any{"modal": nil, "pageInert": false, "bubbleInert": false}
	if a.vp.modal {
		modal = map[string]any{"modal": "true", "pageInert": true, "bubbleInert": true}
	}
	closed := map[string]any{"modal": nil, "pageInert": false, "bubbleInert": false}

	step("closed: Tab reaches the bubble", func(t *testing.T, b *browser) {
		a.gate.drain(b)
		b.do("setting the viewport", a.vp.set)
		b.do("loading the page", chromedp.Navigate(page))
		eval[bool](b, `localStorage.clear(); sessionStorage.clear(); return true;`)
		b.open(page)
		got := eval[[]string](b, `var s = host.style; return [s.getPropertyValue('--lc-p'), s.getPropertyValue('--lc-pt'), s.getPropertyValue('--lc-a')];`)
		if diff := cmp.Diff([]string{th.Want.Primary, th.Want.OnPrimary, th.Want.Ring}, got); diff != "" {
			t.Errorf("the palette embed.js paints with [primary, on primary, ring] differs from the vector's (-want +got):\n%s", diff)
		}
		b.tabTo("bubble")
		a.rings = append(a.rings, b.focusRing())
		a.checkRings(t, "closed")
		a.check(t, "closed")
	})

	step("open: the message box first, then quick replies, send and close", func(t *testing.T, b *browser) {
		b.keys(kb.Enter)
		b.waitFor("the panel", `shown($('panel')) && $('panel').getAnimations().every(function (a) { return a.playState === 'finished'; })`)
		if got := b.focused(); got != "input" {
			t.Fatalf("focused on open: %s, want the input", got)
		}
		if diff := cmp.Diff(modal, a.modalState()); diff != "" {
			t.Errorf("open panel (-want +got):\n%s", diff)
		}
		a.check(t, "open")
		order := []string{"quick-button", "quick-button", "quick-button", "send", "close"}
		expectFocus(t, "Tab from the input", b.tabWalk(5, false, &a.rings), order)
		if a.vp.modal {
			expectFocus(t, "Tab from close in the modal panel", b.tabWalk(1, false, &a.rings), []string{"input"})
			expectFocus(t, "Shift+Tab from the input in the modal panel", b.tabWalk(1, true, &a.rings), []string{"close"})
			expectFocus(t, "back", b.tabWalk(1, false, &a.rings), []string{"input"})
		} else {
			if got := b.tabWalk(1, false, &a.rings)[0]; !strings.HasPrefix(got, "page ") {
				t.Errorf("Tab from close: focus on %s, want it to leave the widget", got)
			}
			// Shift+Tab comes back (past the browser's own stop at the document's edge, if any).
			for i := 0; strings.HasPrefix(b.focused(), "page "); i++ {
				if i == 3 {
					t.Fatalf("3 Shift+Tabs did not come back into the widget; the focus is on %s", b.focused())
				}
				b.tabWalk(1, true, &a.rings)
			}
			if got := b.focused(); got != "send" {
				t.Errorf("Shift+Tab back into the widget reached %s, want send", got)
			}
			expectFocus(t, "Shift+Tab on", b.tabWalk(4, true, &a.rings), []string{"quick-button", "quick-button", "quick-button", "input"})
			expectFocus(t, "Shift+Tab from the input beside the page", b.tabWalk(1, true, &a.rings), []string{"bubble"})
			expectFocus(t, "Tab from the bubble", b.tabWalk(1, false, &a.rings), []string{"input"})
		}
		a.checkRings(t, "open")
	})

	step("waiting: the typing dots are said in words", func(t *testing.T, b *browser) {
		b.keys("Szeretnék árajánlatot kérni")
		b.keys(kb.Enter)
		id := a.gate.next(b)
		b.waitFor("the typing dots", `shown($('typing'))`)
		got := eval[[]any](b, `return [$('status').getAttribute('role'), $('status').textContent, $('typing').getAttribute('aria-hidden')];`)
		if diff := cmp.Diff([]any{"status", "Válaszol…", "true"}, got); diff != "" {
			t.Errorf("[live region role, its text, dots aria-hidden] (-want +got):\n%s", diff)
		}
		a.check(t, "waiting")
		a.gate.pass(b, id)
		waitForReply(b, 3)
		if got := b.text("status"); got != "" {
			t.Errorf("the live region still says %q after the answer", got)
		}
	})

	step("contact form: the prompt describes it, focus on the name", func(t *testing.T, b *browser) {
		b.waitFor("the contact form", `shown($('contact'))`)
		if got := b.focused(); got != "contact-name" {
			t.Errorf("focused: %s, want the name field", got)
		}
		if got := b.describedBy("contact"); got != huPrompt {
			t.Errorf("the form is described by %q, want the prompt", got)
		}
		if got := b.describedBy("contact-name"); got != huPrompt {
			t.Errorf("the name field is described by %q, want the prompt", got)
		}
		a.check(t, "contact form")
		expectFocus(t, "Tab through the form", b.tabWalk(2, false, &a.rings), []string{"contact-email", "contact-submit"})
		a.checkRings(t, "contact form")
	})

	step("form errors: the error is tied to its field", func(t *testing.T, b *browser) {
		b.keys(kb.Enter) // submit the empty form
		b.waitFor("the error", `$('contact-name-error').textContent !== ''`)
		if got := b.focused(); got != "contact-name" {
			t.Errorf("focused: %s, want the name field", got)
		}
		got := eval[string](b, `return $('contact-name').getAttribute('aria-invalid');`)
		if got != "true" {
			t.Errorf("name aria-invalid = %q", got)
		}
		if got, want := b.describedBy("contact-name"), huPrompt+" | Kérjük, adja meg a nevét."; got != want {
			t.Errorf("the name field is described by %q, want %q", got, want)
		}
		a.check(t, "form errors")
		order := []string{"contact-email", "contact-submit", "contact-dismiss"}
		expectFocus(t, "Tab through the form", b.tabWalk(3, false, &a.rings), order)
		a.checkRings(t, "form errors")
		b.keys(kb.Enter) // Not now
		b.waitFor("the form to close", `!shown($('contact'))`)
		if got := b.focused(); got != "input" {
			t.Errorf("focused after dismissing the form: %s, want the input", got)
		}
	})

	step("error line: retry comes after the message box", func(t *testing.T, b *browser) {
		b.keys("Visszahívást kérek")
		b.keys(kb.Enter)
		a.gate.fail(b, a.gate.next(b))
		b.waitFor("the error line", `shown($('error'))`)
		if got := b.text("error-text"); got != huError {
			t.Errorf("error text = %q", got)
		}
		a.check(t, "error line")
		expectFocus(t, "Tab from the input", b.tabWalk(1, false, &a.rings), []string{"retry"})
		a.checkRings(t, "error line")
		b.keys(kb.Enter)
		if got := b.focused(); got != "input" {
			t.Errorf("focused after retry: %s, want the input", got)
		}
		a.gate.pass(b, a.gate.next(b))
		waitForReply(b, 5)
	})

	step("Escape and the close button return the focus to the bubble", func(t *testing.T, b *browser) {
		closedBy := func(how string) {
			t.Helper()
			b.waitFor("the panel to close", `!shown($('panel'))`)
			if got := b.focused(); got != "bubble" {
				t.Errorf("focused after %s: %s, want the bubble", how, got)
			}
			if diff := cmp.Diff(closed, a.modalState()); diff != "" {
				t.Errorf("closed by %s (-want +got):\n%s", how, diff)
			}
		}
		b.keys(kb.Escape)
		closedBy("Escape")
		b.keys(kb.Enter)
		b.waitFor("the panel", `shown($('panel'))`)
		b.tabTo("close")
		b.keys(kb.Enter)
		closedBy("the close button")
		if ex := b.consoleLines("exception:"); len(ex) > 0 {
			t.Errorf("uncaught exceptions:%s", lines(ex))
		}
	})
}
