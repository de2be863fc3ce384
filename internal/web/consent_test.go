package web_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/lead"
)

// The lead page shows the consent the lead holds: the choice, when and where, the text seen and
// the notice linked.
func TestLeadPageShowsConsent(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	text, notice := "Kérek híreket a Napfénytől.", "https://napfeny.example/adatvedelem"
	l := f.addLead(t, f.a, lead.Lead{FirstName: "Anna", Email: "anna@pelda.hu", Source: lead.SourceForm,
		Consent: &lead.Consent{Marketing: true, Text: &text, PrivacyURL: &notice, Source: lead.SourceForm,
			GivenAt: time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC)}})
	c := f.client(t)
	c.login(f.owner)
	r := c.get("/app/leads/" + l.ID.String())
	if r.status != http.StatusOK {
		t.Fatalf("GET the lead: %d", r.status)
	}
	page := html.UnescapeString(r.body)
	for _, want := range []string{"Marketinghez hozzájárult", "2026. 03. 02. 10:15", "„" + text + "”", `href="` + notice + `"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the lead page lacks %q", want)
		}
	}
	if strings.Contains(page, "nincs rögzítve") {
		t.Error("the lead page says no consent is recorded")
	}
}

// The widget page sets and unsets the privacy notice and the consent text, and refuses a notice
// that is not https with the field named.
func TestWidgetPagePrivacySettings(t *testing.T) {
	t.Parallel()
	f := start(t)
	c := f.client(t)
	c.login(f.owner)
	form := func(privacy, consent string) url.Values {
		return url.Values{"welcome_message": {"Szia!"}, "language": {"hu"}, "privacy_url": {privacy}, "marketing_consent_text": {consent}}
	}
	r := c.post("/app/widget", form("https://ceg.example/adatvedelem", "Kérek híreket."))
	if r.status != http.StatusSeeOther {
		t.Fatalf("saving the privacy settings: %d", r.status)
	}
	s, err := f.store.WidgetSettings(t.Context(), f.a.ID)
	if err != nil || s.PrivacyURL == nil || *s.PrivacyURL != "https://ceg.example/adatvedelem" || s.MarketingConsentText == nil || *s.MarketingConsentText != "Kérek híreket." {
		t.Fatalf("stored settings %+v, %v", s, err)
	}
	if page := c.get("/app/widget").body; !strings.Contains(page, `value="https://ceg.example/adatvedelem"`) || !strings.Contains(html.UnescapeString(page), "Kérek híreket.</textarea>") {
		t.Error("the widget page does not show the stored privacy settings")
	}
	r = c.post("/app/widget", form("http://ceg.example/adatvedelem", "Kérek híreket."))
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(r.body), "Adatkezelési tájékoztató címe (https://") {
		t.Errorf("an http notice: %d, want 422 naming the field", r.status)
	}
	if r := c.post("/app/widget", form("", "")); r.status != http.StatusSeeOther {
		t.Fatalf("unsetting: %d", r.status)
	}
	if s, err := f.store.WidgetSettings(t.Context(), f.a.ID); err != nil || s.PrivacyURL != nil || s.MarketingConsentText != nil {
		t.Errorf("after emptying both: %+v, %v", s, err)
	}
}

// Erasing a lead from its page takes an owner and a ticked confirmation; a member, another
// company and a cross-site post are refused and the lead stays.
func TestEraseLeadFromItsPage(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	path := "/app/leads/" + f.chat.ID.String()
	exists := func() bool {
		_, err := f.store.GetLead(t.Context(), f.a.ID, f.chat.ID)
		return err == nil
	}
	m := f.client(t)
	m.login(f.member)
	if r := m.get(path); r.status != http.StatusOK || strings.Contains(r.body, "/erase") {
		t.Errorf("a member's lead page: %d, offers erasure %v", r.status, strings.Contains(r.body, "/erase"))
	}
	if r := m.post(path+"/erase", url.Values{"confirm": {"on"}}); r.status != http.StatusForbidden {
		t.Errorf("a member erases: %d, want 403", r.status)
	}
	bOwner := f.client(t)
	bOwner.login(f.ownerB)
	if r := bOwner.post(path+"/erase", url.Values{"confirm": {"on"}}); r.status != http.StatusNotFound {
		t.Errorf("another company's owner erases: %d, want 404", r.status)
	}
	c := f.client(t)
	c.login(f.owner)
	if r := c.post(path+"/erase", url.Values{"confirm": {"on"}}, "Sec-Fetch-Site", "cross-site"); r.status != http.StatusForbidden {
		t.Errorf("a cross-site erase: %d, want 403", r.status)
	}
	if r := c.post(path+"/erase", url.Values{}); r.status != http.StatusSeeOther || r.location != path {
		t.Errorf("an erase without the confirmation: %d to %s, want back to the lead", r.status, r.location)
	}
	if !exists() {
		t.Fatal("the lead is gone after refused erasures")
	}
	if r := c.post(path+"/erase", url.Values{"confirm": {"on"}}); r.status != http.StatusSeeOther || r.location != "/app/leads" {
		t.Errorf("the owner erases: %d to %s", r.status, r.location)
	}
	if exists() {
		t.Error("the lead is still there after the owner erased it")
	}
	if r := c.post(path+"/erase", url.Values{"confirm": {"on"}}); r.status != http.StatusNotFound {
		t.Errorf("erasing it again: %d, want 404", r.status)
	}
}

// The lead page lists the questions the assistant handed over, below the note that sums the
// chat up: a conversation through the chat endpoint makes the lead.
func TestLeadPageListsUnansweredQuestions(t *testing.T) {
	t.Parallel()
	f := start(t)
	if err := f.store.SetAssistantProfile(t.Context(), f.a.ID, []byte(`{"company_name": "A Napelem Kft.",
		"faq": [{"question": "Mennyi a garancia?", "answer": "25 év a panelekre."}]}`)); err != nil {
		t.Fatal(err)
	}
	open := "Van parkoló az üzlet előtt?"
	var session, leadID string
	for _, m := range []string{open, "Kiss Anna vagyok, anna.kiss@example.hu"} {
		body, _ := json.Marshal(map[string]any{"api_key": f.keyA.Key, "message": m, "session_id": cmp.Or(session, "web-test-unanswered-0123456789")})
		res, err := http.Post(f.base+"/api/embed/chat", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var reply struct {
			SessionID string  `json:"session_id"`
			LeadID    *string `json:"lead_id"`
		}
		err = json.NewDecoder(res.Body).Decode(&reply)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("chat %q: %d %v", m, res.StatusCode, err)
		}
		session = reply.SessionID
		if reply.LeadID != nil {
			leadID = *reply.LeadID
		}
	}
	if leadID == "" {
		t.Fatal("no lead after the contact details")
	}
	c := f.client(t)
	c.login(f.owner)
	r := c.get("/app/leads/" + leadID)
	if r.status != http.StatusOK {
		t.Fatalf("GET the lead: %d", r.status)
	}
	page := html.UnescapeString(r.body)
	for _, want := range []string{"Megválaszolatlan kérdések", "<li>" + open + "</li>", "Nyitott kérdések: „" + open + "”"} {
		if !strings.Contains(page, want) {
			t.Errorf("the lead page lacks %q", want)
		}
	}
}
