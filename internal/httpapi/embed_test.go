package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/widget"
)

func strp(s string) *string { return &s }

func TestWidgetConfig(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	radius, hide := 20, true
	full := widget.Settings{Language: "hu", PrimaryHex: strp("#0a7c66"), AccentHex: strp("#F2B705"),
		HeaderTitle: strp("Napfény"), BorderRadiusPx: &radius, HidePoweredBy: &hide,
		WelcomeMessage: strp("Szia!"), QuickButtons: []string{"Ár"}, GateQuote: true, RequirePhone: true}
	for _, tt := range []struct {
		plan  plan.Plan
		theme map[string]any
	}{
		{plan.Free, nil},
		{plan.Starter, nil},
		{plan.Pro, map[string]any{"primary_hex": "#0A7C66"}},
		{plan.Business, map[string]any{"primary_hex": "#0A7C66", "accent_hex": "#F2B705", "header_title": "Napfény", "border_radius_px": 20.0, "hide_powered_by": true}},
		{plan.Enterprise, map[string]any{"primary_hex": "#0A7C66", "accent_hex": "#F2B705", "header_title": "Napfény", "border_radius_px": 20.0, "hide_powered_by": true}},
	} {
		t.Run(string(tt.plan), func(t *testing.T) {
			c := e.company(tt.plan, -1)
			if err := e.store.SetWidgetSettings(ctx, c, full); err != nil {
				t.Fatal(err)
			}
			key := e.key(c, auth.Public, nil, true).Key
			resp, body := e.do("GET", "/api/embed/config?api_key="+url.QueryEscape(key), "", map[string]string{"Origin": "https://example.hu"})
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %v", resp.StatusCode, body)
			}
			var theme map[string]any
			if body["chat_theme"] != nil {
				theme = body["chat_theme"].(map[string]any)
			}
			if diff := cmp.Diff(tt.theme, theme); diff != "" {
				t.Errorf("chat_theme (-want +got):\n%s", diff)
			}
			if body["welcome_message"] != "Szia!" || body["gate_quote"] != true || body["require_phone"] != true {
				t.Errorf("settings = %v", body)
			}
		})
	}

	t.Run("defaults", func(t *testing.T) {
		key := e.key(e.company(plan.Free, -1), auth.Public, nil, true).Key
		r, err := e.client.GetWidgetConfigWithResponse(ctx, &leadclient.GetWidgetConfigParams{ApiKey: key})
		if err != nil || r.JSON200 == nil {
			t.Fatalf("%v %d %s", err, r.StatusCode(), r.Body)
		}
		got := r.JSON200
		if got.WelcomeMessage != "Üdvözöljük! Miben segíthetünk?" || len(got.QuickButtons) == 0 ||
			got.ContactPromptText != nil || got.ChatTheme != nil || got.Language != "hu" {
			t.Errorf("defaults = %+v", got)
		}
	})

	c := e.company(plan.Pro, -1)
	pub := e.key(c, auth.Public, []string{"example.hu"}, true).Key
	priv := e.key(c, auth.Private, nil, true).Key
	for _, tt := range []struct {
		name   string
		query  string
		header map[string]string
		status int
		code   string
	}{
		{"missing api_key", "", nil, 400, "missing_api_key"},
		{"empty api_key", "?api_key=", nil, 400, "missing_api_key"},
		{"invalid key", "?api_key=lc_pub_nope", nil, 401, "invalid_api_key"},
		{"private key from a server", "?api_key=" + priv, nil, 403, "public_key_required"},
		{"private key from a browser", "?api_key=" + priv, map[string]string{"Origin": "https://example.hu"}, 403, "private_key_from_browser"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("GET", "/api/embed/config"+tt.query, "", tt.header)
			wantError(t, resp, body, tt.status, tt.code)
		})
	}
	t.Run("the allowed-domain list gates the config", func(t *testing.T) {
		resp, body := e.do("GET", "/api/embed/config?api_key="+pub, "", map[string]string{"Origin": "https://other.example"})
		wantError(t, resp, body, 403, "origin_not_allowed")
	})

	t.Run("widget set from another process reaches the cache at once", func(t *testing.T) {
		get := func() string {
			_, body := e.do("GET", "/api/embed/config?api_key="+pub, "", map[string]string{"Origin": "https://example.hu"})
			return fmt.Sprint(body["welcome_message"])
		}
		before := get() // now cached
		other, err := openStore(e.dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if err := other.SetWidgetSettings(ctx, c, widget.Settings{Language: "hu", WelcomeMessage: strp("Új üdvözlet")}); err != nil {
			t.Fatal(err)
		}
		set := time.Now()
		for get() != "Új üdvözlet" {
			if time.Since(set) > 2*time.Second {
				t.Fatalf("config still %q 2 s after widget set (was %q)", get(), before)
			}
			time.Sleep(2 * time.Millisecond)
		}
		t.Logf("new settings served after %v", time.Since(set))
	})
}

