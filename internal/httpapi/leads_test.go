package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
)

const okBody = `{"first_name": "Kovács Péter", "email": "peter@example.hu"}`

func TestCreateLeadKeyTransports(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	priv := e.key(c, auth.Private, nil, true).Key
	other := e.key(e.company(plan.Enterprise, -1), auth.Private, nil, true).Key

	tests := []struct {
		name   string
		header map[string]string
		body   string
		status int
		code   string
	}{
		{"x-api-key header", map[string]string{"X-Api-Key": priv}, okBody, 201, ""},
		{"bearer header", map[string]string{"Authorization": "Bearer " + priv}, okBody, 201, ""},
		{"body api_key", nil, `{"api_key": "` + priv + `", "first_name": "Anna", "email": "anna@example.hu"}`, 201, ""},
		{"x-api-key wins over a bad bearer", map[string]string{"X-Api-Key": priv, "Authorization": "Bearer nope"}, okBody, 201, ""},
		{"x-api-key wins over a good bearer", map[string]string{"X-Api-Key": "lc_priv_bad", "Authorization": "Bearer " + priv}, okBody, 401, "invalid_api_key"},
		{"bearer wins over body", map[string]string{"Authorization": "Bearer " + other}, `{"api_key": "` + priv + `", "first_name": "A", "email": "a@example.hu"}`, 201, ""},
		{"missing key", nil, okBody, 401, "missing_api_key"},
		{"malformed key", map[string]string{"X-Api-Key": "hello"}, okBody, 401, "invalid_api_key"},
		{"mistyped key", map[string]string{"X-Api-Key": priv[:len(priv)-1] + flip(priv[len(priv)-1])}, okBody, 401, "invalid_api_key"},
		{"unknown well-formed key", map[string]string{"X-Api-Key": mustGenerate(t, auth.Private)}, okBody, 401, "invalid_api_key"},
		{"private key from a browser", map[string]string{"X-Api-Key": priv, "Origin": "https://example.hu"}, okBody, 403, "private_key_from_browser"},
		{"missing key beats a bad body", nil, `{"email": "x"}`, 401, "missing_api_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("POST", "/api/v1/leads", tt.body, tt.header)
			if tt.status == 201 {
				if resp.StatusCode != 201 || body["success"] != true {
					t.Fatalf("status %d, body %v; want 201", resp.StatusCode, body)
				}
				return
			}
			wantError(t, resp, body, tt.status, tt.code)
		})
	}
	// Which company got the lead tells which key was used.
	if n, _ := e.count(c); n != 4 {
		t.Errorf("company got %d leads, want 4", n)
	}
}

func flip(b byte) string {
	if b == 'a' {
		return "b"
	}
	return "a"
}

