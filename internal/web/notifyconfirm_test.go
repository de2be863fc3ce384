package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/limits"
	leadmail "github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
	"github.com/leadchat/leadchat/internal/service"
)

var confirmPath = regexp.MustCompile(`/app/notify/confirm/[A-Za-z0-9_-]+`)

// An address saved on the Értesítések page waits for its confirmation (the owner's own
// address does not); the link's page asks before it confirms, confirms once, and the page
// shows the new state. The caps of the page refuse the 11th address and endpoint, and an
// endpoint on a special-purpose address, in Hungarian.
func TestEmailConfirmationAndCaps(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	server, err := leadmail.ParseURL(smtp.URL())
	if err != nil {
		t.Fatal(err)
	}
	f := start(t, func(c *service.Config) {
		c.Events.SMTP, c.Events.MailFrom, c.PublicURL = &server, "noreply@leadchat.example", "https://leadchat.example"
	})
	owner := f.client(t)
	owner.login(f.owner)
	if r := owner.post("/app/notifications/emails", url.Values{"emails": {"uj@pelda.hu\n" + f.owner}}); r.status != http.StatusSeeOther {
		t.Fatalf("saving: %d", r.status)
	}
	r := owner.get("/app/notifications")
	for _, want := range []string{
		`data-address="uj@pelda.hu"><span class="mono">uj@pelda.hu</span> <span class="badge wait">megerősítésre vár</span>`,
		`data-address="` + f.owner + `"><span class="mono">` + f.owner + `</span> <span class="badge on">megerősítve</span>`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}

	var link string
	deadline := time.Now().Add(10 * time.Second)
	for link == "" {
		for _, m := range smtp.Messages() {
			if m.To[0] == "uj@pelda.hu" {
				link = confirmPath.FindString(m.Parts["text/plain"])
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no confirmation message")
		}
		time.Sleep(10 * time.Millisecond)
	}
	reader := f.client(t) // the address's reader has no session
	if r := reader.get(link); r.status != http.StatusOK || !strings.Contains(r.body, "Megerősítem") || !strings.Contains(r.body, "A Napelem Kft.") {
		t.Fatalf("GET the link: %d\n%s", r.status, r.body)
	}
	if addrs, _ := f.store.NotifyAddresses(context.Background(), f.a.ID); addrs[1].Confirmed {
		t.Error("opening the link confirmed the address")
	}
	if r := reader.post(link, url.Values{}); r.status != http.StatusOK || !strings.Contains(r.body, "cím megerősítve") {
		t.Fatalf("POST the link: %d\n%s", r.status, r.body)
	}
	if r := reader.post(link, url.Values{}); r.status != http.StatusNotFound || !strings.Contains(r.body, "érvénytelen") {
		t.Errorf("the link used again: %d", r.status)
	}
	if r := reader.get("/app/notify/confirm/kitalalt"); r.status != http.StatusNotFound {
		t.Errorf("a made-up link: %d", r.status)
	}
	if r := owner.get("/app/notifications"); !strings.Contains(r.body, `<span class="mono">uj@pelda.hu</span> <span class="badge on">megerősítve</span>`) {
		t.Error("the page does not show the address confirmed")
	}

	var many []string
	for i := range limits.NotifyEmails + 1 {
		many = append(many, fmt.Sprintf("cim%d@pelda.hu", i))
	}
	if r := owner.post("/app/notifications/emails", url.Values{"emails": {strings.Join(many, "\n")}}); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(r.body, fmt.Sprintf("Legfeljebb %d e-mail-cím", limits.NotifyEmails)) {
		t.Errorf("%d addresses: %d", len(many), r.status)
	}
	if r := owner.post("/app/notifications/webhooks", url.Values{"url": {"https://198.18.0.1/hook"}}); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(r.body, "különleges célú") {
		t.Errorf("a special-purpose target: %d", r.status)
	}
	for i := range limits.WebhookEndpoints {
		if r := owner.post("/app/notifications/webhooks", url.Values{"url": {fmt.Sprintf("https://hooks.example.com/%d", i)}}); r.status != http.StatusCreated {
			t.Fatalf("endpoint %d: %d", i+1, r.status)
		}
	}
	if r := owner.post("/app/notifications/webhooks", url.Values{"url": {"https://hooks.example.com/sok"}}); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(r.body, fmt.Sprintf("legfeljebb %d webhookja", limits.WebhookEndpoints)) {
		t.Errorf("endpoint %d: %d", limits.WebhookEndpoints+1, r.status)
	}
}
