package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/leadchat/leadchat/internal/event"
)

// TestNotificationsInChromium drives the notifications page as an owner would (add a webhook
// and copy its secret, see a new lead's delivery in the log, redeliver it, rotate the secret,
// set the e-mail addresses, remove the webhook) and as attackers would, with an accessibility
// scan and screenshots of each state.
func TestNotificationsInChromium(t *testing.T) {
	f := start(t, withWebhooks)
	rc := newReceiver(t, http.StatusOK)
	b := newTab(t, f.base)
	b.login(f.owner)
	if status := b.load("opening from the menu", run(`document.querySelector('nav a[href="/app/notifications"]').click()`)); status != http.StatusOK ||
		b.path() != "/app/notifications" || b.text("h1") != "Értesítések" {
		t.Fatalf("the menu's Értesítések: %d at %s", status, b.path())
	}
	b.check("notifications-empty")

	b.set("#url", rc.srv.URL+"/leadchat")
	b.set(`input[name=event][value="lead.updated"]`, "off")
	if status := b.submit("form[action='/app/notifications/webhooks']"); status != http.StatusCreated {
		t.Fatalf("adding: %d, %q", status, b.text(".error"))
	}
	secret := b.text("#secret")
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("the secret shown %q", secret)
	}
	b.check("notifications-new-secret")
	eps := f.endpoints(t, f.a.ID)
	if len(eps) != 1 || eps[0].Secret != secret || len(eps[0].Events) != 2 {
		t.Fatalf("stored %+v", eps)
	}
	ep := eps[0]
	b.open("/app/notifications")
	if strings.Contains(js[string](b, `document.documentElement.outerHTML`), secret) {
		t.Error("the secret is shown again")
	}
	if got := b.text(`tr[data-webhook="` + ep.ID.String() + `"] .badge`); got != "aktív" {
		t.Errorf("the state %q", got)
	}

	t.Run("a new lead's delivery in the log, redelivered", func(t *testing.T) {
		b := b.on(t)
		f.newLead(t, f.a.ID, "anna@pelda.hu")
		verify(t, secret, rc.wait(1)[0])
		d := f.deliveries(t, f.a.ID, ep.ID, 1, false)[0]
		path := "/app/notifications/webhooks/" + ep.ID.String()
		if status := b.load("opening the log", run(`document.querySelector('a[href="`+path+`"]').click()`)); status != http.StatusOK || b.path() != path {
			t.Fatalf("the log: %d at %s", status, b.path())
		}
		row := `tr[data-delivery="` + d.ID.String() + `"]`
		if got := b.text(row + " .badge"); got != "kézbesítve" || !strings.Contains(b.text(row), "HTTP 200") {
			t.Errorf("the log's row: %q", b.text(row))
		}
		b.check("deliveries")
		if status := b.submit(row + " form"); status != http.StatusOK || b.path() != path || !strings.Contains(b.text(".notice"), "újra sorba állítva") {
			t.Fatalf("redelivering: %d at %s, %q", status, b.path(), b.text(".notice"))
		}
		if msgs := rc.wait(2); msgs[1].ID != d.ID.String() {
			t.Errorf("redelivered with webhook-id %s, want %s", msgs[1].ID, d.ID)
		}
	})

	t.Run("rotate: the new secret once, with the grace period said", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/notifications")
		if status := b.submit(fmt.Sprintf(`form[action="/app/notifications/webhooks/%s/rotate"]`, ep.ID)); status != http.StatusOK {
			t.Fatalf("rotating: %d", status)
		}
		newSecret := b.text("#secret")
		if !strings.HasPrefix(newSecret, "whsec_") || newSecret == secret || !strings.Contains(b.text(".newkey"), "mindkét aláírást") {
			t.Errorf("after rotating: %q, %q", newSecret, b.text(".newkey"))
		}
		b.check("notifications-rotated")
		if got, _ := f.store.Endpoint(context.Background(), f.a.ID, ep.ID); got.Secret != newSecret || got.PreviousSecret != secret {
			t.Errorf("stored secrets after rotating")
		}
	})

	t.Run("e-mail addresses", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/notifications")
		b.set("#emails", "ertekesites@pelda.hu\nfonok@pelda.hu")
		if status := b.submit("form[action='/app/notifications/emails']"); status != http.StatusOK || !strings.Contains(b.text(".notice"), "fonok@pelda.hu") {
			t.Fatalf("saving: %d, %q", status, b.text(".notice"))
		}
		if got, _ := f.store.NotifyEmails(context.Background(), f.a.ID); strings.Join(got, ",") != "ertekesites@pelda.hu,fonok@pelda.hu" {
			t.Errorf("stored %v", got)
		}
		if got := b.text("[data-address='fonok@pelda.hu'] .badge"); !strings.Contains(got, "megerősítésre vár") {
			t.Errorf("the address's state: %q", got)
		}
		b.check("notifications-addresses")
		if _, err := f.store.IssueConfirmToken(context.Background(), f.a.ID, "fonok@pelda.hu", event.ConfirmHash("chromium-link")); err != nil {
			t.Fatal(err)
		}
		b.open("/app/notify/confirm/chromium-link")
		b.check("confirm")
		if status := b.submit("form"); status != http.StatusOK || !strings.Contains(b.text("[role=status]"), "megerősítve") {
			t.Errorf("confirming: %d, %q", status, b.text("[role=status]"))
		}
		b.check("confirmed")
		b.open("/app/notifications")
		b.set("#emails", "Főnök <fonok@pelda.hu>")
		if status := b.submit("form[action='/app/notifications/emails']"); status != http.StatusUnprocessableEntity || !strings.Contains(b.text(".error"), "Érvénytelen e-mail-cím") {
			t.Errorf("a bad address: %d, %q", status, b.text(".error"))
		}
		b.check("notifications-email-error")
	})

	t.Run("a cross-site post is 403", func(t *testing.T) {
		b := b.on(t)
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>Nyeremény</title><form method="post" action="%s/app/notifications/webhooks/%s/remove"><button type="submit">Kérem a nyereményt</button></form>`, f.base, ep.ID)
		}))
		defer evil.Close()
		b.load("opening the attacker's page", chromedp.Navigate(strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)))
		if status := b.submit("form"); status != http.StatusForbidden {
			t.Errorf("the cross-site post: %d", status)
		}
		if len(f.endpoints(t, f.a.ID)) != 1 {
			t.Error("the cross-site post removed the webhook")
		}
	})

	t.Run("another company's webhook is 404", func(t *testing.T) {
		b := b.on(t)
		other := newReceiver(t, http.StatusOK)
		_, _, err := addEndpoint(f, f.b.ID, other.srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		epB := f.endpoints(t, f.b.ID)[0]
		if status := b.open("/app/notifications/webhooks/" + epB.ID.String()); status != http.StatusNotFound {
			t.Errorf("B's delivery log: %d", status)
		}
		b.open("/app/notifications")
		b.load("removing B's webhook", run(fmt.Sprintf(`var f = document.querySelector('form.remove');
			f.action = '/app/notifications/webhooks/%s/remove'; f.querySelector('button').click()`, epB.ID)))
		if !strings.Contains(b.text("h1"), "Nincs ilyen oldal") || len(f.endpoints(t, f.b.ID)) != 1 {
			t.Errorf("removing B's webhook: %q", b.text("h1"))
		}
	})

	t.Run("remove after confirming", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/notifications")
		form := fmt.Sprintf(`form[action="/app/notifications/webhooks/%s/remove"]`, ep.ID)
		if js[bool](b, `document.querySelector('`+form+`').checkVisibility()`) {
			t.Error("the remove button shows before the confirmation is opened")
		}
		js[bool](b, `(document.querySelector('`+form+`').closest('details').open = true)`)
		b.check("notifications-confirm-remove")
		if status := b.submit(form); status != http.StatusOK || !strings.Contains(b.text(".notice"), "eltávolítva") {
			t.Fatalf("removing: %d, %q", status, b.text(".notice"))
		}
		if len(f.endpoints(t, f.a.ID)) != 0 {
			t.Error("the webhook is still there")
		}
	})

	t.Run("a member is 403", func(t *testing.T) {
		b := b.on(t)
		b.open("/app/leads")
		b.submit("form[action='/app/logout']")
		b.login(f.member)
		if status := b.open("/app/notifications"); status != http.StatusForbidden {
			t.Errorf("a member on the page: %d", status)
		}
	})
}
