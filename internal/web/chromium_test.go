package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/testenv"
	"github.com/leadchat/leadchat/internal/user"
)

// tab is one Chromium tab on the dashboard. Every page it opens records the CSP violations it
// meets (window.__csp), and check() runs axe-core on it.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
	axe  string
}

func newTab(t *testing.T, base string) *tab {
	t.Helper()
	ctx := testenv.NewChromium(t, 3*time.Minute)
	b := &tab{t: t, ctx: ctx, base: base, axe: testenv.Axe(t)}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__csp = []; addEventListener('securitypolicyviolation', function (e) {
				window.__csp.push(e.violatedDirective + ' ' + e.blockedURI);
			}, true);`,
		})
		return err
	}), desktop())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func desktop() chromedp.Action[chromedp.Void] { return chromedp.EmulateViewport(1280, 900) }

// mobileWidth is the width in CSS pixels of the phone the dashboard is checked on.
const mobileWidth = 390

func mobile() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(mobileWidth, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))
}

// js runs an expression in the page and decodes its value.
func js[T any](b *tab, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// run runs an expression for its effect as an action.
func run(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool]("(function () { "+expr+"; return true; })()")(ctx, tg)
		return err
	})
}

// open navigates to path and returns the status of the page that loads.
func (b *tab) open(path string) int64 {
	b.t.Helper()
	return b.load("opening "+path, chromedp.Navigate(b.base+path))
}

// load runs the steps, which navigate, and returns the status of the page they load.
func (b *tab) load(what string, steps ...chromedp.Action[chromedp.Void]) int64 {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	res, err := chromedp.RunResponse(ctx, steps...)
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return res.Status
}

// submit clicks the submit button of the form found by selector and returns the status of the
// page that loads.
func (b *tab) submit(form string) int64 {
	b.t.Helper()
	return b.load("submitting "+form, run(fmt.Sprintf(`document.querySelector(%q).querySelector('button[type=submit]').click()`, form)))
}

// set sets a form field's value.
func (b *tab) set(selector, value string) {
	b.t.Helper()
	if !js[bool](b, fmt.Sprintf(`(function () { var e = document.querySelector(%q); if (!e) return false;
		if (e.type === 'checkbox' || e.type === 'radio') e.checked = %q === 'on'; else e.value = %q; return true; })()`, selector, value, value)) {
		b.t.Fatalf("no field %s", selector)
	}
}

func (b *tab) path() string {
	b.t.Helper()
	return strings.TrimPrefix(js[string](b, `location.pathname + location.search`), b.base)
}

func (b *tab) text(selector string) string {
	b.t.Helper()
	return js[string](b, fmt.Sprintf(`(function () { var e = document.querySelector(%q); return e ? (e.value !== undefined && e.tagName !== 'BUTTON' ? e.value : e.textContent) : ''; })()`, selector))
}

// waitFor polls a boolean expression until it holds.
func (b *tab) waitFor(what, expr string) {
	b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("waiting for %s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type violation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// check looks at the page as it is: no CSP violation, no serious or critical accessibility
// violation (axe-core), and screenshots at desktop and mobile width.
func (b *tab) check(name string) {
	b.t.Helper()
	if v := js[[]string](b, `window.__csp || []`); len(v) > 0 {
		b.t.Errorf("%s: CSP violations %q", name, v)
	}
	js[bool](b, b.axe+";true")
	res, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`axe.run(document).then(function (r) {
		return JSON.stringify({passes: r.passes.length, violations: r.violations
			.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
			.map(function (v) { return {id: v.id, impact: v.impact, help: v.help,
				nodes: v.nodes.slice(0, 5).map(function (n) { return n.target.join(' '); })}; })});
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: axe: %v", name, err)
	}
	var found struct {
		Passes     int
		Violations []violation
	}
	if err := json.Unmarshal([]byte(res), &found); err != nil {
		b.t.Fatalf("%s: axe result %q: %v", name, res, err)
	}
	if found.Passes == 0 {
		b.t.Errorf("%s: axe checked nothing", name)
	}
	for _, v := range found.Violations {
		b.t.Errorf("%s: accessibility (%s) %s: %s at %v", name, v.Impact, v.ID, v.Help, v.Nodes)
	}
	b.screenshot("dashboard-"+name+"-desktop", 1280, false)
	if err := chromedp.Do(b.ctx, mobile()); err != nil {
		b.t.Fatal(err)
	}
	// The page is on the phone's screen (reading scrollWidth then lays it out for it).
	b.waitFor("the phone's screen", fmt.Sprintf(`screen.width === %d`, mobileWidth))
	// Against the layout's width: a phone's innerWidth grows to fit a page wider than it.
	if w := js[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 0 {
		b.t.Errorf("%s: at mobile width the page is %d px wider than the screen", name, w)
	}
	b.screenshot("dashboard-"+name+"-mobile", mobileWidth, true)
	if err := chromedp.Do(b.ctx, desktop()); err != nil {
		b.t.Fatal(err)
	}
}

// screenshot saves the whole page at a width: the viewport is made as tall as the page for
// the capture (Chromium's beyond-the-viewport capture miscounts a mobile page's width).
func (b *tab) screenshot(name string, width int64, isMobile bool) {
	b.t.Helper()
	height := max(js[int64](b, `document.documentElement.scrollHeight`), 600)
	opts := []chromedp.EmulateViewportOption{}
	if isMobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateScale(2))
	}
	png, err := chromedp.Run(b.ctx, chromedp.Action[[]byte](func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		if _, err := chromedp.EmulateViewport(width, height, opts...)(ctx, t); err != nil {
			return nil, err
		}
		return chromedp.CaptureScreenshot()(ctx, t)
	}))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(testenv.ArtifactsDir(b.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// cookie returns the browser's session cookie for the dashboard.
func (b *tab) cookie() *network.Cookie {
	b.t.Helper()
	var found *network.Cookie
	err := chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{URLs: []string{b.base + "/app/"}})
		if err != nil {
			return err
		}
		for _, c := range res.Cookies {
			if c.Name == "leadchat_session" {
				found = c
			}
		}
		return nil
	}))
	if err != nil {
		b.t.Fatal(err)
	}
	return found
}

