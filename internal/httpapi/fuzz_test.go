package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
)

// slowest is the bound a fuzzed request must stay under. The target is 100 ms; the bound is
// looser so a busy machine does not fail the run, while a pathological input still does.
// A pathological input is slow every time it is sent, a busy moment once: a slow answer is
// sent again (slowTries times in all) and fails only when every try was slow.
const (
	slowest   = 500 * time.Millisecond
	slowTries = 3
)

// fuzzService opens the service in process, with a company and a key of each kind.
func fuzzService(f *testing.F) (h http.Handler, pub, priv string) {
	ctx := context.Background()
	svc, err := service.Open(ctx, service.Config{DatabaseURL: pgtest.NewDSN(f), MaxDBConns: 4, ShutdownGrace: time.Second}, io.Discard, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { svc.Close() })
	c, err := svc.Store().CreateCompany(ctx, "Fuzz Kft.", plan.Free, plan.Override{})
	if err != nil {
		f.Fatal(err)
	}
	p, err := admin.CreateKey(ctx, svc.Store(), c.ID, auth.Public, []string{"example.hu"}, true)
	if err != nil {
		f.Fatal(err)
	}
	k, err := admin.CreateKey(ctx, svc.Store(), c.ID, auth.Private, nil, true)
	if err != nil {
		f.Fatal(err)
	}
	return svc.Handler(), p.Key, k.Key
}

// checkAnswer sends the request newRequest makes to h and fails on a server error, an answer
// slow on every try or an error that is not our JSON body.
func checkAnswer(t *testing.T, h http.Handler, newRequest func() *http.Request) {
	t.Helper()
	var w *httptest.ResponseRecorder
	var took []time.Duration
	for len(took) < slowTries {
		w = httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(w, newRequest())
		took = append(took, time.Since(start))
		if w.Code >= 500 {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		if took[len(took)-1] <= slowest {
			break
		}
	}
	if len(took) == slowTries {
		t.Fatalf("slow on every try: %v", took)
	}
	if w.Code >= 400 {
		var e struct{ Error, Code string }
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" || e.Code == "" {
			t.Fatalf("status %d without the JSON error body: %q", w.Code, w.Body)
		}
	}
}

func FuzzLeadRequest(f *testing.F) {
	h, pub, priv := fuzzService(f)
	for _, s := range []string{
		`{"first_name": "Kovács Péter", "email": "peter@example.hu"}`,
		`{"first_name": "A", "email": "a@example.hu", "phone": "+36 30 123 4567", "source": "form", "referral_data": {"utm_source": "x", "evil": "y"}}`,
		`{"first_name": "", "email": "nope"}`,
		`{"first_name": "\u0000", "email": "a@example.hu", "details": "é"}`,
		`[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]`,
		"{\"first_name\": \"\xff\"}",
		`{"first_name": 1e999, "email": true}`,
	} {
		f.Add(s, "x-api-key", "", false)
	}
	f.Add(`{"api_key": "KEY", "first_name": "A", "email": "a@example.hu"}`, "body", "https://example.hu", true)
	f.Add(`{"first_name": "A", "email": "a@example.hu"}`, "bearer", "https://evil.example", true)
	f.Fuzz(func(t *testing.T, body, transport, origin string, public bool) {
		key := priv
		if public {
			key = pub
		}
		body = strings.ReplaceAll(body, "KEY", key)
		checkAnswer(t, h, func() *http.Request {
			req := httptest.NewRequest("POST", "/api/v1/leads", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			switch transport {
			case "x-api-key":
				req.Header.Set("X-Api-Key", key)
			case "bearer":
				req.Header.Set("Authorization", "Bearer "+key)
			}
			if origin != "" {
				req.Header.Set("Origin", origin)
			}
			return req
		})
	})
}

func FuzzChatRequest(f *testing.F) {
	h, pub, _ := fuzzService(f)
	for _, s := range []string{
		`{"api_key": "KEY", "message": "Szia! Kovács Péter vagyok, peter@example.hu, +36 30 123 4567"}`,
		`{"api_key": "KEY", "message": "Mennyibe kerül?", "session_id": "s-1"}`,
		`{"api_key": "KEY", "message": "Szia", "session_id": "fuzz-session-0000000001", "message_id": "m-1"}`,
		`{"api_key": "KEY", "message": "Mennyibe kerül?", "session_id": "q3Xr9_Zt-2LkVb8mNcPw1A"}`,
		`{"api_key": "KEY", "message": "sor 1\nsor 2\u202e", "first_name": "A\u0085", "phone": "\u202a+36 30 123 4567\u202c"}`,
		`{"api_key": "KEY", "message": "x", "session_id": "bad id", "email": "x"}`,
		`{"api_key": "KEY", "message": "", "referral_data": {"utm_source": 1}}`,
		`{"api_key": "KEY", "message": "06-30/123-4567 és 2024.05.12. 150 000 Ft"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		body = strings.ReplaceAll(body, "KEY", pub)
		checkAnswer(t, h, func() *http.Request {
			req := httptest.NewRequest("POST", "/api/embed/chat", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", "https://example.hu") // the key's allowed domain
			return req
		})
	})
}
