package widget_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/widget"
)

// The widget's session id is a bearer secret: it makes one from 16 random bytes before the first
// message, keeps it, and replaces one kept from before that the server no longer accepts.
func TestWidgetSessionIDs(t *testing.T) {
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: "hu"})
	page := hostPage(t, srv.base, s.key)
	storageKey := fmt.Sprintf("%q", "leadchat:session:"+s.key)
	stored := func(b *browser) string {
		return eval[string](b, `return localStorage.getItem(`+storageKey+`) || '';`)
	}
	sessions := func(t *testing.T) []string {
		t.Helper()
		rows, err := srv.svc.Store().DB().Query(`SELECT session_id FROM chat_sessions WHERE company_id = $1 ORDER BY created_at`, s.company)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		return ids
	}
	send := func(b *browser, text string) {
		b.t.Helper()
		n := len(b.messages())
		b.click("input", 0)
		b.keys(text)
		b.keys(kb.Enter)
		waitForReply(b, n+2)
	}
	reload := func(b *browser) {
		b.t.Helper()
		b.do("reloading", chromedp.Reload())
		b.waitFor("the bubble after the reload", `shown($('bubble'))`)
		b.click("bubble", 0)
		b.waitFor("the panel", `shown($('panel'))`)
	}
	random := regexp.MustCompile(`^[0-9a-f]{32}$`)
	step := steps(t, b)

	var first string
	step("the first message carries an id of 16 random bytes", func(t *testing.T, b *browser) {
		b.open(page)
		b.click("bubble", 0)
		b.waitFor("the panel", `shown($('panel'))`)
		send(b, "Szia!")
		first = stored(b)
		if !random.MatchString(first) {
			t.Fatalf("stored session id %q, want 32 hex digits", first)
		}
		if diff := cmp.Diff([]string{first}, sessions(t)); diff != "" {
			t.Errorf("sessions (-want +got):\n%s", diff)
		}
	})

	step("a kept id goes on with the conversation", func(t *testing.T, b *browser) {
		reload(b)
		send(b, "Mennyibe kerül?")
		if got := stored(b); got != first {
			t.Errorf("session id %q after a reload, want %q", got, first)
		}
		if diff := cmp.Diff([]string{first}, sessions(t)); diff != "" {
			t.Errorf("sessions (-want +got):\n%s", diff)
		}
	})

	step("a kept id shorter than 22 characters is replaced", func(t *testing.T, b *browser) {
		eval[bool](b, `localStorage.setItem(`+storageKey+`, 'abc123'); return true;`)
		reload(b)
		send(b, "Visszahívást kérek.")
		if b.shown("error") {
			t.Fatalf("error shown: %q", b.text("error-text"))
		}
		got := stored(b)
		if !random.MatchString(got) || got == first {
			t.Errorf("session id %q, want a new one of 32 hex digits", got)
		}
		if diff := cmp.Diff([]string{first, got}, sessions(t)); diff != "" {
			t.Errorf("sessions (-want +got):\n%s", diff)
		}
	})
}

// A key locked to another site serves this page nothing: the widget stays away and says why in
// the console, where the site's developer looks.
func TestWidgetKeyLockedToAnotherSite(t *testing.T) {
	b := newBrowser(t)
	srv := startServer(t)
	s := newSite(t, srv, widget.Settings{Language: "hu"})
	k, err := admin.CreateKey(context.Background(), srv.svc.Store(), s.company, auth.Public, []string{"example.hu"}, true)
	if err != nil {
		t.Fatal(err)
	}
	b.do("opening the page", chromedp.Navigate(hostPage(t, srv.base, k.Key)))
	const warning = "leadchat: Ez a weboldal nem"
	for deadline := time.Now().Add(10 * time.Second); len(b.consoleLines(warning)) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no console warning about the origin; console: %q", b.consoleLines("leadchat", "error"))
		}
	}
	if eval[bool](b, `return shown($('bubble'));`) {
		t.Error("the bubble is shown on a site the key is not allowed on")
	}
}
