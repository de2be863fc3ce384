package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/auth"
	leadmail "github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/mail/mailtest"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/webhook"
)

// A chat lead reads in five seconds: its note sums up what the visitor wants and asked with
// labels, quotes none of the contact details they typed, and the question the assistant
// handed over is listed as unanswered on the lead the API returns, in the webhook the company
// receives and in the new-lead e-mail sent through a real SMTP server.
func TestChatLeadSummaryAndUnansweredQuestions(t *testing.T) {
	smtp := mailtest.Start(t)
	server, err := leadmail.ParseURL(smtp.URL())
	if err != nil {
		t.Fatal(err)
	}
	e := startWith(t, func(c *service.Config) {
		c.Events.AllowPrivate = true
		c.Events.SMTP, c.Events.MailFrom = &server, "noreply@leads.example.com"
		c.PublicURL = "https://leads.example.com"
	})
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	setProfile(t, e, c)
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
	}))
	t.Cleanup(receiver.Close)
	secret, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.CreateEndpoint(ctx, c, receiver.URL, nil, secret); err != nil {
		t.Fatal(err)
	}
	e.confirmedNotifyEmail(c, "ertekesites@ceg.example")

	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	open := "Van parkoló az üzlet előtt?"
	v.send("Jó napot! "+open, nil)    // not in the profile: handed over
	v.send("Mennyi a garancia?", nil) // the profile's FAQ answers it
	r := v.send("Kiss Anna vagyok, a számom 06 30 123 4567, az emailem anna.kiss@example.hu. Kérem hívjanak vissza délután.", nil)
	if r.LeadId == nil {
		t.Fatal("no lead after the contact details")
	}
	leadID := *r.LeadId

	got, err := e.sdk(e.key(c, auth.Private, nil, true).Key).GetLead(ctx, leadID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Details == nil {
		t.Fatal("the chat lead has no details")
	}
	note := got.Details.Note
	wantNote := "Kér: visszahívás\nKérdezte: „Mennyi a garancia?”\nNyitott kérdések: „" + open + "”"
	if note != wantNote {
		t.Errorf("details.note:\n%s\nwant:\n%s", note, wantNote)
	}
	for _, typed := range []string{"Kiss", "Anna", "123 4567", "anna.kiss", "számom", "emailem", "vagyok"} {
		if strings.Contains(note, typed) {
			t.Errorf("details.note quotes what the visitor typed with their details (%q): %q", typed, note)
		}
	}
	if u := got.Details.UnansweredQuestions; u == nil || !slices.Equal(*u, []string{open}) {
		t.Errorf("details.unanswered_questions = %v, want [%q]", u, open)
	}

	// The stored message keeps the flag, for a report of the questions the profile lacks.
	var flagged pq.StringArray
	if err := e.store.DB().QueryRowContext(ctx, `SELECT array_agg(text ORDER BY id) FROM chat_messages WHERE company_id = $1 AND handed_over`, c).Scan(&flagged); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Jó napot! " + open}; !slices.Equal([]string(flagged), want) {
		t.Errorf("messages flagged as handed over: %q, want %q", flagged, want)
	}

	// The webhook body and the e-mail carry the same lead.
	var webhookLead struct {
		Type string `json:"type"`
		Data struct {
			Lead struct {
				Details struct {
					Note       string   `json:"note"`
					Unanswered []string `json:"unanswered_questions"`
				} `json:"details"`
			} `json:"lead"`
		} `json:"data"`
	}
	var mailText, mailHTML string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		for _, b := range bodies {
			if err := json.Unmarshal(b, &webhookLead); err != nil {
				t.Fatalf("webhook body %s: %v", b, err)
			}
		}
		n := len(bodies)
		mu.Unlock()
		for _, m := range smtp.Messages() { // the lead's, not the address's confirmation
			if strings.Contains(m.Parts["text/plain"], "Új érdeklődő") {
				mailText = strings.ReplaceAll(m.Parts["text/plain"], "\r\n", "\n")
				mailHTML = m.Parts["text/html"]
			}
		}
		if n > 0 && mailText != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: %d webhook deliveries, e-mail %t", n, mailText != "")
		}
	}
	if d := webhookLead.Data.Lead.Details; webhookLead.Type != "lead.created" || d.Note != wantNote || !slices.Equal(d.Unanswered, []string{open}) {
		t.Errorf("webhook %s details %+v", webhookLead.Type, d)
	}
	if !strings.Contains(mailText, "Megválaszolatlan kérdések (a csevegő nem tudott rájuk válaszolni):\n- "+open) {
		t.Errorf("the e-mail's text does not list the unanswered question:\n%s", mailText)
	}
	if !strings.Contains(mailHTML, "<li>"+open+"</li>") {
		t.Errorf("the e-mail's HTML does not list the unanswered question:\n%s", mailHTML)
	}

	// A question handed over after the lead arrived joins the list on the same lead.
	later := "Lehet bankkártyával fizetni?"
	v.send(later, nil)
	got, err = e.sdk(e.key(c, auth.Private, nil, true).Key).GetLead(ctx, leadID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Details == nil || got.Details.UnansweredQuestions == nil || !slices.Equal(*got.Details.UnansweredQuestions, []string{open, later}) ||
		!strings.HasSuffix(got.Details.Note, "Nyitott kérdések: „"+open+"” „"+later+"”") {
		t.Errorf("after a later question the details are %+v", got.Details)
	}
}