func mustGenerate(t *testing.T, k auth.Kind) string {
	key, err := auth.Generate(k)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestCreateLeadValidation(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	key := e.key(c, auth.Private, nil, true).Key
	long := func(n int) string { return strings.Repeat("a", n) }

	tests := []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"missing first_name", `{"email": "a@example.hu"}`, 400, "missing_field"},
		{"blank first_name", `{"first_name": "   ", "email": "a@example.hu"}`, 400, "missing_field"},
		{"empty first_name", `{"first_name": "", "email": "a@example.hu"}`, 400, "missing_field"},
		{"missing email", `{"first_name": "Anna"}`, 400, "missing_field"},
		{"blank email", `{"first_name": "Anna", "email": "  "}`, 400, "missing_field"},
		{"email without domain dot", `{"first_name": "Anna", "email": "anna@localhost"}`, 400, "invalid_email"},
		{"email with display name", `{"first_name": "Anna", "email": "Anna <anna@example.hu>"}`, 400, "invalid_email"},
		{"two emails", `{"first_name": "Anna", "email": "a@example.hu, b@example.hu"}`, 400, "invalid_email"},
		{"not an email", `{"first_name": "Anna", "email": "anna"}`, 400, "invalid_email"},
		{"email over 254", `{"first_name": "Anna", "email": "` + long(250) + `@example.hu"}`, 400, "invalid_email"},
		{"phone with too few digits", `{"first_name": "Anna", "email": "a@example.hu", "phone": "12345"}`, 400, "invalid_phone"},
		{"phone with too many digits", `{"first_name": "Anna", "email": "a@example.hu", "phone": "1234567890123456"}`, 400, "invalid_phone"},
		{"phone over 50", `{"first_name": "Anna", "email": "a@example.hu", "phone": "+36 30 123 4567` + strings.Repeat(" ", 40) + `"}`, 400, "invalid_phone"},
		{"unknown source", `{"first_name": "Anna", "email": "a@example.hu", "source": "fax"}`, 400, "invalid_source"},
		{"first_name over 200", `{"first_name": "` + long(201) + `", "email": "a@example.hu"}`, 400, "invalid_field"},
		{"service over 200", `{"first_name": "A", "email": "a@example.hu", "service": "` + long(201) + `"}`, 400, "invalid_field"},
		{"details over 10000", `{"first_name": "A", "email": "a@example.hu", "details": "` + long(10001) + `"}`, 400, "invalid_field"},
		{"first_name a number", `{"first_name": 12, "email": "a@example.hu"}`, 400, "invalid_field"},
		{"huge number", `{"first_name": 1e999, "email": "a@example.hu"}`, 400, "invalid_field"},
		{"referral_data not an object", `{"first_name": "A", "email": "a@example.hu", "referral_data": "x"}`, 400, "invalid_referral_data"},
		{"referral value not a string", `{"first_name": "A", "email": "a@example.hu", "referral_data": {"utm_source": 5}}`, 400, "invalid_referral_data"},
		{"referral value too long", `{"first_name": "A", "email": "a@example.hu", "referral_data": {"utm_source": "` + long(2049) + `"}}`, 400, "invalid_referral_data"},
		{"NUL in a name", `{"first_name": "A\u0000B", "email": "a@example.hu"}`, 400, "invalid_characters"},
		{"ESC sequence in a name", `{"first_name": "A\u001b[2J", "email": "a@example.hu"}`, 400, "invalid_characters"},
		{"newline in a last name", `{"first_name": "A", "last_name": "B\r\nC", "email": "a@example.hu"}`, 400, "invalid_characters"},
		{"DEL in a service", `{"first_name": "A", "email": "a@example.hu", "service": "x\u007f"}`, 400, "invalid_characters"},
		{"C1 in a service", `{"first_name": "A", "email": "a@example.hu", "service": "x\u0085y"}`, 400, "invalid_characters"},
		{"NEL ending a last name", `{"first_name": "A", "last_name": "Kovács\u0085", "email": "a@example.hu"}`, 400, "invalid_characters"},
		{"NEL starting a first name", `{"first_name": "\u0085Anna", "email": "a@example.hu"}`, 400, "invalid_characters"},
		{"NEL ending an email", `{"first_name": "A", "email": "a@example.hu\u0085"}`, 400, "invalid_characters"},
		{"NEL ending a phone", `{"first_name": "A", "email": "a@example.hu", "phone": "+36 30 123 4567\u0085"}`, 400, "invalid_characters"},
		{"C1 ending a service", `{"first_name": "A", "email": "a@example.hu", "service": "x\u009f"}`, 400, "invalid_characters"},
		{"right-to-left override in a name", `{"first_name": "A\u202eB", "email": "a@example.hu"}`, 400, "invalid_characters"},
		{"bidi isolate in an email", `{"first_name": "A", "email": "a\u2067@example.hu"}`, 400, "invalid_characters"},
		{"left-to-right mark in a phone", `{"first_name": "A", "email": "a@example.hu", "phone": "\u200e+36 30 123 4567"}`, 400, "invalid_characters"},
		{"NUL in details", `{"first_name": "A", "email": "a@example.hu", "details": "a\u0000b"}`, 400, "invalid_characters"},
		{"ESC in details", `{"first_name": "A", "email": "a@example.hu", "details": "a\u001b]8;;https://evil.org\u0007b"}`, 400, "invalid_characters"},
		{"NUL in a referral value", `{"first_name": "A", "email": "a@example.hu", "referral_data": {"utm_source": "\u0000"}}`, 400, "invalid_referral_data"},
		{"not JSON", `{"first_name": `, 400, "invalid_json"},
		{"a JSON array", `[1, 2]`, 400, "invalid_json"},
		{"a JSON string", `"hello"`, 400, "invalid_json"},
		{"deeply nested", `{"first_name": "A", "email": "a@example.hu", "x": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, 400, "invalid_json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("POST", "/api/v1/leads", tt.body, map[string]string{"X-Api-Key": key})
			wantError(t, resp, body, tt.status, tt.code)
		})
	}

	t.Run("invalid UTF-8", func(t *testing.T) {
		resp, body := e.do("POST", "/api/v1/leads", "{\"first_name\": \"\xff\xfe\", \"email\": \"a@example.hu\"}", map[string]string{"X-Api-Key": key})
		wantError(t, resp, body, 400, "invalid_json")
	})
	t.Run("not JSON content type", func(t *testing.T) {
		resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key, "Content-Type": "text/plain"})
		wantError(t, resp, body, 415, "unsupported_media_type")
	})
	t.Run("body over 64 KiB", func(t *testing.T) {
		big := `{"first_name": "A", "email": "a@example.hu", "details": "` + long(70000) + `"}`
		resp, body := e.do("POST", "/api/v1/leads", big, map[string]string{"X-Api-Key": key})
		wantError(t, resp, body, 413, "body_too_large")
	})
	t.Run("10,000 referral keys", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"first_name": "A", "email": "a@example.hu", "referral_data": {`)
		for i := range 10000 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":""`, i)
		}
		b.WriteString("}}")
		resp, body := e.do("POST", "/api/v1/leads", b.String(), map[string]string{"X-Api-Key": key})
		if resp.StatusCode != 400 && resp.StatusCode != 413 {
			t.Fatalf("status %d, want 400 or 413 (%v)", resp.StatusCode, body)
		}
	})
	if n, counter := e.count(c); n != 0 || counter != 0 {
		t.Errorf("bad input left %d leads and a counter of %d behind", n, counter)
	}
}

