// Package mail writes and sends the new-lead e-mail: one Hungarian message, plain text and
// HTML, with the lead's details, the visitor's questions and a link to the lead in the
// dashboard. SMTP is go-mail's: STARTTLS whenever the server offers it, or TLS from the start
// for smtps://.
package mail

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"net"
	"net/url"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
)

//go:embed templates
var templates embed.FS

var (
	textTmpl    = texttemplate.Must(texttemplate.ParseFS(templates, "templates/lead.txt"))
	htmlTmpl    = htmltemplate.Must(htmltemplate.ParseFS(templates, "templates/lead.html"))
	confirmTmpl = texttemplate.Must(texttemplate.ParseFS(templates, "templates/confirm.txt"))
	digestTmpl  = texttemplate.Must(texttemplate.ParseFS(templates, "templates/digest.txt"))
)

// Timeout bounds one attempt: connecting, the SMTP dialogue and the message.
const Timeout = 15 * time.Second

// Server is an SMTP server as LEADCHAT_SMTP_URL names it.
type Server struct {
	Host     string
	Port     int
	TLS      bool // smtps: TLS from the start; otherwise STARTTLS when offered
	Username string
	Password string
}

// ParseURL reads smtp://[user:pass@]host:port or smtps://[user:pass@]host:port (ports 25 and
// 465 when left out).
func ParseURL(raw string) (Server, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return Server{}, fmt.Errorf("want smtp://[user:pass@]host:port or smtps://…")
	}
	s := Server{Host: u.Hostname(), TLS: u.Scheme == "smtps", Port: 25}
	if s.TLS {
		s.Port = 465
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Server{}, fmt.Errorf("port %q is not a port number", p)
		}
		s.Port = n
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	return s, nil
}

// Sender sends the new-lead e-mail.
type Sender struct {
	server    Server
	from      string
	publicURL string
}

// NewSender sends through server as from; links point at publicURL's dashboard.
func NewSender(server Server, from, publicURL string) *Sender {
	return &Sender{server: server, from: from, publicURL: strings.TrimRight(publicURL, "/")}
}

// view is what the templates show.
type view struct {
	Source, Name, Email, Phone, Service, Note, Link string
	// Unanswered are the chat's questions the assistant handed over: the salesperson's to answer.
	Unanswered []string
	OverLimit  bool
}

// Compose writes the message about a new lead: its subject, plain text and HTML. The lead is
// named as the dashboard names it (Hungarian names family name first), else by its address.
func Compose(l lead.Stored, publicURL string) (subject, text, html string, err error) {
	v := view{Source: l.Source.Name(), Name: l.DisplayName(),
		Email: l.Email, Phone: l.Phone, Service: l.Service, Note: l.Note,
		Unanswered: l.Unanswered,
		OverLimit:  l.OverLimit, Link: strings.TrimRight(publicURL, "/") + "/app/leads/" + l.ID.String()}
	who := v.Name
	for _, alt := range []string{v.Email, v.Phone} {
		if who == "" {
			who = alt
		}
	}
	subject = "Új érdeklődő: " + who
	var tb, hb bytes.Buffer
	if err := textTmpl.Execute(&tb, v); err != nil {
		return "", "", "", err
	}
	if err := htmlTmpl.Execute(&hb, v); err != nil {
		return "", "", "", err
	}
	return subject, tb.String(), hb.String(), nil
}

