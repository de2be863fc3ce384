package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/widget"
)

// A lead sent with a consent keeps it with the service's time and the lead's source, and the
// Lead object returns it; one sent without has a null consent.
func TestLeadConsentStoredAndReturned(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	sdk := e.sdk(e.key(c, auth.Private, nil, true).Key)
	ctx := context.Background()
	text := "Kérek ajánlatokat e-mailben."
	notice := "https://ceg.example/adatvedelem"
	before := time.Now().Add(-time.Second)
	res, err := sdk.CreateLead(ctx, leadclient.Lead{FirstName: "Anna", Email: "anna@example.hu", Source: "form",
		Consent: &leadclient.ConsentInput{Marketing: true, Text: &text, PrivacyUrl: &notice}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := sdk.GetLead(ctx, res.LeadID)
	if err != nil {
		t.Fatal(err)
	}
	cs := got.Consent
	if cs == nil {
		t.Fatal("the lead returns no consent")
	}
	if !cs.Marketing || cs.Text == nil || *cs.Text != text || cs.PrivacyUrl == nil || *cs.PrivacyUrl != notice || cs.Source != "form" {
		t.Errorf("consent = %+v, want marketing, the text, the notice and source form", cs)
	}
	if cs.GivenAt.Before(before) || cs.GivenAt.After(time.Now().Add(time.Second)) {
		t.Errorf("given_at %v is not the time of the request", cs.GivenAt)
	}

	plain, err := sdk.CreateLead(ctx, leadclient.Lead{FirstName: "Béla", Email: "bela@example.hu"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := sdk.GetLead(ctx, plain.LeadID); err != nil || got.Consent != nil {
		t.Errorf("a lead without consent returns %+v (%v), want null", got.Consent, err)
	}
	declined, err := sdk.CreateLead(ctx, leadclient.Lead{FirstName: "Cili", Email: "cili@example.hu",
		Consent: &leadclient.ConsentInput{Marketing: false}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := sdk.GetLead(ctx, declined.LeadID); err != nil || got.Consent == nil || got.Consent.Marketing ||
		got.Consent.Text != nil || got.Consent.Source != "api" {
		t.Errorf("a declined consent returns %+v (%v), want marketing false, no text, source api", got.Consent, err)
	}
}

// A consent that breaks the rules is 400 invalid_consent (a control character is
// invalid_characters, as in every text), and nothing is stored or counted.
func TestLeadConsentRefused(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	key := e.key(c, auth.Private, nil, true).Key
	pub := e.key(c, auth.Public, nil, true).Key
	long := strings.Repeat("a", 1001)
	for _, tt := range []struct {
		name, consent, code string
	}{
		{"not an object", `"igen"`, "invalid_consent"},
		{"marketing missing", `{"text": "x"}`, "missing_field"},
		{"marketing not a boolean", `{"marketing": "true", "text": "x"}`, "invalid_consent"},
		{"ticked without its text", `{"marketing": true}`, "invalid_consent"},
		{"ticked with a blank text", `{"marketing": true, "text": "   "}`, "invalid_consent"},
		{"text too long", `{"marketing": false, "text": "` + long + `"}`, "invalid_consent"},
		{"notice over http", `{"marketing": false, "privacy_url": "http://ceg.example/adatvedelem"}`, "invalid_consent"},
		{"notice not a URL", `{"marketing": false, "privacy_url": "https://"}`, "invalid_consent"},
		{"control character in the text", `{"marketing": true, "text": "igen\u0007"}`, "invalid_characters"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := fmt.Sprintf(`{"first_name": "Anna", "email": "anna@example.hu", "consent": %s}`, tt.consent)
			resp, out := e.do("POST", "/api/v1/leads", body, map[string]string{"X-API-Key": key})
			wantError(t, resp, out, 400, tt.code)
			chat := fmt.Sprintf(`{"api_key": %q, "message": "Anna vagyok", "email": "anna@example.hu", "consent": %s}`, pub, tt.consent)
			resp, out = e.do("POST", "/api/embed/chat", chat, nil)
			wantError(t, resp, out, 400, tt.code)
		})
	}
	if leads, counter := e.count(c); leads != 0 || counter != 0 {
		t.Errorf("%d leads and a counter of %d after refused consents, want none", leads, counter)
	}
	var sessions int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM chat_sessions WHERE company_id = $1`, c).Scan(&sessions); err != nil {
		t.Fatal(err)
	}
	if sessions != 0 {
		t.Errorf("%d chat sessions after refused consents, want none", sessions)
	}
}

// A chat consent goes on the lead the turn creates (source chat); one sent on a later turn
// replaces it, and the history keeps the change.
func TestChatConsent(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	sdk := e.sdk(e.key(c, auth.Private, nil, true).Key)
	text := "Kérek híreket."
	r := v.send("Szeretnék ajánlatot", func(r *leadclient.ChatRequest) {
		r.FirstName, r.Email = strp("Nagy Anna"), strp("anna@example.hu")
		r.Consent = &leadclient.ConsentInput{Marketing: false, Text: &text}
	})
	if r.LeadId == nil {
		t.Fatal("the contact form made no lead")
	}
	got, err := sdk.GetLead(ctx, r.LeadId.String())
	if err != nil {
		t.Fatal(err)
	}
	if got.Consent == nil || got.Consent.Marketing || got.Consent.Source != "chat" || got.Consent.Text == nil || *got.Consent.Text != text {
		t.Fatalf("chat lead consent = %+v, want the unticked text from chat", got.Consent)
	}
	first := got.Consent.GivenAt

	v.send("Mégis kérem a híreket", func(r *leadclient.ChatRequest) {
		r.Consent = &leadclient.ConsentInput{Marketing: true, Text: &text}
	})
	got, err = sdk.GetLead(ctx, r.LeadId.String())
	if err != nil {
		t.Fatal(err)
	}
	if got.Consent == nil || !got.Consent.Marketing || !got.Consent.GivenAt.After(first) {
		t.Errorf("consent after the second turn = %+v, want the ticked one, given later", got.Consent)
	}
	hist, err := e.store.LeadHistory(ctx, c, uuid.MustParse(r.LeadId.String()))
	if err != nil {
		t.Fatal(err)
	}
	var consents []lead.HistoryEntry
	for _, h := range hist {
		if h.Field == lead.FieldConsent {
			consents = append(consents, h)
		}
	}
	if len(consents) != 1 || consents[0].Origin != lead.OriginForm {
		t.Fatalf("consent history = %+v, want one change from the form", consents)
	}
	var was, now map[string]any
	if json.Unmarshal([]byte(consents[0].Old), &was) != nil || json.Unmarshal([]byte(consents[0].New), &now) != nil ||
		was["marketing"] != false || now["marketing"] != true {
		t.Errorf("consent history holds %q → %q, want the unticked then the ticked consent", consents[0].Old, consents[0].New)
	}
}

// The config always carries privacy_url and marketing_consent_text, null until set.
func TestConfigPrivacySettings(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	get := func() map[string]any {
		resp, body := e.do("GET", "/api/embed/config?api_key="+url.QueryEscape(key), "", map[string]string{"Origin": "https://example.hu"})
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %v", resp.StatusCode, body)
		}
		return body
	}
	body := get()
	for _, k := range []string{"privacy_url", "marketing_consent_text"} {
		if v, ok := body[k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
	s := widget.DefaultSettings()
	s.PrivacyURL, s.MarketingConsentText = strp("https://ceg.example/adatvedelem"), strp("Kérek híreket.")
	if err := e.store.SetWidgetSettings(ctx, c, s); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for body = get(); body["privacy_url"] == nil && time.Now().Before(deadline); body = get() {
		time.Sleep(20 * time.Millisecond) // the config cache follows the change feed
	}
	if body["privacy_url"] != "https://ceg.example/adatvedelem" || body["marketing_consent_text"] != "Kérek híreket." {
		t.Errorf("config = %v, want both settings", body)
	}
}