func TestCreateLeadStoresNormalisedFields(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	key := e.key(c, auth.Private, nil, true).Key
	// Member names are exact, as the validator reads them: "SERVICE" is an unknown field.
	body := `{"first_name": "  Péter ", "last_name": "Kovács", "email": " Peter.Kovacs@Example.HU ",
		"phone": "06 30 123 4567", "service": "Napelem", "SERVICE": "Hőszivattyú", "details": "Családi ház",
		"status": "won", "company_id": "` + uuid.NewString() + `", "id": "` + uuid.NewString() + `",
		"created_at": "2000-01-01T00:00:00Z", "unknown": {"deep": [1]},
		"referral_data": {"utm_source": "google", "landing_page": "https://example.hu/a?b=c", "evil": "x", "gclid": "abc"}}`
	resp, out := e.do("POST", "/api/v1/leads", body, map[string]string{"X-Api-Key": key})
	if resp.StatusCode != 201 {
		t.Fatalf("status %d: %v", resp.StatusCode, out)
	}
	leads, err := lead.Collect(lead.All(context.Background(), e.store, c, lead.Filter{}))
	if err != nil || len(leads) != 1 {
		t.Fatalf("leads = %v, %v", leads, err)
	}
	l := leads[0]
	if l.ID.String() != out["lead_id"] {
		t.Errorf("stored id %s, answered %v", l.ID, out["lead_id"])
	}
	checks := []struct{ field, got, want string }{
		{"first_name", l.FirstName, "Péter"},
		{"last_name", l.LastName, "Kovács"},
		{"email", l.Email, "Peter.Kovacs@example.hu"},
		{"phone", l.Phone, "06 30 123 4567"},
		{"phone_e164", l.PhoneE164, "+36301234567"},
		{"service", l.Service, "Napelem"},
		{"details.note", l.Note, "Családi ház"},
		{"source", string(l.Source), "api"},
		{"status", string(l.Status), "new"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.field, ch.got, ch.want)
		}
	}
	wantRef := map[string]string{"utm_source": "google", "landing_page": "https://example.hu/a?b=c", "gclid": "abc"}
	if fmt.Sprint(l.ReferralData) != fmt.Sprint(wantRef) {
		t.Errorf("referral_data = %v, want %v", l.ReferralData, wantRef)
	}
	if time.Since(l.CreatedAt) > time.Minute {
		t.Errorf("created_at = %v: the client's value was used", l.CreatedAt)
	}

	t.Run("source given", func(t *testing.T) {
		src := leadclient.LeadSource("form")
		r, err := e.client.CreateLeadWithResponse(context.Background(), nil,
			leadclient.LeadInput{FirstName: "Anna", Email: "anna@example.hu", Source: &src},
			withKey(key))
		if err != nil || r.JSON201 == nil {
			t.Fatalf("create: %v, %d %s", err, r.StatusCode(), r.Body)
		}
		leads, _ := lead.Collect(lead.All(context.Background(), e.store, c, lead.Filter{}))
		if leads[0].Source != lead.SourceForm {
			t.Errorf("source = %q, want form", leads[0].Source)
		}
	})
}