// Send makes one attempt of a delivery to its address. The Message-ID is the delivery's, the
// same on every attempt, so a mail system can drop a repeat.
func (s *Sender) Send(ctx context.Context, d event.Delivery) event.Result {
	if d.Event.Lead == nil {
		return event.Result{Err: "the lead has no details to send"}
	}
	subject, text, html, err := Compose(*d.Event.Lead, s.publicURL)
	if err != nil {
		return event.Result{Err: "composing: " + err.Error()}
	}
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return event.Result{Err: "LEADCHAT_MAIL_FROM: " + err.Error()}
	}
	if err := m.To(d.Email); err != nil {
		return event.Result{Err: "recipient: " + err.Error()}
	}
	m.Subject(subject)
	// A reply goes to the person who asked, not to the service's own address.
	if l := d.Event.Lead; l.Email != "" {
		if err := m.ReplyTo(l.Email); err != nil {
			return event.Result{Err: "Reply-To: " + err.Error()}
		}
	}
	m.SetMessageIDWithValue(d.ID.String() + "@" + domainOf(s.from))
	m.SetDateWithValue(d.Event.At)
	m.SetBodyString(gomail.TypeTextPlain, text)
	m.AddAlternativeString(gomail.TypeTextHTML, html)
	if err := s.send(ctx, m); err != nil {
		return event.Result{Err: err.Error()}
	}
	return event.Result{}
}

// Invite sends a new user of the dashboard their one-time link that sets the password. It is
// sent at once, not through the outbox: the owner who invites waits on the page and is told
// whether it went, and can copy the link instead.
func (s *Sender) Invite(ctx context.Context, to, company, link string) error {
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return fmt.Errorf("LEADCHAT_MAIL_FROM: %w", err)
	}
	if err := m.To(to); err != nil {
		return fmt.Errorf("recipient: %w", err)
	}
	m.Subject("Meghívó a leadchat felületére: " + company)
	m.SetBodyString(gomail.TypeTextPlain, "Jó napot!\n\nMeghívót kapott a(z) "+company+
		" leadchat felületére. Az alábbi linken egyszer, 24 órán belül állíthatja be a jelszavát:\n\n"+
		link+"\n\nHa nem számított erre a levélre, hagyja figyelmen kívül.\n")
	return s.send(ctx, m)
}

// send sends m over a connection of its own.
func (s *Sender) send(ctx context.Context, m *gomail.Msg) error {
	opts := []gomail.Option{gomail.WithPort(s.server.Port), gomail.WithTimeout(Timeout)}
	if s.server.TLS {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if s.server.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.server.Username), gomail.WithPassword(s.server.Password))
	}
	c, err := gomail.NewClient(s.server.Host, opts...)
	if err != nil {
		return fmt.Errorf("SMTP client: %w", err)
	}
	return c.DialAndSendWithContext(ctx, m)
}

// notice sends a plain-text message of the service to one address.
func (s *Sender) notice(ctx context.Context, to, subject string, tmpl *texttemplate.Template, v any) error {
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return err
	}
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return fmt.Errorf("LEADCHAT_MAIL_FROM: %w", err)
	}
	if err := m.To(to); err != nil {
		return fmt.Errorf("recipient: %w", err)
	}
	m.Subject(subject)
	m.SetMessageID()
	m.SetDate()
	m.SetBodyString(gomail.TypeTextPlain, b.String())
	return s.send(ctx, m)
}

// ConfirmPath is the dashboard page of a confirmation link, before its token.
const ConfirmPath = "/app/notify/confirm/"

// Confirm sends an address the link that confirms it for a company's new-lead e-mail.
func (s *Sender) Confirm(ctx context.Context, to, company, token string) error {
	return s.notice(ctx, to, "Erősítse meg a címét: új érdeklődők értesítése", confirmTmpl, struct {
		To, Company, Link string
		Days              int
	}{to, company, s.publicURL + ConfirmPath + token, int(event.ConfirmLinkTTL / (24 * time.Hour))})
}

// Digest tells an address how many new leads of a company's day it was not mailed about, past
// the daily cap, with the link to the leads.
func (s *Sender) Digest(ctx context.Context, sk event.Unmailed, limit int) error {
	return s.notice(ctx, sk.Email, fmt.Sprintf("Napi összesítő: %d új érdeklődő külön levél nélkül", sk.Leads), digestTmpl, struct {
		Company, Day, Link string
		Cap, Leads         int
	}{sk.Company, sk.Day.Format("2006. 01. 02."), s.publicURL + "/app/leads", limit, sk.Leads})
}

// domainOf is the domain of an address, for the Message-ID.
func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return strings.Trim(addr[i+1:], "> ")
	}
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return "leadchat"
}