// chatter is one visitor's conversation through the generated client.
type chatter struct {
	t       *testing.T
	e       *env
	key     string
	session *string
}

func (c *chatter) send(msg string, edit func(*leadclient.ChatRequest)) *leadclient.ChatReply {
	c.t.Helper()
	req := leadclient.ChatRequest{ApiKey: c.key, Message: msg, SessionId: c.session}
	if edit != nil {
		edit(&req)
	}
	r, err := c.e.client.SendChatMessageWithResponse(context.Background(), req)
	if err != nil || r.JSON200 == nil {
		c.t.Fatalf("chat %q: %v %d %s", msg, err, r.StatusCode(), r.Body)
	}
	c.session = &r.JSON200.SessionId
	return r.JSON200
}

var priceRE = regexp.MustCompile(`\d[\d  .]*\s*(Ft|forint|HUF)`)

func TestChatConversation(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	if err := e.store.SetWidgetSettings(ctx, c, widget.Settings{Language: "hu", GateQuote: true, RequirePhone: true}); err != nil {
		t.Fatal(err)
	}
	setProfile(t, e, c)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}

	r := v.send("Jó napot!", func(r *leadclient.ChatRequest) {
		r.ReferralData = &leadclient.ReferralData{"utm_source": "facebook", "evil": "x", "landing_page": "https://napfeny.example/"}
	})
	if _, err := uuid.Parse(r.SessionId); err != nil {
		t.Errorf("session_id %q is not a UUID", r.SessionId)
	}
	if r.LeadId != nil || r.RequestContact {
		t.Errorf("greeting: lead %v, request_contact %v", r.LeadId, r.RequestContact)
	}
	if r.Reply == "" {
		t.Error("empty reply")
	}

	r = v.send("Mennyibe kerül egy 5 kW-os napelem rendszer?", nil)
	if !r.RequestContact {
		t.Error("a price question with incomplete contact should request contact")
	}
	if priceRE.MatchString(r.Reply) {
		t.Errorf("gate_quote on, yet the reply states a price: %q", r.Reply)
	}

	r = v.send("Kovács Péter vagyok, az e-mail címem peter.kovacs@example.hu", nil)
	if r.LeadId == nil {
		t.Fatal("no lead after an email")
	}
	leadID := *r.LeadId
	if !r.RequestContact {
		t.Error("phone required and missing: request_contact should stay true")
	}

	r = v.send("Elküldtem.", func(r *leadclient.ChatRequest) {
		r.Phone = strp("06 30 123 4567")
		r.Email = strp("peter@kovacs.example") // the form wins over the text's address
	})
	if r.LeadId == nil || *r.LeadId != leadID {
		t.Errorf("lead changed from %v to %v", leadID, r.LeadId)
	}
	if r.RequestContact {
		t.Error("contact complete: request_contact should be false")
	}

	leads, err := lead.Collect(lead.All(ctx, e.store, c, lead.Filter{}))
	if err != nil || len(leads) != 1 {
		t.Fatalf("leads = %d, %v; want one", len(leads), err)
	}
	l := leads[0]
	want := lead.Lead{ID: leadID, FirstName: "Péter", LastName: "Kovács", Email: "peter@kovacs.example",
		Phone: "06 30 123 4567", PhoneE164: "+36301234567", Source: lead.SourceChat,
		Service:      "Napelem",
		ReferralData: map[string]string{"utm_source": "facebook", "landing_page": "https://napfeny.example/"}}
	if diff := cmp.Diff(want, l.Lead, cmpopts.IgnoreFields(lead.Lead{}, "Note", "Unanswered")); diff != "" {
		t.Errorf("chat lead (-want +got):\n%s", diff)
	}
	// What the visitor asked for, for the salesperson, as labels; the messages that only gave
	// contact details add nothing to the note. (Whether the assistant handed the price
	// question over, which would add an open question, is the assistant's matter.)
	if summary := "Érdeklődik: Napelem\nKérdezte: ár"; !strings.HasPrefix(l.Note, summary) {
		t.Errorf("chat lead note %q, want it to start %q", l.Note, summary)
	}

	r = v.send("És mennyibe kerül?", nil)
	if r.RequestContact {
		t.Error("contact complete: request_contact should be false")
	}
	// Later questions keep the lead's note current, in the same turn's write.
	v.send("Szeretnék árajánlatot kérni.", nil)
	leads, err = lead.Collect(lead.All(ctx, e.store, c, lead.Filter{}))
	if err != nil || len(leads) != 1 || !strings.HasPrefix(leads[0].Note, "Érdeklődik: Napelem\nKér: árajánlat\nKérdezte: ár") ||
		leads[0].Service != "Napelem" {
		t.Errorf("after another question: %+v, %v", leads, err)
	}
}

