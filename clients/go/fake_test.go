package leadclient_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// The keys the fake service knows.
const (
	privateKey = "lc_priv_example"
	publicKey  = "lc_pub_example"
)

// fakeLeadchat starts a stand-in for the leadchat service, faithful to api/openapi.yaml in what
// the examples and tests touch: key checks, a little validation, a monthly limit of 250 leads of
// which 41 are used, idempotent replays, three stored leads in pages of two, the widget config
// and a one-line assistant.
func fakeLeadchat() *httptest.Server {
	f := &fake{used: 41, answers: map[string]storedAnswer{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/leads", f.createLead)
	mux.HandleFunc("GET /api/embed/config", f.widgetConfig)
	mux.HandleFunc("POST /api/embed/chat", f.chat)
	mux.HandleFunc("GET /api/v1/leads", pages(3, 2))
	return httptest.NewServer(mux)
}

// fake is the state of one fakeLeadchat.
type fake struct {
	mu       sync.Mutex
	requests int
	used     int
	answers  map[string]storedAnswer
}

// storedAnswer is what an Idempotency-Key replays.
type storedAnswer struct {
	body  string
	count int
	id    string
}

const fakeLimit = 250

func (f *fake) createLead(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	w.Header().Set("X-Request-Id", fmt.Sprintf("req-%d", f.requests))
	if r.Header.Get("x-api-key") != privateKey {
		writeError(w, http.StatusUnauthorized, "invalid_api_key", "Az API-kulcs érvénytelen vagy visszavonták.")
		return
	}
	var in struct {
		FirstName string `json:"first_name"`
		Email     string `json:"email"`
	}
	raw, err := io.ReadAll(r.Body)
	if err == nil {
		err = json.Unmarshal(raw, &in)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_json", "A kérés törzse nem érvényes JSON.")
		return
	}
	switch {
	case in.FirstName == "":
		writeError(w, http.StatusBadRequest, "missing_field", "Hiányzó kötelező mező: first_name.")
		return
	case !strings.Contains(in.Email, "@"):
		writeError(w, http.StatusBadRequest, "invalid_email", "Az e-mail cím formátuma érvénytelen.")
		return
	}
	key := r.Header.Get("Idempotency-Key")
	if a, ok := f.answers[key]; ok && key != "" {
		if a.body != string(raw) {
			writeError(w, http.StatusUnprocessableEntity, "idempotency_key_reused", "Ezt az Idempotency-Key-t már más kéréssel használták.")
			return
		}
		w.Header().Set("Idempotent-Replayed", "true")
		writeCreated(w, a)
		return
	}
	f.used++
	a := storedAnswer{body: string(raw), count: f.used, id: fmt.Sprintf("0b7f3c52-5f3e-4c8e-9a7a-%012d", f.used)}
	if key != "" {
		f.answers[key] = a
	}
	writeCreated(w, a)
}

func writeCreated(w http.ResponseWriter, a storedAnswer) {
	w.Header().Set("X-Lead-Limit", strconv.Itoa(fakeLimit))
	w.Header().Set("X-Lead-Count", strconv.Itoa(a.count))
	writeJSON(w, http.StatusCreated, map[string]any{"success": true, "lead_id": a.id, "over_limit": a.count > fakeLimit})
}

func (f *fake) widgetConfig(w http.ResponseWriter, r *http.Request) {
	switch key := r.URL.Query().Get("api_key"); {
	case strings.HasPrefix(key, "lc_priv_"):
		writeError(w, http.StatusForbidden, "private_key_from_browser", "Privát API-kulcs nem használható böngészőből.")
	case key != publicKey:
		writeError(w, http.StatusUnauthorized, "invalid_api_key", "Az API-kulcs érvénytelen vagy visszavonták.")
	default:
		writeJSON(w, http.StatusOK, map[string]any{
			"welcome_message":     "Üdvözöljük! Miben segíthetünk?",
			"quick_buttons":       []string{"Árajánlatot kérek", "Visszahívást kérek"},
			"contact_prompt_text": nil,
			"require_phone":       true,
			"gate_quote":          false,
			"language":            "hu",
			"chat_theme":          map[string]any{"primary_hex": "#0A7C66"},
		})
	}
}

func (f *fake) chat(w http.ResponseWriter, r *http.Request) {
	var in struct {
		APIKey    string `json:"api_key"`
		Message   string `json:"message"`
		SessionID string `json:"session_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_json", "A kérés törzse nem érvényes JSON.")
		return
	}
	if in.APIKey != publicKey && in.APIKey != privateKey {
		writeError(w, http.StatusUnauthorized, "invalid_api_key", "Az API-kulcs érvénytelen vagy visszavonták.")
		return
	}
	session := in.SessionID
	if session == "" {
		session = "3f1e2d4c-5b6a-4789-8abc-def012345678"
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"reply":           "Szívesen készítünk árajánlatot! Kérem, adja meg a nevét és az e-mail címét.",
		"lead_id":         nil,
		"session_id":      session,
		"request_contact": true,
	})
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, map[string]string{"error": message, "code": code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
