package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/service"
)

// fakeModel speaks the Chat Completions wire format with whatever reply() returns; ctx ends when
// the client gives up on the request.
func fakeModel(t *testing.T, reply func(ctx context.Context, system string) (status int, content string)) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		system := ""
		if len(req.Messages) > 0 {
			system = req.Messages[0].Content
		}
		status, content := reply(r.Context(), system)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		body, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{
			"message": map[string]any{"role": "assistant", "content": content}}}})
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// withModel points the service at a fake model, with the client's own attempt timeout: a
// loaded machine must not turn a fake model's prompt answer into a timeout and a retry, which
// the tests that count the model's calls would see as an extra call.
func withModel(url string) func(*service.Config) {
	return func(c *service.Config) {
		c.AI = service.AIConfig{BaseURL: url, Model: "test-model", APIKey: "sk-test"}
	}
}

// withImpatientModel is withModel giving up on each attempt after 300 ms, for the tests of a
// slow model.
func withImpatientModel(url string) func(*service.Config) {
	return func(c *service.Config) { withModel(url)(c); c.AI.Timeout = 300 * time.Millisecond }
}

func TestChatWithModel(t *testing.T) {
	t.Parallel()
	model, calls := fakeModel(t, func(_ context.Context, system string) (int, string) {
		return 200, `{"reply": "A modell válasza.", "contact": {"name": "Kiss Béla", "email": "bela@example.hu", "phone": ""}}`
	})
	e := startWith(t, withModel(model.URL))
	c := e.company(plan.Pro, -1)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}

	r := v.send("Szia, érdeklődnék.", nil)
	if r.Reply != "A modell válasza." {
		t.Errorf("reply = %q, want the model's", r.Reply)
	}
	if r.LeadId != nil {
		t.Errorf("the model proposed details the visitor never wrote, and a lead %v was made", *r.LeadId)
	}
	r = v.send("A címem bela@example.hu", nil)
	if r.LeadId == nil {
		t.Fatal("no lead after the visitor wrote an email")
	}
	leads, _ := lead.Collect(lead.All(t.Context(), e.store, c, lead.Filter{}))
	if len(leads) != 1 || leads[0].FirstName != "" || leads[0].Email != "bela@example.hu" {
		t.Errorf("leads = %+v: want one lead with the email the visitor wrote and no name (only the model proposed one)", leads)
	}
	if calls.Load() != 2 {
		t.Errorf("model called %d times, want 2", calls.Load())
	}
}

func TestChatModelFailuresFallBack(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		reply func(context.Context, string) (int, string)
	}{
		{"server error", func(context.Context, string) (int, string) { return 500, "" }},
		{"malformed answer", func(context.Context, string) (int, string) { return 200, "" }},
		// The answer comes long after the client's attempt timeout, or not at all once the client
		// has given up: the test server's Close waits for its handlers.
		{"too slow", func(ctx context.Context, _ string) (int, string) {
			select {
			case <-ctx.Done():
			case <-time.After(2 * time.Second):
			}
			return 200, `{"reply": "késő"}`
		}},
		{"leaks a price while gated", func(context.Context, string) (int, string) { return 200, `{"reply": "Ez 2 450 000 Ft."}` }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			model, _ := fakeModel(t, tt.reply)
			e := startWith(t, withImpatientModel(model.URL))
			c := e.company(plan.Pro, -1)
			if _, err := e.store.DB().Exec(`INSERT INTO widget_settings (company_id, gate_quote) VALUES ($1, true)`, c); err != nil {
				t.Fatal(err)
			}
			v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
			start := time.Now()
			r := v.send("Mennyibe kerül?", nil)
			if r.Reply == "" || strings.Contains(r.Reply, "késő") || priceRE.MatchString(r.Reply) {
				t.Errorf("reply = %q, want the built-in assistant's", r.Reply)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the fallback took %v", d)
			}
		})
	}
}

func TestChatModelBudget(t *testing.T) {
	t.Parallel()
	model, calls := fakeModel(t, func(context.Context, string) (int, string) { return 200, `{"reply": "modell"}` })
	e := startWith(t, withModel(model.URL))
	c := e.company(plan.Free, -1)
	// Spend today's budget of the free plan (100 replies) but one.
	if _, err := e.store.DB().Exec(`INSERT INTO model_usage (company_id, day, replies)
		VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 99)`, c); err != nil {
		t.Fatal(err)
	}
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	if r := v.send("Szia", nil); r.Reply != "modell" {
		t.Errorf("reply 100 = %q, want the model's", r.Reply)
	}
	if r := v.send("Szia", nil); r.Reply == "modell" {
		t.Error("reply 101 came from the model past the daily budget")
	}
	if calls.Load() != 1 {
		t.Errorf("model called %d times, want 1", calls.Load())
	}
	var used int
	_ = e.store.DB().QueryRow(`SELECT replies FROM model_usage WHERE company_id = $1`, c).Scan(&used)
	if used != 100 {
		t.Errorf("budget counter = %d, want 100", used)
	}
}

// A turn that loses its race to another write of its session reads the session again; when the
// assistant would see the same turn, the model's first answer is reused: the model is asked,
// and the company's budget charged, once. When the other write changed what the model sees (a
// message was added), the model is asked again.
func TestChatLostRaceAsksTheModelOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		race      string // the other write, made while the model answers the second message
		wantCalls int32
	}{
		{"nothing the model sees changed", `UPDATE chat_sessions SET version = version + 1
			WHERE company_id = $1 AND session_id = $2`, 2},
		{"a message was added", `WITH m AS (INSERT INTO chat_messages (company_id, session_id, visitor, text)
			VALUES ($1, $2, false, 'Egy kolléga válasza.'))
			UPDATE chat_sessions SET version = version + 1 WHERE company_id = $1 AND session_id = $2`, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// race runs once, inside the model's answer to the second message.
			var race atomic.Pointer[func()]
			model, calls := fakeModel(t, func(context.Context, string) (int, string) {
				if f := race.Swap(nil); f != nil {
					(*f)()
				}
				return 200, `{"reply": "modell"}`
			})
			e := startWith(t, withModel(model.URL))
			c := e.company(plan.Pro, -1)
			v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
			v.send("Szia!", nil)
			f := func() {
				if _, err := e.store.DB().Exec(tt.race, c, *v.session); err != nil {
					t.Error(err)
				}
			}
			race.Store(&f)
			if r := v.send("Mikor vagytok nyitva?", nil); r.Reply != "modell" {
				t.Errorf("reply = %q, want the model's", r.Reply)
			}
			if race.Load() != nil {
				t.Fatal("the race never ran")
			}
			if got := calls.Load(); got != tt.wantCalls {
				t.Errorf("model called %d times for two messages, want %d", got, tt.wantCalls)
			}
			var used int32
			if err := e.store.DB().QueryRow(`SELECT replies FROM model_usage WHERE company_id = $1`, c).Scan(&used); err != nil {
				t.Fatal(err)
			}
			if used != tt.wantCalls {
				t.Errorf("budget counter = %d, want %d (one per model call)", used, tt.wantCalls)
			}
			var visitor int
			if err := e.store.DB().QueryRow(`SELECT count(*) FROM chat_messages WHERE company_id = $1 AND visitor`, c).Scan(&visitor); err != nil {
				t.Fatal(err)
			}
			if visitor != 2 {
				t.Errorf("%d visitor messages stored, want 2", visitor)
			}
		})
	}
}