func setProfile(t *testing.T, e *env, c uuid.UUID) {
	t.Helper()
	profile := `{"company_name": "Napfény Napelem Kft.", "description": "Napelemek telepítése Budapesten.",
		"opening_hours": "Hétfőtől péntekig 8–17", "services": [{"name": "Napelem", "description": "5 kW", "price": "2 450 000 Ft-tól"}],
		"faq": [{"question": "Mennyi a garancia?", "answer": "25 év a panelekre."}]}`
	if err := e.store.SetAssistantProfile(context.Background(), c, []byte(profile)); err != nil {
		t.Fatal(err)
	}
}

func TestChatRequestContactRules(t *testing.T) {
	t.Parallel()
	e := start(t)
	key := e.key(e.company(plan.Free, -1), auth.Public, nil, true).Key
	for _, tt := range []struct {
		name     string
		messages []string
		want     bool
	}{
		{"greeting", []string{"Szia!"}, false},
		{"buying intent", []string{"Szeretnék rendelni egy rendszert"}, true},
		{"asks a quote", []string{"Kérnék egy árajánlatot"}, true},
		{"asks a call back", []string{"Hívjanak vissza kérem"}, true},
		{"two messages without details", []string{"Szia!", "Hol vannak?"}, true},
		{"email and name complete it", []string{"Szeretnék rendelni. Nagy Anna vagyok, anna@example.hu"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := &chatter{t: t, e: e, key: key}
			var r *leadclient.ChatReply
			for _, m := range tt.messages {
				r = v.send(m, nil)
			}
			if r.RequestContact != tt.want {
				t.Errorf("request_contact = %v, want %v (reply %q)", r.RequestContact, tt.want, r.Reply)
			}
		})
	}
}

