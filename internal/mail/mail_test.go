package mail_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
)

func newLead() lead.Stored {
	return lead.Stored{Lead: lead.Lead{ID: uuid.New(), FirstName: "Anna", LastName: "Kovács", Email: "anna@example.hu",
		Phone: "+36 30 123 4567", Service: "Tetőfelújítás", Source: lead.SourceChat,
		Note: "Árajánlatot kér <b>jövő hétre</b>.", Unanswered: []string{"Van <i>garancia</i>?", "Hétvégén is jönnek?"}}}
}

// The message is Hungarian, in plain text and HTML, with the lead's details, the visitor's
// questions and the link to the lead in the dashboard; the HTML escapes what the visitor wrote.
func TestCompose(t *testing.T) {
	l := newLead()
	subject, text, html, err := mail.Compose(l, "https://leads.example.com/")
	if err != nil {
		t.Fatal(err)
	}
	link := "https://leads.example.com/app/leads/" + l.ID.String()
	if subject != "Új érdeklődő: Kovács Anna" {
		t.Errorf("subject %q", subject)
	}
	for _, want := range []string{"Új érdeklődő érkezett (csevegés)", "Név: Kovács Anna", "E-mail: anna@example.hu",
		"Telefon: +36 30 123 4567", "Szolgáltatás: Tetőfelújítás", "Árajánlatot kér <b>jövő hétre</b>.", link,
		"Megválaszolatlan kérdések (a csevegő nem tudott rájuk válaszolni):\n- Van <i>garancia</i>?\n- Hétvégén is jönnek?"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"&lt;b&gt;jövő hétre&lt;/b&gt;", `href="` + link + `"`, "Tetőfelújítás",
		"<li>Van &lt;i&gt;garancia&lt;/i&gt;?</li><li>Hétvégén is jönnek?</li>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "<b>jövő") {
		t.Error("the HTML carries the visitor's markup")
	}
	english := lead.Stored{Lead: lead.Lead{ID: uuid.New(), FirstName: "John", LastName: "Smith", Source: lead.SourceForm}}
	if subject, text, _, _ := mail.Compose(english, "http://x"); subject != "Új érdeklődő: John Smith" || !strings.Contains(text, "(űrlap)") {
		t.Errorf("an English name: %q\n%s", subject, text)
	}
	phoneOnly := lead.Stored{Lead: lead.Lead{ID: uuid.New(), Phone: "+36301234567", Source: lead.SourceAPI}, OverLimit: true}
	subject, text, _, _ = mail.Compose(phoneOnly, "http://x")
	if subject != "Új érdeklődő: +36301234567" || !strings.Contains(text, "havi keret felett") || !strings.Contains(text, "Név: –") ||
		strings.Contains(text, "Megválaszolatlan") {
		t.Errorf("phone only: %q\n%s", subject, text)
	}
}

// Send delivers one message to a real SMTP server, with the delivery's id as its Message-ID;
// a refusal is an attempt that failed.
func TestSend(t *testing.T) {
	srv := mailtest.Start(t)
	server, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	s := mail.NewSender(server, "leadchat <noreply@leads.example.com>", "https://leads.example.com")
	l := newLead()
	d := event.Delivery{ID: uuid.New(), Email: "sales@example.com",
		Event: event.Event{Type: event.LeadCreated, At: time.Now(), Lead: &l}}
	if res := s.Send(context.Background(), d); !res.OK() {
		t.Fatalf("send: %+v", res)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	if m.From != "noreply@leads.example.com" || len(m.To) != 1 || m.To[0] != "sales@example.com" ||
		m.Header.Get("Message-Id") != "<"+d.ID.String()+"@leads.example.com>" {
		t.Errorf("envelope %s → %v, Message-Id %q", m.From, m.To, m.Header.Get("Message-Id"))
	}
	if got := m.Header.Get("Reply-To"); got != "<anna@example.hu>" && got != "anna@example.hu" {
		t.Errorf("Reply-To %q, want the lead's address", got)
	}
	if !strings.Contains(m.Parts["text/plain"], "Név: Kovács Anna") || !strings.Contains(m.Parts["text/html"], "Kovács Anna") ||
		!strings.Contains(m.Parts["text/plain"], "- Hétvégén is jönnek?") || !strings.Contains(m.Parts["text/html"], "<li>Hétvégén is jönnek?</li>") {
		t.Errorf("parts = %v", m.Parts)
	}
	noEmail := l
	noEmail.Email = ""
	if res := s.Send(context.Background(), event.Delivery{ID: uuid.New(), Email: "sales@example.com",
		Event: event.Event{Type: event.LeadCreated, At: time.Now(), Lead: &noEmail}}); !res.OK() {
		t.Fatalf("send: %+v", res)
	}
	if msgs := srv.Messages(); len(msgs) != 2 || msgs[1].Header.Get("Reply-To") != "" {
		t.Errorf("a lead without an address: Reply-To %q", msgs[len(msgs)-1].Header.Get("Reply-To"))
	}
	srv.SetFail(true)
	if res := s.Send(context.Background(), d); res.OK() || !strings.Contains(res.Err, "451") {
		t.Errorf("a refused message: %+v", res)
	}
}

func TestParseURL(t *testing.T) {
	for raw, want := range map[string]mail.Server{
		"smtp://mail.example.com:587":             {Host: "mail.example.com", Port: 587},
		"smtp://u%40x:p%3Aw@mail.example.com":     {Host: "mail.example.com", Port: 25, Username: "u@x", Password: "p:w"},
		"smtps://mail.example.com":                {Host: "mail.example.com", Port: 465, TLS: true},
		"smtps://user:pass@mail.example.com:2465": {Host: "mail.example.com", Port: 2465, TLS: true, Username: "user", Password: "pass"},
	} {
		got, err := mail.ParseURL(raw)
		if err != nil || got != want {
			t.Errorf("ParseURL(%q) = %+v, %v; want %+v", raw, got, err, want)
		}
	}
	for _, bad := range []string{"", "mail.example.com:25", "http://mail.example.com", "smtp://", "smtp://h:x", "smtp://h:99999", "smtp://h/path"} {
		if _, err := mail.ParseURL(bad); err == nil {
			t.Errorf("ParseURL(%q) accepted it", bad)
		}
	}
}