func (b *tab) login(email string) {
	b.t.Helper()
	b.open("/app/login")
	b.set("#email", email)
	b.set("#password", password)
	if status := b.submit("form[action='/app/login']"); status != http.StatusOK || b.path() != "/app/" {
		b.t.Fatalf("login as %s: %d at %s", email, status, b.path())
	}
}

// previewBubble is the background colour of the widget's bubble inside the preview frame.
const previewBubble = `(function () {
	var f = document.querySelector('iframe.previewframe'), d = f && f.contentDocument;
	var h = d && d.querySelector('leadchat-widget[data-leadchat]'), r = h && h.shadowRoot;
	var b = r && r.querySelector('[data-lc="bubble"]'), p = r && r.querySelector('[data-lc="panel"]');
	return b && p && !p.hidden ? getComputedStyle(b).backgroundColor : '';
})()`

// TestDashboardInChromium drives the pages as an owner would, and as an attacker would, with
// an accessibility scan and screenshots of every page.
func TestDashboardInChromium(t *testing.T) {
	f := start(t)
	b := newTab(t, f.base)

	// Logged out, the dashboard sends to the login.
	if status := b.open("/app/embed"); status != http.StatusOK || b.path() != "/app/login?next=%2Fapp%2Fembed" {
		t.Fatalf("GET /app/embed logged out: %d at %s", status, b.path())
	}
	b.check("login")
	b.set("#email", f.owner)
	b.set("#password", "rossz jelszó 123")
	if status := b.submit("form[action='/app/login']"); status != http.StatusUnauthorized || !strings.Contains(b.text(".error"), "Hibás") {
		t.Fatalf("a wrong password: %d, %q", status, b.text(".error"))
	}
	b.check("login-error")

	b.login(f.owner)
	c := b.cookie()
	if c == nil || !c.HTTPOnly || c.SameSite != network.CookieSameSiteLax || c.Path != "/" {
		t.Fatalf("session cookie %+v", c)
	}
	stolen := c.Value
	b.check("leads")

	t.Run("embed: create a private key, shown once, and revoke it", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/embed")
		if snippet := b.text("#snippet"); !strings.Contains(snippet, `data-api-key="`+f.keyA.Key+`"`) ||
			!strings.Contains(snippet, f.base+"/embed.js") {
			t.Errorf("snippet %q", snippet)
		}
		b.check("embed")
		b.set("input[name=kind][value=private]", "on")
		// Post/redirect/get: the browser lands on /app/embed, which a refresh loads again.
		if status := b.submit("form[action='/app/embed/keys']"); status != http.StatusOK || b.path() != "/app/embed" {
			t.Fatalf("creating a key: %d at %s, want 200 at /app/embed after the redirect", status, b.path())
		}
		key := b.text("#newkey")
		if _, err := auth.Parse(key); err != nil || !strings.HasPrefix(key, "lc_priv_") {
			t.Fatalf("the new key %q: %v", key, err)
		}
		b.check("embed-new-key")
		b.open("/app/embed")
		if html := js[string](b, `document.documentElement.outerHTML`); strings.Contains(html, key) {
			t.Error("the private key is shown again")
		}
		keys, _ := f.store.ListKeys(context.Background(), f.a.ID)
		priv := keys[len(keys)-1]
		b.load("revoking", run(fmt.Sprintf(`document.querySelector('form[action="/app/embed/keys/%s/revoke"] button').click()`, priv.ID)))
		if b.path() != "/app/embed" || !strings.Contains(b.text(".notice"), "visszavonva") {
			t.Errorf("after revoking: at %s, notice %q", b.path(), b.text(".notice"))
		}
		keys, _ = f.store.ListKeys(context.Background(), f.a.ID)
		if keys[len(keys)-1].RevokedAt == nil {
			t.Error("the key is not revoked")
		}

		// A public key with a domain list.
		b.set("#domains", "pelda.hu\n*.Pelda.hu")
		if status := b.submit("form[action='/app/embed/keys']"); status != http.StatusOK || !strings.HasPrefix(b.text("#newkey"), "lc_pub_") {
			t.Fatalf("creating a public key: %d", status)
		}
		keys, _ = f.store.ListKeys(context.Background(), f.a.ID)
		if got := strings.Join(keys[len(keys)-1].AllowedDomains, ","); got != "pelda.hu,*.pelda.hu" {
			t.Errorf("domains %q", got)
		}
		b.set("#domains", "https://pelda.hu/")
		if status := b.submit("form[action='/app/embed/keys']"); status != http.StatusUnprocessableEntity || !strings.Contains(b.text(".error"), "Érvénytelen domain") {
			t.Errorf("a URL as a domain: %d, %q", status, b.text(".error"))
		}
	})

	t.Run("widget: change the colour and see the preview change", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/widget")
		b.waitFor("the preview's widget in the default colour", previewBubble+` === 'rgb(31, 111, 235)'`)
		b.check("widget")
		b.set("#primary_hex", "#aa0000")
		b.set("#welcome_message", "Jó napot! Napelemről kérdezne?")
		if status := b.submit("form[action='/app/widget']"); status != http.StatusOK || b.path() != "/app/widget" {
			t.Fatalf("saving: %d at %s", status, b.path())
		}
		b.waitFor("the preview in the new colour", previewBubble+` === 'rgb(170, 0, 0)'`)
		b.screenshot("dashboard-widget-saved-desktop", 1280, false)
		if err := chromedp.Do(b.ctx, desktop()); err != nil {
			t.Fatal(err)
		}
		s, _ := f.store.WidgetSettings(context.Background(), f.a.ID)
		if s.PrimaryHex == nil || *s.PrimaryHex != "#AA0000" || s.WelcomeMessage == nil || *s.WelcomeMessage != "Jó napot! Napelemről kérdezne?" ||
			s.AccentHex != nil {
			t.Errorf("stored settings %+v", s)
		}
		b.set("#border_radius", "40")
		js[bool](b, `document.querySelector("form[action='/app/widget']").noValidate = true`)
		if status := b.submit("form[action='/app/widget']"); status != http.StatusUnprocessableEntity || !strings.Contains(b.text(".error"), "Lekerekítés") {
			t.Errorf("radius 40: %d, %q", status, b.text(".error"))
		}
	})

	t.Run("assistant: edit the profile", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/assistant")
		b.set("#description", "Napelemes rendszerek tervezése és telepítése Pest megyében.")
		b.set("#sn0", "Napelem telepítés")
		b.set("#sp0", "1 900 000 Ft-tól")
		b.set("#fq0", "Mennyi idő a telepítés?")
		b.set("#fa0", "Általában két nap.")
		// The English versions sit in closed details; a user opens them to type.
		js[bool](b, `document.querySelectorAll("details.english").forEach(d => d.open = true), true`)
		b.set("#opening_hours_en", "Monday to Friday 8 am – 4 pm")
		b.set("#sne0", "Solar panel installation")
		b.set("#fae0", "Usually two days.")
		if status := b.submit("form.profile"); status != http.StatusOK || !strings.Contains(b.text(".notice"), "elmentve") {
			t.Fatalf("saving the profile: %d, %q", status, b.text(".notice"))
		}
		if b.text("#sn0") != "Napelem telepítés" || b.text("#fa0") != "Általában két nap." {
			t.Errorf("after saving: %q, %q", b.text("#sn0"), b.text("#fa0"))
		}
		if b.text("#sne0") != "Solar panel installation" || b.text("#fae0") != "Usually two days." || b.text("#opening_hours_en") != "Monday to Friday 8 am – 4 pm" {
			t.Errorf("English versions after saving: %q, %q, %q", b.text("#sne0"), b.text("#fae0"), b.text("#opening_hours_en"))
		}
		raw, err := f.store.AssistantProfile(context.Background(), f.a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := assistant.ParseProfile(raw); err != nil || p.Services[0].NameEN != "Solar panel installation" || p.FAQ[0].AnswerEN != "Usually two days." {
			t.Errorf("stored profile %s: %v", raw, err)
		}
		b.check("assistant")
	})

	t.Run("usage and team", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/usage")
		if !strings.Contains(b.text("main"), "5\u202f000") {
			t.Errorf("the usage page shows no business limit: %q", b.text("main"))
		}
		b.check("usage")
		b.open("/app/team")
		b.set("#email", "uj.kollega@a-ceg.hu")
		if status := b.submit("form[action='/app/team']"); status != http.StatusCreated || !strings.Contains(b.text("#invite"), "/app/password/") {
			t.Fatalf("inviting: %d, %q", status, b.text("#invite"))
		}
		b.check("team")
	})

	t.Run("a cross-site form post is 403", func(t *testing.T) {
		b := b.on(t)
		target := f.keyA.ID.String()
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>Nyeremény</title><form method="post" action="%s/app/embed/keys/%s/revoke"><button type="submit">Kérem a nyereményt</button></form>`, f.base, target)
		}))
		defer evil.Close()
		// localhost is another site than 127.0.0.1, where the dashboard is.
		b.load("opening the attacker's page", chromedp.Navigate(strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)))
		if status := b.submit("form"); status != http.StatusForbidden {
			t.Errorf("the cross-site post: %d", status)
		}
		keys, _ := f.store.ListKeys(context.Background(), f.a.ID)
		if keys[0].RevokedAt != nil {
			t.Error("the cross-site post revoked the key")
		}
		b.check("forbidden")
	})

	t.Run("an unknown page and another company's key", func(t *testing.T) {
		b := b.on(t)
		if status := b.open("/app/nincs-ilyen"); status != http.StatusNotFound {
			t.Errorf("an unknown page: %d", status)
		}
		b.check("not-found")
		b.open("/app/embed")
		b.load("posting another company's key", run(fmt.Sprintf(`var f = document.querySelector('form.revoke');
			f.action = '/app/embed/keys/%s/revoke'; f.querySelector('button').click()`, f.keyB.ID)))
		if !strings.Contains(b.text("h1"), "Nincs ilyen oldal") {
			t.Errorf("revoking another company's key: %q", b.text("h1"))
		}
	})

	t.Run("logout, and the stolen cookie after it", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/leads")
		if status := b.submit("form[action='/app/logout']"); status != http.StatusOK || b.path() != "/app/login" {
			t.Fatalf("logout: %d at %s", status, b.path())
		}
		thief := f.client(t)
		thief.http.Jar.SetCookies(mustURL(f.base), []*http.Cookie{{Name: "leadchat_session", Value: stolen}})
		if r := thief.get("/app/leads"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
			t.Errorf("the stolen cookie: %d %s", r.status, r.location)
		}
	})

	t.Run("a member sees the overview, the leads and the conversations only", func(t *testing.T) {
		b := b.on(t)
		b.login(f.member)
		if n := js[int](b, `document.querySelectorAll('nav[aria-label="Fő menü"] a').length`); n != 3 {
			t.Errorf("a member's menu has %d links, want the overview, the leads and the conversations", n)
		}
		if status := b.open("/app/team"); status != http.StatusForbidden {
			t.Errorf("a member on the team page: %d", status)
		}
		b.check("member-forbidden")
	})

	t.Run("a user in two companies switches in the header", func(t *testing.T) {
		b := b.on(t)
		if _, _, err := user.Create(context.Background(), f.store, f.b.ID, f.member, user.Owner, ""); err != nil {
			t.Fatal(err)
		}
		b.open("/app/leads")
		b.submit("form[action='/app/logout']")
		b.login(f.member)
		if got := b.text("#ceg-valto"); got != f.a.ID.String() {
			t.Fatalf("the switcher shows %q, want company A", got)
		}
		b.check("switcher")
		b.set("#ceg-valto", f.b.ID.String())
		if status := b.submit("form[action='/app/company']"); status != http.StatusOK || b.path() != "/app/leads" {
			t.Fatalf("switching: %d at %s", status, b.path())
		}
		if got := b.text("#ceg-valto"); got != f.b.ID.String() {
			t.Errorf("after switching the switcher shows %q, want company B", got)
		}
		if n := js[int](b, `document.querySelectorAll('nav a').length`); n < 2 {
			t.Errorf("the owner of B has %d menu links", n)
		}
	})

	t.Run("the one-time link page", func(t *testing.T) {
		b := b.on(t)
		_, token, err := user.Create(context.Background(), f.store, f.a.ID, "linkes@a-ceg.hu", user.Member, "")
		if err != nil {
			t.Fatal(err)
		}
		b.open("/app/password/" + token)
		b.check("password")
	})
}

// on is the tab for a subtest, reporting to t.
func (b *tab) on(t *testing.T) *tab {
	c := *b
	c.t = t
	return &c
}