func TestChatErrors(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	pub := e.key(c, auth.Public, nil, true).Key
	priv := e.key(c, auth.Private, nil, true).Key
	for _, tt := range []struct {
		name   string
		body   string
		header map[string]string
		status int
		code   string
	}{
		{"missing api_key", `{"message": "Szia"}`, nil, 400, "missing_api_key"},
		{"missing message", `{"api_key": "` + pub + `"}`, nil, 400, "missing_field"},
		{"blank message", `{"api_key": "` + pub + `", "message": "  "}`, nil, 400, "missing_field"},
		{"message over 2000", `{"api_key": "` + pub + `", "message": "` + strings.Repeat("a", 2001) + `"}`, nil, 400, "invalid_field"},
		{"invalid key", `{"api_key": "lc_pub_x", "message": "Szia"}`, nil, 401, "invalid_api_key"},
		{"private key from a browser", `{"api_key": "` + priv + `", "message": "Szia"}`, map[string]string{"Origin": "https://example.hu"}, 403, "private_key_from_browser"},
		{"bad session_id", `{"api_key": "` + pub + `", "message": "Szia", "session_id": "a b"}`, nil, 400, "invalid_session_id"},
		{"empty message_id", `{"api_key": "` + pub + `", "message": "Szia", "message_id": ""}`, nil, 400, "invalid_message_id"},
		{"message_id over 64", `{"api_key": "` + pub + `", "message": "Szia", "message_id": "` + strings.Repeat("m", 65) + `"}`, nil, 400, "invalid_message_id"},
		{"bad message_id", `{"api_key": "` + pub + `", "message": "Szia", "message_id": "a/b"}`, nil, 400, "invalid_message_id"},
		{"session_id over 128", `{"api_key": "` + pub + `", "message": "Szia", "session_id": "` + strings.Repeat("s", 129) + `"}`, nil, 400, "invalid_session_id"},
		{"bad form email", `{"api_key": "` + pub + `", "message": "Szia", "email": "nope"}`, nil, 400, "invalid_email"},
		{"bad form phone", `{"api_key": "` + pub + `", "message": "Szia", "phone": "12"}`, nil, 400, "invalid_phone"},
		{"NUL in message", `{"api_key": "` + pub + `", "message": "a\u0000b"}`, nil, 400, "invalid_characters"},
		{"ESC in message", `{"api_key": "` + pub + `", "message": "a\u001b[2Jb"}`, nil, 400, "invalid_characters"},
		{"C1 in message", `{"api_key": "` + pub + `", "message": "a\u009bb"}`, nil, 400, "invalid_characters"},
		{"newline in form name", `{"api_key": "` + pub + `", "message": "Szia", "first_name": "Anna\nBéla"}`, nil, 400, "invalid_characters"},
		{"bidi control in form name", `{"api_key": "` + pub + `", "message": "Szia", "first_name": "Anna\u202e"}`, nil, 400, "invalid_characters"},
		{"bidi control in form email", `{"api_key": "` + pub + `", "message": "Szia", "email": "anna\u2066@example.hu"}`, nil, 400, "invalid_characters"},
		{"control character in form phone", `{"api_key": "` + pub + `", "message": "Szia", "phone": "+36 30\u0007123 4567"}`, nil, 400, "invalid_characters"},
		{"session_id under 22", `{"api_key": "` + pub + `", "message": "Szia", "session_id": "` + strings.Repeat("s", 21) + `"}`, nil, 400, "invalid_session_id"},
		{"one-character session_id", `{"api_key": "` + pub + `", "message": "Szia", "session_id": "1"}`, nil, 400, "invalid_session_id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("POST", "/api/embed/chat", tt.body, tt.header)
			wantError(t, resp, body, tt.status, tt.code)
		})
	}
	var sessions int
	_ = e.store.DB().QueryRow(`SELECT count(*) FROM chat_sessions`).Scan(&sessions)
	if sessions != 0 {
		t.Errorf("bad requests left %d sessions", sessions)
	}
	t.Run("a client-chosen session_id of 22 characters", func(t *testing.T) {
		sid := "q3Xr9_Zt-2LkVb8mNcPw1A" // 16 random bytes in base64url, as the widget makes them
		resp, body := e.do("POST", "/api/embed/chat", `{"api_key": "`+pub+`", "message": "Szia", "session_id": "`+sid+`"}`, nil)
		if resp.StatusCode != 200 || body["session_id"] != sid {
			t.Errorf("status %d: %v", resp.StatusCode, body)
		}
	})
	t.Run("private key from a server", func(t *testing.T) {
		resp, body := e.do("POST", "/api/embed/chat", `{"api_key": "`+priv+`", "message": "Szia"}`, nil)
		if resp.StatusCode != 200 {
			t.Errorf("status %d: %v", resp.StatusCode, body)
		}
	})
}

