package widget_test

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/httpapi"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/testenv"
	"github.com/leadchat/leadchat/internal/widget"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// testTimeout bounds one browser test, from starting Chromium to its last check.
const testTimeout = 30 * time.Second

// server is the real service on a real database, listening on a loopback port.
type server struct {
	svc  *service.Service
	dsn  string
	addr string // host:port
	base string // http://host:port

	once    sync.Once
	cancel  context.CancelFunc
	done    chan error
	stopErr error
}

// startServer serves a fresh database on a free port until the test ends.
func startServer(t *testing.T) *server {
	t.Helper()
	s, err := launch(pgtest.NewDSN(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stopAtEnd(t, s)
	return s
}

// stopAtEnd stops s when t ends, if the test has not stopped it.
func stopAtEnd(t *testing.T, s *server) {
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
}

// launch starts the service on dsn at addr and waits until its key cache follows the database.
// A test that stopped a server starts another on the same address this way, so the page keeps
// its base URL.
func launch(dsn, addr string) (*server, error) {
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := service.Open(ctx, service.Config{DatabaseURL: dsn, MaxDBConns: 8, ShutdownGrace: 5 * time.Second}, io.Discard, nil)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("opening the service: %w", err)
	}
	// As the service listens: a connection the browser opened but has not used is not the
	// server's, so stopping it does not wait for its header timeout.
	ln, err := service.Listen(ctx, addr)
	if err != nil {
		cancel()
		svc.Close()
		return nil, err
	}
	s := &server{svc: svc, dsn: dsn, addr: ln.Addr().String(), base: "http://" + ln.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- svc.Serve(ctx, ln) }()
	for deadline := time.Now().Add(10 * time.Second); !svc.CacheLive(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			s.stop()
			return nil, errors.New("the key cache listener did not connect")
		}
	}
	return s, nil
}

// stop stops serving, waits for the server to end and closes the database; it may be called
// more than once.
func (s *server) stop() error {
	s.once.Do(func() {
		s.cancel()
		s.stopErr = <-s.done
		s.svc.Close()
	})
	return s.stopErr
}

// testProfile is what the test company's assistant may say.
var testProfile = assistant.Profile{CompanyName: "Teszt Kft.", OpeningHours: "Hétfőtől péntekig 8:00–16:00",
	Services: []assistant.Service{{Name: "Napelem", Description: "Napelemes rendszerek telepítése.", Price: "2 000 000 Ft-tól"}}}

// site is a company with a public key and the given widget settings. The key is locked to
// the host pages' host, as a careful customer's is, so every widget test also shows the widget
// working under its key's allowed domains.
type site struct {
	company uuid.UUID
	key     string
}

