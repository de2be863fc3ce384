package web_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/leadchat/leadchat/internal/chat"
)

// widgetJS evaluates inside the widget's shadow root, as w.
func widgetJS(expr string) string {
	return `(function () { var w = document.querySelector('leadchat-widget').shadowRoot; return ` + expr + `; })()`
}

// TestLiveConversationInChromium holds a real conversation between a visitor on a page with
// the widget and a member in the dashboard, each in a browser of their own: take over, replies
// both ways, a dropped stream that misses nothing, hand back, the assistant answering again.
func TestLiveConversationInChromium(t *testing.T) {
	f := start(t)
	site := widgetSite(t, f)

	v := newTab(t, site.URL)
	v.open("/")
	v.waitFor("the widget", widgetJS(`w && w.querySelector('[data-lc=bubble]')`))
	say := func(text string) {
		t.Helper()
		js[bool](v, widgetJS(fmt.Sprintf(`(w.querySelector('[data-lc=input]').value = %q, w.querySelector('[data-lc=composer]').requestSubmit(), true)`, text)))
	}
	count := func(role string) int {
		return js[int](v, widgetJS(`w.querySelectorAll('[data-lc=msg][data-role=`+role+`]').length`))
	}
	js[bool](v, widgetJS(`(w.querySelector('[data-lc=bubble]').click(), true)`))
	welcome := count("assistant")
	say("Jó napot! Érdeklődnék.")
	v.waitFor("the assistant's reply", widgetJS(fmt.Sprintf(`w.querySelectorAll('[data-lc=msg][data-role=assistant]').length === %d`, welcome+1)))
	assistantBefore := count("assistant")
	sid := js[string](v, `localStorage.getItem('leadchat:session:`+f.keyA.Key+`')`)

	a := newTab(t, f.base)
	a.login(f.member)
	if status := a.open("/app/conversations"); status != http.StatusOK {
		t.Fatalf("the conversations page: %d", status)
	}
	if !strings.Contains(a.text("#conv-list"), "olvasatlan") {
		t.Errorf("the list: %q", a.text("#conv-list"))
	}
	a.check("conversations")
	if status := a.load("opening the conversation", run(`document.querySelector('#conv-list a').click()`)); status != http.StatusOK {
		t.Fatalf("opening: %d", status)
	}
	if status := a.submit("form[action$='/take']"); status != http.StatusOK || !strings.Contains(a.text("#conv-state"), "Ön válaszol") {
		t.Fatalf("taking over: %d, %q", status, a.text("#conv-state"))
	}
	a.check("conversation")
	v.waitFor("someone online", widgetJS(`!w.querySelector('[data-lc=presence]').hidden`))

	a.set("#reply-text", "Jó napot, <b>Anna</b> vagyok. Miben segíthetek?")
	if status := a.submit("form.reply"); status != http.StatusOK {
		t.Fatalf("replying: %d", status)
	}
	v.waitFor("the agent's message", widgetJS(`w.querySelectorAll('[data-lc=msg][data-role=agent]').length === 1`))
	if got := js[string](v, widgetJS(`w.querySelector('[data-role=agent]').textContent`)); got != "munkatarsJó napot, <b>Anna</b> vagyok. Miben segíthetek?" {
		t.Errorf("the agent's message in the widget: %q", got)
	}

	say("Milyen garancia van a panelekre?")
	a.waitFor("the visitor's message, live", `document.querySelector('#transcript').textContent.indexOf('Milyen garancia') >= 0`)
	// The widget's post of the held message is answered (its log is busy until then), and an
	// answer of the assistant would come in it: nothing more may come.
	v.waitFor("the answer to the held message", widgetJS(`!w.querySelector('[data-lc=log]').hasAttribute('aria-busy')`))
	if n := count("assistant"); n != assistantBefore {
		t.Errorf("the assistant answered while a person had the conversation: %d replies, want %d", n, assistantBefore)
	}

	// The visitor's stream is dropped: another stream of the session ends it, and while the
	// widget reconnects two messages are written. They arrive once each.
	q := url.Values{"api_key": {f.keyA.Key}, "session_id": {sid}}
	resp, err := http.Get(f.base + "/api/embed/chat/stream?" + q.Encode())
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the intruding stream: %v %v", err, resp)
	}
	bufio.NewReader(resp.Body).ReadString('\n')
	for _, text := range []string{"Tíz év termékgarancia.", "És huszonöt év teljesítménygarancia."} {
		a.set("#reply-text", text)
		if status := a.submit("form.reply"); status != http.StatusOK {
			t.Fatalf("replying: %d", status)
		}
	}
	resp.Body.Close()
	// A message written after the reconnect comes after anything the stream still had to send
	// of the two before it: once it is shown, a repeated one would be too.
	a.set("#reply-text", "Kérdezzen bátran.")
	if status := a.submit("form.reply"); status != http.StatusOK {
		t.Fatalf("replying: %d", status)
	}
	v.waitFor("the messages after the reconnect", widgetJS(`[].some.call(w.querySelectorAll('[data-role=agent]'), function (m) { return m.lastChild.textContent === 'Kérdezzen bátran.'; })`))
	if got := js[string](v, widgetJS(`[].map.call(w.querySelectorAll('[data-role=agent]'), function (m) { return m.lastChild.textContent; }).join('|')`)); got !=
		"Jó napot, <b>Anna</b> vagyok. Miben segíthetek?|Tíz év termékgarancia.|És huszonöt év teljesítménygarancia.|Kérdezzen bátran." {
		t.Errorf("the agent's messages after the reconnect: %q", got)
	}

	if status := a.submit("form[action$='/release']"); status != http.StatusOK || !strings.Contains(a.text("#conv-state"), "Az asszisztens válaszol") {
		t.Fatalf("handing back: %d %q", status, a.text("#conv-state"))
	}
	say("Mennyibe kerül egy 5 kW-os rendszer?")
	v.waitFor("the assistant again", widgetJS(fmt.Sprintf(`w.querySelectorAll('[data-lc=msg][data-role=assistant]').length === %d`, assistantBefore+1)))
	a.waitFor("the assistant's answer in the dashboard", `document.querySelectorAll('#transcript li.assistant').length >= 2`)
	if v := js[[]string](v, `window.__csp || []`); len(v) > 0 {
		t.Errorf("the visitor's page: CSP violations %q", v)
	}
}