func TestChatSessionCap(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	for i := range 50 {
		v.send(fmt.Sprintf("Kérdés %d", i), nil)
	}
	body := fmt.Sprintf(`{"api_key": %q, "session_id": %q, "message": "Még egy"}`, v.key, *v.session)
	resp, out := e.do("POST", "/api/embed/chat", body, nil)
	wantError(t, resp, out, 429, "session_limit")
	var visitor int
	_ = e.store.DB().QueryRow(`SELECT count(*) FROM chat_messages WHERE visitor`).Scan(&visitor)
	if visitor != 50 {
		t.Errorf("%d visitor messages stored, want 50", visitor)
	}
}

func TestChatTenantIsolation(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	a, b := e.company(plan.Free, -1), e.company(plan.Free, -1)
	va := &chatter{t: t, e: e, key: e.key(a, auth.Public, nil, true).Key, session: strp("shared-session-0000000001")}
	vb := &chatter{t: t, e: e, key: e.key(b, auth.Public, nil, true).Key, session: strp("shared-session-0000000001")}
	ra := va.send("Nagy Anna vagyok, anna@example.hu, +36 30 111 2222", nil)
	rb := vb.send("Szia!", nil)
	if ra.LeadId == nil {
		t.Fatal("company A got no lead")
	}
	if rb.LeadId != nil {
		t.Errorf("company B's session sees lead %v of company A", rb.LeadId)
	}
	if strings.Contains(rb.Reply, "Anna") || strings.Contains(rb.Reply, "anna@example.hu") {
		t.Errorf("company B's reply mentions company A's visitor: %q", rb.Reply)
	}
	if leads, _ := lead.Collect(lead.All(ctx, e.store, b, lead.Filter{})); len(leads) != 0 {
		t.Errorf("company B has %d leads", len(leads))
	}
	if n, counter := e.count(b); n != 0 || counter != 0 {
		t.Errorf("company B counted %d/%d leads", n, counter)
	}
}

func TestChatLeadLimit(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, 0)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	r := v.send("anna@example.hu", nil)
	if r.LeadId == nil {
		t.Fatal("no lead")
	}
	leads, _ := lead.Collect(lead.All(context.Background(), e.store, c, lead.Filter{}))
	if len(leads) != 1 || leads[0].Status != lead.StatusOverLimit || leads[0].Source != lead.SourceChat {
		t.Errorf("leads = %+v, want one over_limit chat lead", leads)
	}
}

func TestChatDropsBotContactQuietly(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	fast, slow := 300, 5000
	for _, tt := range []struct {
		name     string
		honeypot *string
		fill     *int
		lead     bool
	}{
		{"honeypot filled", strp("http://spam.example"), &slow, false},
		{"filled too fast", nil, &fast, false},
		{"a person", strp(""), &slow, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := &chatter{t: t, e: e, key: key}
			r := v.send("Elküldtem az elérhetőségeimet.", func(r *leadclient.ChatRequest) {
				r.FirstName, r.Email = strp("Bot Béla"), strp("bela@example.hu")
				r.Honeypot, r.FormFillMs = tt.honeypot, tt.fill
			})
			if r.Reply == "" {
				t.Error("no reply: a bot must see an ordinary answer")
			}
			if (r.LeadId != nil) != tt.lead {
				t.Errorf("lead_id = %v, want a lead: %v", r.LeadId, tt.lead)
			}
		})
	}
	resp, err := http.Get(e.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(raw), "leadchat_bot_submissions_dropped_total 2") {
		t.Error("the two bot submissions were not counted")
	}
}