func newSite(t *testing.T, srv *server, ws widget.Settings) site {
	t.Helper()
	ctx := context.Background()
	c, err := srv.svc.Store().CreateCompany(ctx, "Teszt Kft.", plan.Business, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := admin.CreateKey(ctx, srv.svc.Store(), c.ID, auth.Public, []string{pageHost}, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.svc.Store().SetWidgetSettings(ctx, c.ID, ws); err != nil {
		t.Fatal(err)
	}
	if err := admin.SetProfile(ctx, srv.svc.Store(), c.ID, testProfile); err != nil {
		t.Fatal(err)
	}
	return site{company: c.ID, key: k.Key}
}

// strictCSP is the policy of a careful customer's site: no 'unsafe-inline' anywhere, scripts and
// requests allowed only to the page itself and the service.
func strictCSP(scriptBase, apiBase string) string {
	return "default-src 'self'; script-src 'self' " + scriptBase + "; connect-src " + apiBase +
		"; style-src 'self'; img-src 'self' data:"
}

var hostPageHTML = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="hu">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Teszt Kft. – bútorfelújítás</title>
<link rel="stylesheet" href="/site.css">
</head>
<body>
<header><a href="/" class="logo">Teszt Kft.</a> <nav><a href="/szolgaltatasok">Szolgáltatások</a> <a href="/kapcsolat">Kapcsolat</a></nav></header>
<main>
<h1>Bútorfelújítás és kárpitozás Budapesten</h1>
<p>Régi kedvenceit új életre keltjük: kárpitcsere, lakkozás, javítás. Ingyenes felmérés a helyszínen.</p>
<p><a href="/arak" class="btn">Árak megtekintése</a></p>
</main>
<script async src="{{.ScriptBase}}/embed.js" data-api-key="{{.Key}}" data-base-url="{{.APIBase}}"></script>
</body>
</html>
`))

const hostPageCSS = `body{margin:0;font:17px/1.6 system-ui,sans-serif;color:#1f2a30;background:#f7f4ef}
header{display:flex;justify-content:space-between;align-items:center;padding:18px 40px;background:#fff;border-bottom:1px solid #e6e1d8}
header a{color:#1f2a30;text-decoration:none;margin-left:20px}.logo{font-weight:700;font-size:20px;margin:0}
main{max-width:760px;margin:0 auto;padding:80px 40px}h1{font-size:42px;line-height:1.15;margin:0 0 20px}
.btn{display:inline-block;padding:12px 22px;border-radius:10px;background:#7a4e2d;color:#fff;text-decoration:none;font-weight:600}
`

// hostPage serves, from an origin of its own, a customer's page that embeds the widget the way
// the snippet says, under a strict CSP; it returns the page's URL.
func hostPage(t *testing.T, base, key string) string {
	t.Helper()
	return servePage(t, base, base, key, true)
}

// servePage serves the page that hostPage does, with the script loaded from scriptBase and the
// API at apiBase (as when the script comes from a cache while the service cannot be reached),
// and with the strict CSP or with none, as on most sites.
func servePage(t *testing.T, scriptBase, apiBase, key string, csp bool) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /site.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		io.WriteString(w, hostPageCSS)
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if csp {
			w.Header().Set("Content-Security-Policy", strictCSP(scriptBase, apiBase))
		}
		w.Header().Set("Cache-Control", "no-store")
		data := struct{ ScriptBase, APIBase, Key string }{scriptBase, apiBase, key}
		if err := hostPageHTML.Execute(w, data); err != nil {
			t.Errorf("host page: %v", err)
		}
	})
	return serveHost(t, mux)
}

// demoPage serves the demo page of `leadchat dev` from an origin of its own.
func demoPage(t *testing.T, base, key string) string {
	t.Helper()
	return serveHost(t, httpapi.DemoPage(base, key, testProfile))
}

// pageHost is the host of every page the tests serve (httptest listens on it).
const pageHost = "127.0.0.1"

func serveHost(t *testing.T, h http.Handler) string {
	t.Helper()
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs.URL + "/"
}

// closedAddr is a loopback address that nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// browser is one headless Chromium with one tab, which records what the page writes to the
// console so a test can look for CSP violations.
type browser struct {
	t       *testing.T
	ctx     context.Context
	console *consoleLog
}

// consoleLog is what the page wrote to the console, as text.
type consoleLog struct {
	mu    sync.Mutex
	lines []string
}

// on is the browser for a subtest: the same tab, with failures reported to t.
func (b *browser) on(t *testing.T) *browser {
	c := *b
	c.t = t
	return &c
}

// newBrowser starts Chromium with a fresh profile; the whole test must finish within testTimeout.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserWithin(t, testTimeout)
}

// newBrowserWithin is newBrowser for a test that must finish within timeout.
func newBrowserWithin(t *testing.T, timeout time.Duration) *browser {
	t.Helper()
	bctx := testenv.NewChromium(t, timeout)
	b := &browser{t: t, ctx: bctx, console: &consoleLog{}}
	if err := chromedp.Listen(bctx, b.console.record); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	// Violations also reach the page as events; recording them too means a missed log entry
	// cannot hide one. The script runs before the page's own, whatever the page's CSP says.
	err := chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `addEventListener('securitypolicyviolation', function (e) {
				console.error('securitypolicyviolation: Refused to load ' + e.blockedURI + ' (' + e.violatedDirective + ')');
			}, true);`,
		})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// record keeps one console message, exception or browser log entry as text.
func (c *consoleLog) record(ev any) {
	var line string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		var parts []string
		for _, a := range ev.Args {
			if len(a.Value) > 0 {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		line = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		line = "exception: " + ev.ExceptionDetails.Text
		if ex := ev.ExceptionDetails.Exception; ex != nil {
			line += " " + ex.Description
		}
	case *log.EventEntryAdded:
		line = "log " + string(ev.Entry.Level) + " (" + string(ev.Entry.Source) + "): " + ev.Entry.Text
	default:
		return
	}
	c.mu.Lock()
	c.lines = append(c.lines, line)
	c.mu.Unlock()
}

// consoleLines returns what the page logged so far that contains any of words.
func (b *browser) consoleLines(words ...string) []string {
	b.console.mu.Lock()
	defer b.console.mu.Unlock()
	var out []string
	for _, l := range b.console.lines {
		for _, w := range words {
			if strings.Contains(l, w) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// cspViolations are the console lines that report a blocked resource or a violated policy.
func (b *browser) cspViolations() []string {
	return b.consoleLines("Content Security Policy", "Refused to", "securitypolicyviolation")
}

// do runs actions, failing the test on error.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// open navigates to url and waits for the widget's bubble.
func (b *browser) open(url string) {
	b.t.Helper()
	b.do("opening "+url, chromedp.Navigate(url))
	b.waitFor("the bubble to appear", `shown($('bubble'))`)
}

// widgetJS wraps body, a function body, with helpers for the widget's shadow root: $ finds a
// part by data-lc, $$ finds all, shown tells whether an element is rendered.
func widgetJS(body string) string {
	return `(function () {
		var host = document.querySelector('leadchat-widget[data-leadchat]'), root = host && host.shadowRoot;
		var $ = function (n) { return root ? root.querySelector('[data-lc="' + n + '"]') : null; };
		var $$ = function (n) { return root ? Array.prototype.slice.call(root.querySelectorAll('[data-lc="' + n + '"]')) : []; };
		var shown = function (e) { return !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'; };
		` + body + `
	})()`
}

// eval runs body (see widgetJS) and decodes its return value.
func eval[T any](b *browser, body string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](widgetJS(body)))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", body, err)
	}
	return v
}

// fillSlowly moves the page's clock on by chat.MinFormFill and a little more, so the contact
// form shown counts as filled at a person's pace without the test waiting for it (the widget
// measures the time by Date.now).
func (b *browser) fillSlowly() {
	b.t.Helper()
	eval[bool](b, fmt.Sprintf(`var now = Date.now; Date.now = function () { return now() + %d; }; return true;`, chat.MinFormFill+100))
}

// waitFor polls cond, an expression over the widgetJS helpers, until it is true.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](widgetJS(`return !!(`+cond+`);`)))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) || b.ctx.Err() != nil {
			b.t.Fatalf("waiting for %s (%s): err=%v; console: %q", what, cond, err, b.consoleLines(""))
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// click moves the mouse to the centre of the part's index-th element and clicks, as a person
// would: whatever covers that point gets the click.
func (b *browser) click(part string, index int) {
	b.t.Helper()
	xy := eval[[]float64](b, fmt.Sprintf(`var e = $$(%q)[%d]; if (!shown(e)) return null;
		e.scrollIntoView({block: 'nearest'}); var r = e.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];`, part, index))
	if len(xy) != 2 {
		b.t.Fatalf("clicking %s #%d: it is not shown", part, index)
	}
	b.do("clicking "+part, chromedp.MouseClickXY(xy[0], xy[1]))
}

// keys types text, or presses keys such as kb.Enter, into whatever has the focus.
func (b *browser) keys(text string) {
	b.t.Helper()
	b.do("typing", chromedp.KeyEvent(text))
}

// focused names the focused part of the widget (its data-lc), or the focused page element.
func (b *browser) focused() string {
	b.t.Helper()
	return eval[string](b, `var a = document.activeElement;
		if (a !== host) return a ? 'page ' + a.tagName.toLowerCase() : 'nothing';
		var f = root.activeElement; return f ? (f.getAttribute('data-lc') || f.tagName.toLowerCase()) : 'nothing';`)
}

// messages are the chat log's messages as [role, text] pairs.
func (b *browser) messages() [][2]string {
	b.t.Helper()
	return eval[[][2]string](b, `return $$('msg').map(function (m) { return [m.getAttribute('data-role'), m.textContent]; });`)
}

// shown tells whether the part is rendered.
func (b *browser) shown(part string) bool {
	b.t.Helper()
	return eval[bool](b, fmt.Sprintf(`return shown($(%q));`, part))
}

// text is the part's textContent.
func (b *browser) text(part string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`var e = $(%q); return e ? e.textContent : '';`, part))
}

// watchTyping counts how often the typing indicator is shown from now on, so a test can tell
// that it appeared even when the reply came back within a frame.
func (b *browser) watchTyping() {
	b.t.Helper()
	eval[bool](b, `window.__lcTyping = 0;
		new MutationObserver(function (rs) {
			rs.forEach(function (r) { if (r.oldValue !== null && !r.target.hasAttribute('hidden')) window.__lcTyping++; });
		}).observe($('typing'), {attributes: true, attributeFilter: ['hidden'], attributeOldValue: true});
		return true;`)
}

// typingShown is how often the typing indicator was shown since watchTyping.
func (b *browser) typingShown() int {
	b.t.Helper()
	return eval[int](b, `return window.__lcTyping || 0;`)
}

// screenshot saves the viewport as a PNG test artifact.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	dir := testenv.ArtifactsDir(b.t)
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
}

// A connection the browser opened and has not used yet (Chromium keeps a spare one to an
// origin now and then) does not hold up a server's stop: the listener hands the server only
// connections that sent something, as the service's own does. On a plain listener the stop
// waited for the spare connection's header timeout.
func TestServerStopsBesideAnUnusedConnection(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("the listener holds back silent connections only where TCP_DEFER_ACCEPT is (Linux)")
	}
	s, err := launch(pgtest.NewDSN(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stopAtEnd(t, s)
	used, err := http.Get(s.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	used.Body.Close()
	spare, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Close()
	start := time.Now()
	err = s.stop()
	if took := time.Since(start); err != nil || took >= service.HeaderTimeout {
		t.Errorf("stopping beside an unused connection took %v (%v); want less than the header timeout, %v",
			took.Round(time.Millisecond), err, service.HeaderTimeout)
	}
}
