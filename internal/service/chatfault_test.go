package service_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/pgembed"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/service"
)

// The database stops after a chat turn was read and answered, before it is written: the client
// gets 503 and nothing of the turn is stored (no message, session, lead or count). Once the
// database is back, the retry with the same message_id is answered and stored once, and a
// second retry returns that answer without asking the model again or storing anything.
func TestChatTurnDatabaseDownBeforeTheWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cluster, data := ownCluster(t)
	port := cluster.Port()

	// The model answers every call; on the first it stops the database before answering.
	var calls atomic.Int32
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			if err := cluster.Stop(context.Background()); err != nil {
				t.Errorf("stopping the database: %v", err)
			}
		}
		body, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{
			"role": "assistant", "content": `{"reply": "Köszönöm, felvettük.", "contact": {"name": "", "email": "", "phone": ""}}`}}}})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(model.Close)

	r := serve(t, service.Config{DatabaseURL: cluster.DSN("postgres"), MaxDBConns: 4, ShutdownGrace: 5 * time.Second,
		AI: service.AIConfig{BaseURL: model.URL, Model: "test-model", APIKey: "sk-test", Timeout: 10 * time.Second}})
	store := r.svc.Store()
	c, err := store.CreateCompany(ctx, "Teszt Kft.", plan.Pro, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := admin.CreateKey(ctx, store, c.ID, auth.Public, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"api_key": "` + k.Key + `", "session_id": "chat-fault-session-00000001", "message_id": "m-1",
		"message": "Kérek egy ajánlatot, az e-mail címem anna@example.hu"}`
	chat := func() (int, map[string]any) {
		req, _ := http.NewRequest("POST", r.base+"/api/embed/chat", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}

	if code, out := chat(); code != 503 || out["code"] != "unavailable" {
		t.Fatalf("database down before the write: %d %v, want 503 unavailable", code, out)
	}
	if cluster, err = pgembed.Start(ctx, pgembed.Options{DataDir: data, Port: port}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Stop(context.Background()) })
	db := store.DB()
	counts := func() (sessions, messages, leads, counted int) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			err := db.QueryRow(`SELECT (SELECT count(*) FROM chat_sessions), (SELECT count(*) FROM chat_messages),
				(SELECT count(*) FROM leads), (SELECT coalesce(sum(count), 0) FROM lead_counters)`).
				Scan(&sessions, &messages, &leads, &counted)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the database did not come back: %v", err)
			}
		}
	}
	if s, m, l, n := counts(); s+m+l+n != 0 {
		t.Fatalf("after the failed turn: %d sessions, %d messages, %d leads, count %d; want nothing", s, m, l, n)
	}

	var first map[string]any
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		code, out := chat()
		if code == 200 {
			first = out
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the retry did not succeed: %d %v", code, out)
		}
	}
	if first["lead_id"] == nil || first["reply"] != "Köszönöm, felvettük." {
		t.Fatalf("retry answered %v, want the model's reply and a lead", first)
	}
	modelCalls := calls.Load()
	code, again := chat()
	if code != 200 || again["reply"] != first["reply"] || again["lead_id"] != first["lead_id"] ||
		again["request_contact"] != first["request_contact"] {
		t.Errorf("second retry: %d %v, want the first answer %v", code, again, first)
	}
	if calls.Load() != modelCalls {
		t.Errorf("the second retry asked the model again")
	}
	if s, m, l, n := counts(); s != 1 || m != 2 || l != 1 || n != 1 {
		t.Errorf("after the retries: %d sessions, %d messages, %d leads, count %d; want 1, 2, 1, 1", s, m, l, n)
	}
	var visitorMessages int
	if err := db.QueryRow(`SELECT visitor_messages FROM chat_sessions`).Scan(&visitorMessages); err != nil || visitorMessages != 1 {
		t.Errorf("visitor_messages = %d (%v), want 1: a retry does not count against the cap", visitorMessages, err)
	}
}
