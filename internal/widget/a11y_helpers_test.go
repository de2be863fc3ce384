package widget_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leadchat/leadchat/internal/testenv"
)

// axeTags are the axe-core rule sets the widget must pass: WCAG 2.0, 2.1 and 2.2 at A and AA,
// and axe's best practices.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"}

// axeSource is axe-core's script, which `make axe` installs.
func axeSource(b *browser) string {
	b.t.Helper()
	src, err := os.ReadFile(testenv.AxeCore(b.t))
	if err != nil {
		b.t.Fatal(err)
	}
	return string(src)
}

// axe injects axe-core into the page (once per page load) and runs it on the whole document, the
// widget's shadow root included; it returns one line per violation and node.
func (b *browser) axe(src string) []string {
	b.t.Helper()
	loaded, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`typeof window.axe === 'object'`))
	if err != nil {
		b.t.Fatal(err)
	}
	if !loaded {
		b.do("injecting axe-core", chromedp.Evaluate[chromedp.Void](src))
	}
	tags, _ := json.Marshal(axeTags)
	lines, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`axe.run(document, {runOnly: {type: 'tag', values: `+string(tags)+`},
			resultTypes: ['violations']}).then(function (r) {
			var out = [];
			r.violations.forEach(function (v) {
				v.nodes.forEach(function (n) {
					out.push(v.id + ' (' + v.impact + '): ' + v.help + ' at ' + JSON.stringify(n.target) + ': ' + (n.failureSummary || '').replace(/\s+/g, ' '));
				});
			});
			return out;
		})`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("running axe-core: %v", err)
	}
	return lines
}

// colourJS converts computed CSS colours and finds what lies behind an element.
const colourJS = `
	// rgba parses a computed colour, 'rgb(r, g, b)' or 'rgba(r, g, b, a)'.
	var rgba = function (c) { var m = c.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
	var toHex = function (c) { return '#' + c.slice(0, 3).map(function (v) { return ('0' + Math.round(v).toString(16)).slice(-2); }).join('').toUpperCase(); };
	var over = function (top, under) { return [0, 1, 2].map(function (i) { return top[i] * top[3] + under[i] * (1 - top[3]); }).concat(1); };
	var up = function (e) { return e.parentElement || e.getRootNode().host || null; };
	// bg is the colour behind e: the backgrounds of e and its ancestors, across the shadow
	// boundary, over white.
	var bg = function (e) {
		var layers = [];
		for (var n = e; n; n = up(n)) {
			var c = rgba(getComputedStyle(n).backgroundColor);
			if (c[3] > 0) layers.push(c);
			if (c[3] >= 1) break;
		}
		return layers.reduceRight(function (under, top) { return over(top, under); }, [255, 255, 255, 1]);
	};
	var fg = function (e, prop, pseudo) { return over(rgba(getComputedStyle(e, pseudo)[prop]), bg(e)); };
`

// colourPair is a colour on another, as measured in the page.
type colourPair struct {
	Kind string // text, icon, border
	What string
	FG   string
	BG   string
}

// colourPairs measures every shown text, icon and control border of the widget against what lies
// behind it.
func (b *browser) colourPairs() []colourPair {
	b.t.Helper()
	return eval[[]colourPair](b, colourJS+`
		var out = [], add = function (kind, what, f, g) { out.push({Kind: kind, What: what, FG: toHex(f), BG: toHex(g)}); };
		var live = function (e) { return shown(e) && !e.closest('[aria-hidden=true]'); };
		['title', 'msg', 'quick-button', 'contact-prompt', 'contact-submit', 'contact-dismiss', 'contact-name-error', 'contact-email-error', 'contact-phone-error', 'error-text',
			'retry', 'powered-by'].forEach(function (part) {
			$$(part).filter(live).forEach(function (e, i) {
				if (e.textContent.trim()) add('text', part + (i ? ' ' + (i + 1) : '') + ' (' + e.textContent.trim().slice(0, 24) + ')', fg(e, 'color'), bg(e));
			});
		});
		Array.prototype.filter.call(root.querySelectorAll('label'), live).forEach(function (l) {
			add('text', 'label ' + l.textContent.trim(), fg(l, 'color'), bg(l));
		});
		Array.prototype.filter.call(root.querySelectorAll('input'), live).forEach(function (i) {
			var name = i.getAttribute('data-lc');
			add('text', name + ' text', fg(i, 'color'), bg(i));
			if (i.placeholder) add('text', name + ' placeholder', fg(i, 'color', '::placeholder'), bg(i));
			add('border', name + ' border on the field', fg(i, 'borderTopColor'), bg(i));
			add('border', name + ' border on its surroundings', fg(i, 'borderTopColor'), bg(up(i)));
		});
		$$('quick-button').filter(live).forEach(function (q, i) {
			add('border', 'quick-button ' + (i + 1) + ' border on the button', fg(q, 'borderTopColor'), bg(q));
			add('border', 'quick-button ' + (i + 1) + ' border on the messages', fg(q, 'borderTopColor'), bg(up(q)));
		});
		['bubble', 'close', 'send'].forEach(function (part) {
			var e = $(part);
			if (!shown(e)) return;
			var p = e.querySelector('path'), cs = getComputedStyle(p);
			add('icon', part + ' icon', over(rgba(cs.fill !== 'none' ? cs.fill : cs.stroke), bg(e)), bg(e));
		});
		if (shown($('typing'))) add('icon', 'typing dots', fg($('typing').firstChild, 'backgroundColor'), bg($('typing')));
		return out;`)
}

