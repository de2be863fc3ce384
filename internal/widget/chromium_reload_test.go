package widget_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/internal/widget"
)

// TestReloadBeforeTheStreamBroughtTheReply: a reply the chat answer showed, which the stream had
// not brought yet when the page was reloaded, comes from the stream after the reload (the
// stream starts after the last message it brought) and is shown once. The stream is held for
// the conversation, as on a busy machine where its copy comes late; CI saw the reply twice.
func TestReloadBeforeTheStreamBroughtTheReply(t *testing.T) {
	b := newBrowser(t) // first: without Chromium there is nothing to set up
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: "hu"})
	page := hostPage(t, srv.base, s.key)
	b.do("setting a desktop viewport", chromedp.EmulateViewport(1280, 800))

	// The stream's requests are held, never let through, until the reload.
	b.do("holding the stream", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/embed/chat/stream*"}}})
		return err
	}))

	b.open(page)
	b.click("bubble", 0)
	b.waitFor("the panel", `shown($('panel'))`)
	b.keys("Mennyibe kerül a szolgáltatás?")
	b.keys(kb.Enter)
	waitForReply(b, 3)
	b.click("input", 0) // the contact form the first reply asked for took the focus
	b.keys("És hétvégén is nyitva vagytok?")
	b.keys(kb.Enter)
	waitForReply(b, 5)
	before := b.messages()
	var last int64
	if err := srv.svc.Store().DB().QueryRow(`SELECT max(id) FROM chat_messages WHERE company_id = $1`, s.company).Scan(&last); err != nil {
		t.Fatal(err)
	}

	b.do("letting the stream through", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Disable, cdp.Empty{})
		return err
	}))
	b.do("reloading", chromedp.Reload())
	b.waitFor("the bubble after the reload", `shown($('bubble'))`)
	b.click("bubble", 0)
	b.waitFor("the panel", `shown($('panel'))`)
	// The stream brings what came after the last message it brought: the second reply.
	b.waitFor("the stream's copy of the second reply", fmt.Sprintf(`localStorage.getItem('leadchat:last:%s') === '%d'`, s.key, last))
	if diff := cmp.Diff(before, b.messages()); diff != "" {
		t.Errorf("messages after the reload (-before +after):\n%s", diff)
	}
}
