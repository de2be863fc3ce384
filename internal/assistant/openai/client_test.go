package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leadchat/leadchat/internal/assistant"
)

const testKey = "sk-test-0123456789abcdef"

// server is a local Chat Completions endpoint; respond answers attempt n (from 1).
type server struct {
	*httptest.Server
	attempts atomic.Int32
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
}

func newServer(t *testing.T, respond func(w http.ResponseWriter, r *http.Request, n int)) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.attempts.Add(1))
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests, s.bodies = append(s.requests, r), append(s.bodies, string(body))
		s.mu.Unlock()
		respond(w, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

// content answers with one choice holding content, the way every compatible server does.
func content(w http.ResponseWriter, text string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": text}}},
	})
}

func status(w http.ResponseWriter, code int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	io.WriteString(w, `{"error": {"message": "Incorrect API key provided: `+testKey+`", "type": "invalid_request_error"}}`)
}

func newClient(t *testing.T, baseURL string, cfg Config) *Client {
	t.Helper()
	cfg.BaseURL, cfg.Model = baseURL+"/v1", "test-model"
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.backoff = time.Millisecond
	return c
}

var alfa = assistant.Profile{CompanyName: "Alfa Web Kft.", Description: "Szegedi webfejlesztők.",
	Services: []assistant.Service{{Name: "Webshop", Description: "Webáruház.", Price: "3 500 000 Ft-tól"}},
	FAQ:      []assistant.QA{{Question: "Van garancia?", Answer: "12 hónap."}}}

var beta = assistant.Profile{CompanyName: "Béta Pékség Bt.", Description: "Kovászos kenyér Debrecenben.",
	FAQ: []assistant.QA{{Question: "Mikor sütnek?", Answer: "Hajnali négykor."}}}

func alfaTurn() assistant.Turn {
	return assistant.Turn{Language: assistant.Hungarian, Profile: alfa, Message: "Mennyibe kerül a webshop?",
		History: []assistant.Message{{Visitor: true, Text: "Jó napot!"}, {Text: "Jó napot kívánok! Miben segíthetek?"}},
		Missing: []string{"name", "email"}, RequestContact: true}
}

func TestAnswerGoodJSON(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		content(w, `{"reply": "A Webshop ára 3 500 000 Ft-tól. Megadná a nevét?", "contact": {"name": " Kovács Péter ", "email": "", "phone": ""}}`)
	})
	c := newClient(t, srv.URL, Config{})
	got, err := c.Answer(context.Background(), alfaTurn())
	if err != nil {
		t.Fatal(err)
	}
	want := assistant.Answer{Text: "A Webshop ára 3 500 000 Ft-tól. Megadná a nevét?", Proposed: assistant.Contact{Name: "Kovács Péter"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}

	r := srv.requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		t.Errorf("request %s %s", r.Method, r.URL.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	var body struct {
		Model          string            `json:"model"`
		Messages       []message         `json:"messages"`
		Temperature    float64           `json:"temperature"`
		ResponseFormat map[string]string `json:"response_format"`
	}
	if err := json.Unmarshal([]byte(srv.bodies[0]), &body); err != nil {
		t.Fatal(err)
	}
	if body.Model != "test-model" || body.Temperature != 0.3 || body.ResponseFormat["type"] != "json_object" {
		t.Errorf("body = %+v", body)
	}
	roles := []string{}
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if diff := cmp.Diff([]string{"system", "user", "assistant", "user"}, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
	system := body.Messages[0].Content
	for _, s := range []string{"Alfa Web Kft.", "3 500 000 Ft-tól", "Van garancia?", "Hungarian", `"reply"`, "name, email"} {
		if !strings.Contains(system, s) {
			t.Errorf("system prompt lacks %q:\n%s", s, system)
		}
	}
	if last := body.Messages[3].Content; last != "Mennyibe kerül a webshop?" {
		t.Errorf("last message = %q", last)
	}
}

func TestAnswerSendsOnlyThisTurn(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { content(w, `{"reply": "Rendben."}`) })
	c := newClient(t, srv.URL, Config{})
	first := assistant.Turn{Profile: beta, Message: "Mikor sütnek?",
		History: []assistant.Message{{Visitor: true, Text: "A nevem Nagy Éva, eva@example.hu"}}}
	if _, err := c.Answer(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(context.Background(), alfaTurn()); err != nil {
		t.Fatal(err)
	}
	second := srv.bodies[1]
	for _, s := range []string{"Béta", "Pékség", "Kovászos", "Hajnali", "Mikor sütnek", "Nagy Éva", "eva@example.hu"} {
		if strings.Contains(second, s) {
			t.Errorf("the second company's request holds %q of the first:\n%s", s, second)
		}
	}
	if !strings.Contains(second, "Alfa Web Kft.") {
		t.Error("the second request lacks its own profile")
	}
}

func TestAnswerGatedPromptHoldsNoPrice(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { content(w, `{"reply": "Ajánlatot küldünk."}`) })
	turn := alfaTurn()
	turn.GateQuote = true
	if _, err := newClient(t, srv.URL, Config{}).Answer(context.Background(), turn); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(srv.bodies[0], "3 500 000") || !strings.Contains(srv.bodies[0], "Do NOT state any price") {
		t.Errorf("gated request:\n%s", srv.bodies[0])
	}
}