func withKey(key string) leadclient.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-Api-Key", key)
		return nil
	}
}

func TestCreateLeadMonthlyLimit(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	limited := e.company(plan.Free, 2)
	sdk := e.sdk(e.key(limited, auth.Private, nil, true).Key)
	for i, want := range []struct {
		over  bool
		count int
	}{{false, 1}, {false, 2}, {true, 3}, {true, 4}} {
		r, err := sdk.CreateLead(ctx, leadclient.Lead{FirstName: "A", Email: "a@example.hu"})
		if err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
		if r.OverLimit != want.over {
			t.Errorf("create %d: over_limit = %v, want %v", i, r.OverLimit, want.over)
		}
		if r.Limit == nil || *r.Limit != 2 {
			t.Errorf("create %d: X-Lead-Limit = %v, want 2", i, r.Limit)
		}
		if r.Count == nil || *r.Count != want.count {
			t.Errorf("create %d: X-Lead-Count = %v, want %d", i, r.Count, want.count)
		}
	}
	leads, _ := lead.Collect(lead.All(ctx, e.store, limited, lead.Filter{}))
	statuses := map[lead.Status]int{}
	for _, l := range leads {
		statuses[l.Status]++
	}
	if statuses[lead.StatusNew] != 2 || statuses[lead.StatusOverLimit] != 2 {
		t.Errorf("statuses = %v, want 2 new and 2 over_limit", statuses)
	}

	t.Run("plan default", func(t *testing.T) {
		r, err := e.sdk(e.key(e.company(plan.Starter, -1), auth.Private, nil, true).Key).
			CreateLead(ctx, leadclient.Lead{FirstName: "A", Email: "a@example.hu"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Limit == nil || *r.Limit != 250 {
			t.Errorf("X-Lead-Limit = %v, want 250", r.Limit)
		}
	})
	t.Run("enterprise has no limit", func(t *testing.T) {
		key := e.key(e.company(plan.Enterprise, -1), auth.Private, nil, true).Key
		resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key})
		if resp.StatusCode != 201 || body["over_limit"] != false {
			t.Fatalf("%d %v", resp.StatusCode, body)
		}
		for _, h := range []string{"X-Lead-Limit", "X-Lead-Count"} {
			if v := resp.Header.Values(h); len(v) > 0 {
				t.Errorf("%s = %v, want no header without a limit", h, v)
			}
		}
	})
}

