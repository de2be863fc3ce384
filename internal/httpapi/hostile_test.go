package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/widget"
)

// TestHostileInput sends what an attacker or a broken client would, straight over HTTP: each
// gets its 4xx with the JSON error, and nothing is stored.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Free, -1)
	priv := e.key(c, auth.Private, nil, true).Key
	pub := e.key(c, auth.Public, nil, true).Key
	manyKeys := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `,"k%d":"v"`, i)
		}
		return `{"first_name":"A","email":"a@example.hu","referral_data":{"utm_source":"x"` + b.String() + `}}`
	}
	for _, tt := range []struct {
		name   string
		path   string
		body   string
		header map[string]string
		status int
		code   string
	}{
		{"invalid UTF-8", "/api/v1/leads", "{\"first_name\":\"\xc3\x28\",\"email\":\"a@example.hu\"}", nil, 400, "invalid_json"},
		{"NUL escape", "/api/v1/leads", `{"first_name":"\u0000","email":"a@example.hu"}`, nil, 400, "invalid_characters"},
		{"raw NUL byte", "/api/v1/leads", "{\"first_name\":\"a\x00\",\"email\":\"a@example.hu\"}", nil, 400, "invalid_json"},
		{"invalid UTF-8 in a chat message", "/api/embed/chat", "{\"api_key\":\"" + pub + "\",\"message\":\"a\xffb\"}", nil, 400, "invalid_json"},
		{"raw NUL byte in a chat message", "/api/embed/chat", "{\"api_key\":\"" + pub + "\",\"message\":\"a\x00b\"}", nil, 400, "invalid_json"},
		{"NUL escape in a chat message", "/api/embed/chat", `{"api_key":"` + pub + `","message":"a\u0000b"}`, nil, 400, "invalid_characters"},
		{"deeply nested JSON", "/api/v1/leads", strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000), nil, 400, "invalid_json"},
		{"huge number", "/api/v1/leads", `{"first_name":"A","email":"a@example.hu","phone":1e999999}`, nil, 400, "invalid_phone"},
		{"duplicate keys", "/api/v1/leads", `{"first_name":"A","email":"a@example.hu","email":"not an email"}`, nil, 400, "invalid_email"},
		{"10,000 referral keys", "/api/v1/leads", manyKeys(10000), nil, 413, "body_too_large"},
		{"4,000 referral keys", "/api/v1/leads", manyKeys(4000), nil, 400, "invalid_referral_data"},
		{"very long header", "/api/v1/leads", `{"first_name":"A","email":"a@example.hu"}`, map[string]string{"X-Junk": strings.Repeat("a", 34000)}, 431, "headers_too_large"},
		{"64 KiB chat message", "/api/embed/chat", `{"api_key":"` + pub + `","message":"` + strings.Repeat("é", 32*1024) + `"}`, nil, 413, "body_too_large"},
		{"chat message just over 2,000", "/api/embed/chat", `{"api_key":"` + pub + `","message":"` + strings.Repeat("é", 2001) + `"}`, nil, 400, "invalid_field"},
		{"empty body", "/api/v1/leads", " ", nil, 400, "invalid_json"},
		{"JSON null", "/api/v1/leads", "null", nil, 400, "invalid_json"},
		{"trailing garbage", "/api/v1/leads", `{"first_name":"A","email":"a@example.hu"} {"x":1}`, nil, 400, "invalid_json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"X-Api-Key": priv}
			for k, v := range tt.header {
				h[k] = v
			}
			// The contract client would refuse to send some of these; go around it.
			req, _ := http.NewRequest("POST", e.base+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range h {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			wantError(t, resp, decode(t, resp), tt.status, tt.code)
		})
	}
	if n, counter := e.count(c); n != 0 || counter != 0 {
		t.Errorf("hostile input left %d leads and a counter of %d", n, counter)
	}
	var sessions int
	_ = e.store.DB().QueryRow(`SELECT count(*) FROM chat_sessions`).Scan(&sessions)
	if sessions != 0 {
		t.Errorf("hostile input left %d chat sessions", sessions)
	}
}

// TestTenantIsolation: no key of one company reads, extends or counts against another's data.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	a, b := e.company(plan.Business, 5), e.company(plan.Business, 5)
	if err := e.store.SetWidgetSettings(ctx, a, widget.Settings{Language: "hu", WelcomeMessage: strp("A cég üdvözlete")}); err != nil {
		t.Fatal(err)
	}
	aPriv, bPriv := e.key(a, auth.Private, nil, true).Key, e.key(b, auth.Private, nil, true).Key
	bPub := e.key(b, auth.Public, nil, true).Key

	t.Run("leads go to the key's company and count there only", func(t *testing.T) {
		for range 3 {
			if resp, _ := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": aPriv}); resp.StatusCode != 201 {
				t.Fatal(resp.StatusCode)
			}
		}
		resp, _ := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": bPriv})
		if got := resp.Header.Get("X-Lead-Count"); got != "1" {
			t.Errorf("company B's first lead has X-Lead-Count %q, want 1", got)
		}
		if na, _ := e.count(a); na != 3 {
			t.Errorf("company A has %d leads, want 3", na)
		}
	})
	t.Run("a body company_id is ignored", func(t *testing.T) {
		body := fmt.Sprintf(`{"first_name": "X", "email": "x@example.hu", "company_id": %q}`, a)
		if resp, _ := e.do("POST", "/api/v1/leads", body, map[string]string{"X-Api-Key": bPriv}); resp.StatusCode != 201 {
			t.Fatal(resp.StatusCode)
		}
		if na, _ := e.count(a); na != 3 {
			t.Errorf("company A has %d leads after B's create naming it", na)
		}
	})
	t.Run("config shows the key's company only", func(t *testing.T) {
		_, body := e.do("GET", "/api/embed/config?api_key="+bPub, "", nil)
		if body["welcome_message"] == "A cég üdvözlete" {
			t.Error("company B's widget got company A's welcome message")
		}
	})
	t.Run("idempotency keys are per company", func(t *testing.T) {
		_, first := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": aPriv, "Idempotency-Key": "k1"})
		_, second := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": bPriv, "Idempotency-Key": "k1"})
		if first["lead_id"] == second["lead_id"] {
			t.Error("company B replayed company A's answer")
		}
	})
}

// TestLockTimeoutAnswers503: a lead create that waits on a lock held elsewhere gives up after
// the connection's lock timeout with 503, instead of hanging, and leaves nothing behind.
func TestLockTimeoutAnswers503(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Private, nil, true).Key
	if resp, _ := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key}); resp.StatusCode != 201 {
		t.Fatalf("first create: %d", resp.StatusCode)
	}
	tx, err := e.store.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM lead_counters WHERE company_id = $1 FOR UPDATE`, c); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key})
	wantError(t, resp, body, 503, "unavailable")
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the blocked create took %v", d)
	}
	tx.Rollback()
	if n, counter := e.count(c); n != 1 || counter != 1 {
		t.Errorf("after the timed-out create: %d leads, counter %d; want 1, 1", n, counter)
	}
}
