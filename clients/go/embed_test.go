package leadclient_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

func TestWidgetConfig(t *testing.T) {
	srv, s := serve(t, failing(503, "unavailable", "Nem érhető el."), func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{
			"welcome_message": "Szia!", "quick_buttons": []string{}, "contact_prompt_text": nil,
			"require_phone": false, "gate_quote": false, "language": "en", "chat_theme": nil,
		})
	})
	lc, err := leadclient.New(srv.URL, "lc_pub_x+y")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := lc.WidgetConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.WelcomeMessage != "Szia!" || cfg.Language != leadclient.En || cfg.ChatTheme != nil {
		t.Errorf("config = %+v", cfg)
	}
	reqs := s.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	r := reqs[1]
	if r.method != http.MethodGet || r.path != "/api/embed/config" || r.query != "api_key=lc_pub_x%2By" {
		t.Errorf("request = %s %s?%s", r.method, r.path, r.query)
	}
	if r.header.Get("X-Api-Key") != "" || r.header.Get("Idempotency-Key") != "" {
		t.Errorf("headers = %v", r.header)
	}
}

func TestChat(t *testing.T) {
	reply := func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{
			"reply": "Szívesen!", "lead_id": leadID, "session_id": "s-1", "request_contact": false,
		})
	}

	t.Run("sends the key in the body", func(t *testing.T) {
		srv, s := serve(t, reply)
		got, err := newSDK(t, srv.URL).Chat(context.Background(), leadclient.ChatMessage{
			Message: "Szia", SessionID: "s-1", Email: "peter@example.hu",
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.Reply != "Szívesen!" || got.LeadId == nil || *got.LeadId != leadID || got.SessionId != "s-1" {
			t.Errorf("reply = %+v", got)
		}
		want := `{"api_key":"lc_priv_example","email":"peter@example.hu","message":"Szia","session_id":"s-1"}`
		if body := strings.TrimSpace(string(s.requests()[0].body)); body != want {
			t.Errorf("body = %s\nwant   %s", body, want)
		}
	})

	for _, tc := range []struct {
		name     string
		first    http.HandlerFunc
		requests int
	}{
		{"500 is not retried", failing(500, "internal", "Belső hiba történt."), 1},
		{"session limit is not retried", failing(429, "session_limit", "Elérte a limitet."), 1},
		{"503 is retried", failing(503, "unavailable", "Nem érhető el."), 2},
		{"rate limit is retried", failing(429, "rate_limited", "Túl sok kérés."), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, s := serve(t, tc.first, reply)
			_, _ = newSDK(t, srv.URL).Chat(context.Background(), leadclient.ChatMessage{Message: "Szia"})
			if n := len(s.requests()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
		})
	}
}
