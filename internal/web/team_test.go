package web_test

import (
	"mime"
	"net/http"
	"net/url"
	"strings"
	"testing"

	leadmail "github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
	"github.com/leadchat/leadchat/internal/service"
)

// An invitation goes out by e-mail when an SMTP server is set, and the page says so; without
// one the page says nothing was sent and to copy the link. The user list never claims a sending.
func TestInvitationEmail(t *testing.T) {
	t.Parallel()
	invite := func(t *testing.T, f *fixture, email string) response {
		t.Helper()
		owner := f.client(t)
		owner.login(f.owner)
		r := owner.post("/app/team", url.Values{"email": {email}, "role": {"member"}})
		if r.status != http.StatusCreated || !strings.Contains(r.body, "/app/password/") {
			t.Fatalf("invite: %d\n%s", r.status, r.body)
		}
		if strings.Contains(r.body, "meghívó elküldve") {
			t.Error("the user list says an invitation was sent")
		}
		return r
	}

	t.Run("with SMTP the link is e-mailed", func(t *testing.T) {
		srv := mailtest.Start(t)
		server, err := leadmail.ParseURL(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		f := start(t, func(c *service.Config) {
			c.Events.SMTP, c.Events.MailFrom = &server, "leadchat@a-ceg.hu"
		})
		r := invite(t, f, "uj.munkatars@a-ceg.hu")
		if !strings.Contains(r.body, "Meghívó e-mailt küldtünk") {
			t.Errorf("the page does not say the invitation was sent:\n%s", r.body)
		}
		msgs := srv.Messages()
		if len(msgs) != 1 {
			t.Fatalf("%d messages, want the invitation", len(msgs))
		}
		subject, _ := new(mime.WordDecoder).DecodeHeader(msgs[0].Header.Get("Subject"))
		if len(msgs) != 1 || len(msgs[0].To) != 1 || msgs[0].To[0] != "uj.munkatars@a-ceg.hu" ||
			!strings.Contains(msgs[0].Parts["text/plain"], "/app/password/") || !strings.Contains(subject, "A Napelem Kft.") {
			t.Errorf("messages = %+v", msgs)
		}
	})

	t.Run("without SMTP the page says to copy the link", func(t *testing.T) {
		f := start(t)
		r := invite(t, f, "uj.munkatars@a-ceg.hu")
		if !strings.Contains(r.body, "nem küldtük el: másolja ki a linket") || strings.Contains(r.body, "e-mailt küldtünk") {
			t.Errorf("the page does not say to copy the link:\n%s", r.body)
		}
	})
}
