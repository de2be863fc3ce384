// Package mailtest is a real SMTP server (emersion/go-smtp) inside a test process, keeping the
// messages it receives, so the tests send mail the way the service does.
package mailtest

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Message is one message as the server received it, its parts decoded.
type Message struct {
	From   string
	To     []string
	Header mail.Header
	// Parts maps a content type (text/plain, text/html) to its decoded text.
	Parts map[string]string
	// At is when the server took the message.
	At time.Time
}

// Server is a running SMTP server.
type Server struct {
	Addr string
	mu   sync.Mutex
	msgs []Message
	// Fail, when set, refuses every message with a temporary error.
	fail bool
}

// Start starts a server on a loopback port, stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: ln.Addr().String()}
	srv := smtp.NewServer(backend{s})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// URL is the server's LEADCHAT_SMTP_URL.
func (s *Server) URL() string { return "smtp://" + s.Addr }

// SetFail makes the server refuse messages (true) or take them again (false).
func (s *Server) SetFail(fail bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = fail
}

// Messages returns what the server has received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

type backend struct{ s *Server }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{s: b.s}, nil }

type session struct {
	s    *Server
	from string
	to   []string
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }
func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.from = from
	return nil
}
func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	if x.s.fail {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	msg := Message{From: x.from, To: x.to, Header: m.Header, Parts: map[string]string{}, At: time.Now()}
	collect(m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body, msg.Parts)
	x.s.msgs = append(x.s.msgs, msg)
	return nil
}

// collect decodes a part, or the parts of a multipart body, into parts by content type.
func collect(contentType, encoding string, body io.Reader, parts map[string]string) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if err != nil {
				return
			}
			collect(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, parts)
		}
	}
	if strings.EqualFold(encoding, "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	b, _ := io.ReadAll(body)
	parts[mt] = string(b)
}