// TestCreateLeadLimitExactUnderConcurrency: 40 creates at once against a limit of 10, through
// the SDK (each with an Idempotency-Key, a transaction each) and as plain requests without a key
// (committed in groups): exactly 10 new, 30 over the limit, 40 distinct counts either way.
func TestCreateLeadLimitExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	type created struct {
		over  bool
		count int
	}
	for _, way := range []struct {
		name   string
		create func(e *env, key string) (created, error)
	}{
		{"SDK with Idempotency-Key", func(e *env, key string) (created, error) {
			r, err := e.sdk(key).CreateLead(context.Background(), leadclient.Lead{FirstName: "A", Email: "a@example.hu"})
			if err != nil {
				return created{}, err
			}
			return created{r.OverLimit, *r.Count}, nil
		}},
		{"plain request without a key", func(e *env, key string) (created, error) {
			resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key})
			if resp.StatusCode != http.StatusCreated {
				return created{}, fmt.Errorf("status %d: %v", resp.StatusCode, body)
			}
			var n int
			if _, err := fmt.Sscan(resp.Header.Get("X-Lead-Count"), &n); err != nil {
				return created{}, fmt.Errorf("X-Lead-Count %q", resp.Header.Get("X-Lead-Count"))
			}
			return created{body["over_limit"] == true, n}, nil
		}},
	} {
		t.Run(way.name, func(t *testing.T) {
			e := start(t)
			c := e.company(plan.Free, 10)
			key := e.key(c, auth.Private, nil, true).Key
			const n = 40
			var wg sync.WaitGroup
			var mu sync.Mutex
			over, counts := 0, map[int]bool{}
			start := make(chan struct{})
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					r, err := way.create(e, key)
					if err != nil {
						t.Errorf("create: %v", err)
						return
					}
					mu.Lock()
					defer mu.Unlock()
					if r.over != (r.count > 10) {
						t.Errorf("count %d answered over_limit %v", r.count, r.over)
					}
					if r.over {
						over++
					}
					counts[r.count] = true
				}()
			}
			close(start)
			wg.Wait()
			if over != 30 {
				t.Errorf("%d over_limit answers, want 30", over)
			}
			for i := 1; i <= n; i++ {
				if !counts[i] {
					t.Errorf("no create was told X-Lead-Count %d; counts %v", i, counts)
					break
				}
			}
			leads, _ := lead.Collect(lead.All(context.Background(), e.store, c, lead.Filter{}))
			statuses := map[lead.Status]int{}
			for _, l := range leads {
				statuses[l.Status]++
			}
			if len(leads) != n || statuses[lead.StatusNew] != 10 || statuses[lead.StatusOverLimit] != 30 {
				t.Errorf("stored %d leads %v, want 40: 10 new, 30 over_limit", len(leads), statuses)
			}
		})
	}
}

// TestSDKAgainstTheServer: the SDK's errors and automatic idempotency against the real server.
func TestSDKAgainstTheServer(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Private, nil, true).Key

	_, err := e.sdk(key).CreateLead(ctx, leadclient.Lead{FirstName: "A", Email: "not-an-email"})
	var apiErr *leadclient.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Code != "invalid_email" || apiErr.Message == "" {
		t.Errorf("err = %v, want an APIError 400 invalid_email", err)
	}
	if _, err := e.sdk("lc_priv_nope").CreateLead(ctx, leadclient.Lead{FirstName: "A", Email: "a@example.hu"}); !leadclient.IsCode(err, "invalid_api_key") {
		t.Errorf("err = %v, want invalid_api_key", err)
	}

	first, err := e.sdk(key).CreateLead(ctx, leadclient.Lead{FirstName: "A", Email: "a@example.hu"}, leadclient.WithIdempotencyKey("order-42"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.sdk(key).CreateLead(ctx, leadclient.Lead{FirstName: "A", Email: "a@example.hu"}, leadclient.WithIdempotencyKey("order-42"))
	if err != nil {
		t.Fatal(err)
	}
	if again.LeadID != first.LeadID || !again.Replayed || first.Replayed {
		t.Errorf("retry: first %+v, again %+v", first, again)
	}
	if n, _ := e.count(c); n != 1 {
		t.Errorf("%d leads after a retried create, want 1", n)
	}
}

func TestCreateLeadIdempotency(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, 5)
	key := e.key(c, auth.Private, nil, true).Key
	h := map[string]string{"X-Api-Key": key, "Idempotency-Key": "retry-1"}

	first, b1 := e.do("POST", "/api/v1/leads", okBody, h)
	again, b2 := e.do("POST", "/api/v1/leads", okBody, h)
	if first.StatusCode != 201 || again.StatusCode != 201 {
		t.Fatalf("statuses %d, %d", first.StatusCode, again.StatusCode)
	}
	if b1["lead_id"] != b2["lead_id"] {
		t.Errorf("replay gave lead %v, first %v", b2["lead_id"], b1["lead_id"])
	}
	if again.Header.Get("Idempotent-Replayed") != "true" || first.Header.Get("Idempotent-Replayed") != "" {
		t.Error("Idempotent-Replayed should mark the replay only")
	}
	for _, hd := range []string{"X-Lead-Limit", "X-Lead-Count"} {
		if first.Header.Get(hd) != again.Header.Get(hd) {
			t.Errorf("%s: first %q, replay %q", hd, first.Header.Get(hd), again.Header.Get(hd))
		}
	}
	if n, counter := e.count(c); n != 1 || counter != 1 {
		t.Errorf("%d leads, counter %d after a replay; want 1, 1", n, counter)
	}

	t.Run("same key, another body", func(t *testing.T) {
		resp, body := e.do("POST", "/api/v1/leads", `{"first_name": "Other", "email": "o@example.hu"}`, h)
		wantError(t, resp, body, 422, "idempotency_key_reused")
	})
	t.Run("same key, another company", func(t *testing.T) {
		other := e.key(e.company(plan.Free, -1), auth.Private, nil, true).Key
		resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": other, "Idempotency-Key": "retry-1"})
		if resp.StatusCode != 201 || body["lead_id"] == b1["lead_id"] {
			t.Errorf("another company's key: %d %v", resp.StatusCode, body)
		}
	})
	t.Run("in flight", func(t *testing.T) {
		// Hold the key's lock from another session, as a first request in flight would.
		db := e.store.DB()
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtextextended($1::text || ':' || $2, 0))`, c, "slow-1"); err != nil {
			t.Fatal(err)
		}
		resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key, "Idempotency-Key": "slow-1"})
		wantError(t, resp, body, 409, "idempotency_key_in_use")
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock_all()`); err != nil {
			t.Fatal(err)
		}
		resp, body = e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key, "Idempotency-Key": "slow-1"})
		if resp.StatusCode != 201 {
			t.Errorf("after the first finished: %d %v", resp.StatusCode, body)
		}
	})
	t.Run("too long key", func(t *testing.T) {
		resp, body := e.do("POST", "/api/v1/leads", okBody, map[string]string{"X-Api-Key": key, "Idempotency-Key": strings.Repeat("k", 256)})
		wantError(t, resp, body, 400, "invalid_idempotency_key")
	})
}