// focusRing is how the focused part of the widget shows its focus.
type focusRing struct {
	Part   string
	Style  string
	Width  float64
	Ring   string // the outline's colour
	Around string // what lies behind the outline (the gap and beyond it)
	Halo   string // the colour of a box-shadow band filling the gap, if any
}

// focusRing measures the focus ring of the widget's focused element (the zero value when the
// focus is outside the widget).
func (b *browser) focusRing() focusRing {
	b.t.Helper()
	return eval[focusRing](b, colourJS+`
		var f = root && document.activeElement === host ? root.activeElement : null;
		if (!f) return {};
		var cs = getComputedStyle(f), halo = cs.boxShadow.match(/^(rgba?\([^)]*\)) 0px 0px 0px 2px/);
		return {Part: f.getAttribute('data-lc') || f.tagName.toLowerCase(), Style: cs.outlineStyle, Width: parseFloat(cs.outlineWidth),
			Ring: toHex(rgba(cs.outlineColor)), Around: toHex(bg(up(f))), Halo: halo ? toHex(rgba(halo[1])) : ''};`)
}

// chatGate holds the widget's chat requests until the test lets each one through or fails it, so
// that a test can look at the widget while it waits for an answer.
type chatGate struct {
	held chan fetch.RequestID
}

// holdChat starts holding the page's POSTs to /api/embed/chat (CORS preflights pass).
func (b *browser) holdChat() *chatGate {
	b.t.Helper()
	g := &chatGate{held: make(chan fetch.RequestID, 8)}
	paused := make(chan *fetch.EventRequestPaused, 32)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			select {
			case paused <- e:
			default:
			}
		}
	}); err != nil {
		b.t.Fatal(err)
	}
	ctx := b.ctx
	go func() {
		for {
			select {
			case e := <-paused:
				if e.Request.Method == "POST" {
					g.held <- e.RequestID
				} else {
					gateCall(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	b.do("holding chat requests", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/embed/chat*"}}})
		return err
	}))
	return g
}

func gateCall[P any](ctx context.Context, c cdp.Command[P, cdp.Empty], p P) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, c, p)
		return err
	}))
}

// next waits for the next held chat request.
func (g *chatGate) next(b *browser) fetch.RequestID {
	b.t.Helper()
	select {
	case id := <-g.held:
		return id
	case <-time.After(10 * time.Second):
		b.t.Fatalf("no chat request within 10 s; console: %q", b.consoleLines(""))
	}
	return ""
}

// pass lets a held request go on to the server.
func (g *chatGate) pass(b *browser, id fetch.RequestID) {
	b.t.Helper()
	if err := gateCall(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
		b.t.Fatalf("letting a chat request through: %v", err)
	}
}

// fail makes a held request fail as if the service could not be reached.
func (g *chatGate) fail(b *browser, id fetch.RequestID) {
	b.t.Helper()
	err := gateCall(b.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonConnectionRefused})
	if err != nil {
		b.t.Fatalf("failing a chat request: %v", err)
	}
}

// drain lets through whatever an earlier, failed step left held.
func (g *chatGate) drain(b *browser) {
	for {
		select {
		case id := <-g.held:
			gateCall(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		default:
			return
		}
	}
}

// tabWalk presses Tab (or Shift+Tab) n times and names the focused part after each press,
// recording each focus ring it passes.
func (b *browser) tabWalk(n int, back bool, rings *[]focusRing) []string {
	b.t.Helper()
	var seen []string
	for range n {
		if back {
			b.do("Shift+Tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		} else {
			b.keys(kb.Tab)
		}
		seen = append(seen, b.focused())
		if r := b.focusRing(); r.Part != "" {
			*rings = append(*rings, r)
		}
	}
	return seen
}

// tabTo presses Tab until the part has the focus, at most 10 times.
func (b *browser) tabTo(part string) {
	b.t.Helper()
	for i := 0; b.focused() != part; i++ {
		if i == 10 {
			b.t.Fatalf("10 Tabs did not reach %s; the focus is on %s", part, b.focused())
		}
		b.keys(kb.Tab)
	}
}

// describedBy is the text of the elements that the part's aria-describedby names, empty ones left out.
func (b *browser) describedBy(part string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`var e = $(%q), ids = (e && e.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
		return ids.map(function (id) { var d = root.getElementById(id); return d ? d.textContent : '#' + id + ' missing'; })
			.filter(Boolean).join(' | ');`, part))
}

// lines joins violations or failures for a message.
func lines(l []string) string { return "\n\t" + strings.Join(l, "\n\t") }
