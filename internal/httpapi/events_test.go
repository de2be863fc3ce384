package httpapi_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
)

// counts are a company's widget events of today, and every column the table has: nothing of a
// visitor is among them.
func counts(t *testing.T, e *env, company fmt.Stringer) (shown, opened int, columns []string) {
	t.Helper()
	row := e.store.DB().QueryRow(`SELECT coalesce(sum(shown), 0), coalesce(sum(opened), 0) FROM widget_events WHERE company_id = $1`, company.String())
	if err := row.Scan(&shown, &opened); err != nil {
		t.Fatal(err)
	}
	rows, err := e.store.DB().Query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'widget_events' ORDER BY ordinal_position`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		_ = rows.Scan(&c)
		columns = append(columns, c)
	}
	return shown, opened, columns
}

// The widget's events are counted per company and day for a public key from its allowed
// domains, as JSON or as the text/plain sendBeacon sends; private keys, other sites, unknown
// types and a client over its budget are refused and counted nowhere.
func TestWidgetEvents(t *testing.T) {
	e := startWith(t, limited)
	c := e.company(plan.Business, -1)
	pub := e.key(c, auth.Public, []string{"shop.example.com"}, true).Key
	priv := e.key(c, auth.Private, nil, true).Key
	site := map[string]string{"Origin": "https://shop.example.com", "X-Forwarded-For": "203.0.113.7"}
	send := func(body string, header map[string]string) (int, map[string]any) {
		resp, b := e.do("POST", "/api/embed/events", body, header)
		return resp.StatusCode, b
	}
	if st, b := send(`{"api_key": "`+pub+`", "type": "shown"}`, site); st != 204 {
		t.Fatalf("shown: %d %v", st, b)
	}
	plain := map[string]string{"Origin": "https://shop.example.com", "X-Forwarded-For": "203.0.113.7", "Content-Type": "text/plain;charset=UTF-8"}
	if st, b := send(`{"api_key": "`+pub+`", "type": "opened"}`, plain); st != 204 {
		t.Fatalf("opened as text/plain: %d %v", st, b)
	}
	for _, tt := range []struct {
		name, body string
		header     map[string]string
		status     int
		code       string
	}{
		{"a private key", `{"api_key": "` + priv + `", "type": "shown"}`, map[string]string{"X-Forwarded-For": "203.0.113.8"}, 403, "public_key_required"},
		{"another site", `{"api_key": "` + pub + `", "type": "shown"}`, map[string]string{"Origin": "https://evil.example", "X-Forwarded-For": "203.0.113.9"}, 403, "origin_not_allowed"},
		{"an unknown type", `{"api_key": "` + pub + `", "type": "clicked"}`, map[string]string{"Origin": "https://shop.example.com", "X-Forwarded-For": "203.0.113.10"}, 400, "invalid_field"},
		{"no key", `{"type": "shown"}`, map[string]string{"Origin": "https://shop.example.com", "X-Forwarded-For": "203.0.113.11"}, 400, "missing_api_key"},
		{"a form body", `api_key=x`, map[string]string{"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "203.0.113.12"}, 415, "unsupported_media_type"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("POST", "/api/embed/events", tt.body, tt.header)
			wantError(t, resp, body, tt.status, tt.code)
		})
	}
	// The client spent 2 of its 4 a minute above; the rest go, then it is 429.
	var statuses []int
	for range 4 {
		st, _ := send(`{"api_key": "`+pub+`", "type": "shown"}`, site)
		statuses = append(statuses, st)
	}
	if fmt.Sprint(statuses) != "[204 204 429 429]" {
		t.Errorf("statuses past the budget: %v", statuses)
	}
	// The counts are written once a second, in one statement for every company.
	shown, opened, cols := counts(t, e, c)
	for deadline := time.Now().Add(10 * time.Second); shown < 3 || opened < 1; shown, opened, cols = counts(t, e, c) {
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if shown != 3 || opened != 1 {
		t.Errorf("counted %d shown, %d opened; want 3 and 1", shown, opened)
	}
	if fmt.Sprint(cols) != "[company_id day shown opened]" {
		t.Errorf("widget_events holds %v; want counts per company and day only", cols)
	}
	if resp, _ := e.do("OPTIONS", "/api/embed/events", "", map[string]string{"Origin": "https://shop.example.com",
		"Access-Control-Request-Method": "POST"}); resp.StatusCode != 204 {
		t.Errorf("preflight: %d", resp.StatusCode)
	}
}