// TestWidgetPollsWithoutEventSource: a browser without EventSource reads the person's messages
// from the JSON endpoint.
func TestWidgetPollsWithoutEventSource(t *testing.T) {
	f := start(t)
	site := widgetSite(t, f)
	v := newTab(t, site.URL)
	err := chromedp.Do(v.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `delete window.EventSource;`,
		})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	v.open("/")
	v.waitFor("the widget", widgetJS(`w && w.querySelector('[data-lc=bubble]')`))
	if js[bool](v, `'EventSource' in window`) {
		t.Fatal("the page still has EventSource")
	}
	js[bool](v, widgetJS(`(w.querySelector('[data-lc=bubble]').click(), true)`))
	welcome := js[int](v, widgetJS(`w.querySelectorAll('[data-lc=msg][data-role=assistant]').length`))
	js[bool](v, widgetJS(`(w.querySelector('[data-lc=input]').value = 'Jó napot!', w.querySelector('[data-lc=composer]').requestSubmit(), true)`))
	v.waitFor("the reply", widgetJS(fmt.Sprintf(`w.querySelectorAll('[data-lc=msg][data-role=assistant]').length === %d`, welcome+1)))
	memberWrites(t, f, v)
	v.waitFor("the person's message, polled", widgetJS(`w.querySelectorAll('[data-lc=msg][data-role=agent]').length === 1`))
	if got := js[string](v, widgetJS(`w.querySelector('[data-role=agent]').lastChild.textContent`)); got != "Itt egy munkatárs." {
		t.Errorf("the person's message: %q", got)
	}
}

// memberWrites sends the member's message "Itt egy munkatárs." into the conversation of the
// tab's widget, as the dashboard's reply does.
func memberWrites(t *testing.T, f *fixture, v *tab) {
	t.Helper()
	sid := js[string](v, `localStorage.getItem('leadchat:session:`+f.keyA.Key+`')`)
	ctx := context.Background()
	u, _, err := f.store.UserByEmail(ctx, f.member)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chat.NewLive(f.store, nil).Send(ctx, f.a.ID, sid, chat.Agent{ID: u.ID, Name: "munkatars"}, "Itt egy munkatárs."); err != nil {
		t.Fatal(err)
	}
}

// widgetSite is a customer's page with company A's widget embedded, served until the test ends.
func widgetSite(t *testing.T, f *fixture) *httptest.Server {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="hu"><head><title>Napelem</title></head><body><main><h1>Napelem</h1></main>
<script async src="%s/embed.js" data-api-key="%s" data-base-url="%s"></script></body></html>`, f.base, f.keyA.Key, f.base)
	}))
	t.Cleanup(site.Close)
	return site
}

// TestWidgetShowsAPersonsMessageFromBeforeItFollowed: a person's message stored before the
// widget first follows the conversation (here while the visitor had closed the panel) is shown
// when the panel opens, not taken for one the page already shows.
func TestWidgetShowsAPersonsMessageFromBeforeItFollowed(t *testing.T) {
	f := start(t)
	site := widgetSite(t, f)
	v := newTab(t, site.URL)
	v.open("/")
	v.waitFor("the widget", widgetJS(`w && w.querySelector('[data-lc=bubble]')`))
	js[bool](v, widgetJS(`(w.querySelector('[data-lc=bubble]').click(), true)`))
	welcome := js[int](v, widgetJS(`w.querySelectorAll('[data-lc=msg][data-role=assistant]').length`))
	// The panel closes before the answer comes, so the page does not follow the conversation yet.
	js[bool](v, widgetJS(`(w.querySelector('[data-lc=input]').value = 'Jó napot!', w.querySelector('[data-lc=composer]').requestSubmit(),
		w.querySelector('[data-lc=bubble]').click(), true)`))
	v.waitFor("the reply", widgetJS(fmt.Sprintf(`w.querySelectorAll('[data-lc=msg][data-role=assistant]').length === %d`, welcome+1)))
	if !js[bool](v, widgetJS(`w.querySelector('[data-lc=panel]').hidden`)) {
		t.Fatal("the panel is still open")
	}
	memberWrites(t, f, v)
	js[bool](v, widgetJS(`(w.querySelector('[data-lc=bubble]').click(), true)`))
	v.waitFor("the person's message", widgetJS(`w.querySelectorAll('[data-lc=msg][data-role=agent]').length === 1`))
	if got := js[string](v, widgetJS(`w.querySelector('[data-role=agent]').lastChild.textContent`)); got != "Itt egy munkatárs." {
		t.Errorf("the person's message: %q", got)
	}
}