func TestCreateLeadDatabaseErrorLeavesNothing(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, 10)
	key := e.key(c, auth.Private, nil, true).Key
	// A trigger that fails the insert after the counter row was already bumped in the same statement.
	_, err := e.store.DB().ExecContext(ctx, `
CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NEW.first_name = 'Boom' THEN RAISE EXCEPTION 'secret internal detail'; END IF; RETURN NEW; END $$;
CREATE TRIGGER boom BEFORE INSERT ON leads FOR EACH ROW EXECUTE FUNCTION boom();`)
	if err != nil {
		t.Fatal(err)
	}
	for _, idem := range []string{"", "boom-key"} {
		h := map[string]string{"X-Api-Key": key, "Idempotency-Key": idem}
		resp, body := e.do("POST", "/api/v1/leads", `{"first_name": "Boom", "email": "b@example.hu"}`, h)
		wantError(t, resp, body, 500, "internal")
		raw, _ := json.Marshal(body)
		if strings.Contains(string(raw), "secret") || strings.Contains(string(raw), "INSERT") {
			t.Errorf("the database error reached the client: %s", raw)
		}
	}
	if n, counter := e.count(c); n != 0 || counter != 0 {
		t.Errorf("a failed create left %d leads and a counter of %d", n, counter)
	}
	var keys int
	_ = e.store.DB().QueryRow(`SELECT count(*) FROM idempotency_keys`).Scan(&keys)
	if keys != 0 {
		t.Errorf("a failed create left %d idempotency keys", keys)
	}
}

func TestRevokedKeyStopsAtOnce(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Enterprise, -1)
	k := e.key(c, auth.Private, nil, true)
	h := map[string]string{"X-Api-Key": k.Key}
	if resp, _ := e.do("POST", "/api/v1/leads", okBody, h); resp.StatusCode != 201 {
		t.Fatalf("before revoking: %d", resp.StatusCode)
	}
	// Revoke through a store of its own, as `leadchat key revoke` in another process does.
	admin, err := openStore(e.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	revoked := time.Now()
	if _, err := admin.RevokeKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	for {
		resp, body := e.do("POST", "/api/v1/leads", okBody, h)
		if resp.StatusCode == 401 {
			wantError(t, resp, body, 401, "invalid_api_key")
			t.Logf("revocation took effect after %v", time.Since(revoked))
			break
		}
		if time.Since(revoked) > 2*time.Second {
			t.Fatalf("the revoked key still works after %v", time.Since(revoked))
		}
		time.Sleep(2 * time.Millisecond)
	}
}
