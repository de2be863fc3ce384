package leadclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

func TestCreateLead(t *testing.T) {
	t.Run("created with limit headers", func(t *testing.T) {
		srv, s := serve(t, created(leadID, "X-Lead-Limit", "250", "X-Lead-Count", "42", "X-Request-Id", "req-7"))
		lc := newSDK(t, srv.URL, leadclient.WithUserAgent("acme-crm/2.1"))

		res, err := lc.CreateLead(context.Background(), leadclient.Lead{
			FirstName:    "Péter",
			Email:        "peter.kovacs@example.hu",
			Details:      "Családi ház",
			Source:       "form",
			ReferralData: map[string]string{"utm_source": "google"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.LeadID != leadID || res.OverLimit || res.Replayed || res.RequestID != "req-7" {
			t.Errorf("result = %+v", res)
		}
		if res.Limit == nil || *res.Limit != 250 || res.Count == nil || *res.Count != 42 {
			t.Errorf("limit, count = %v, %v; want 250, 42", res.Limit, res.Count)
		}

		reqs := s.requests()
		if len(reqs) != 1 {
			t.Fatalf("%d requests, want 1", len(reqs))
		}
		r := reqs[0]
		if r.method != http.MethodPost || r.path != "/api/v1/leads" {
			t.Errorf("request = %s %s", r.method, r.path)
		}
		for name, want := range map[string]string{
			"X-Api-Key":    privateKey,
			"Content-Type": "application/json",
			"User-Agent":   "acme-crm/2.1",
			"Origin":       "",
		} {
			if got := r.header.Get(name); got != want {
				t.Errorf("header %s = %q, want %q", name, got, want)
			}
		}
		if key := r.header.Get("Idempotency-Key"); !uuidV4.MatchString(key) || key != res.IdempotencyKey {
			t.Errorf("Idempotency-Key = %q, result has %q; want the same UUID v4", key, res.IdempotencyKey)
		}
		var body map[string]any
		if err := json.Unmarshal(r.body, &body); err != nil {
			t.Fatal(err)
		}
		want := `{"details":"Családi ház","email":"peter.kovacs@example.hu","first_name":"Péter","referral_data":{"utm_source":"google"},"source":"form"}`
		if got, _ := json.Marshal(body); string(got) != want {
			t.Errorf("body = %s\nwant   %s", got, want)
		}
	})

	t.Run("created without a limit", func(t *testing.T) {
		srv, _ := serve(t, created(leadID))
		res, err := newSDK(t, srv.URL).CreateLead(context.Background(), minimal)
		if err != nil {
			t.Fatal(err)
		}
		if res.Limit != nil || res.Count != nil {
			t.Errorf("limit, count = %v, %v; want nil, nil", res.Limit, res.Count)
		}
	})

	t.Run("each call its own key", func(t *testing.T) {
		srv, s := serve(t, created(leadID))
		lc := newSDK(t, srv.URL)
		for range 2 {
			if _, err := lc.CreateLead(context.Background(), minimal); err != nil {
				t.Fatal(err)
			}
		}
		reqs := s.requests()
		if reqs[0].header.Get("Idempotency-Key") == reqs[1].header.Get("Idempotency-Key") {
			t.Error("two calls sent the same Idempotency-Key")
		}
	})

	t.Run("replayed", func(t *testing.T) {
		srv := fakeLeadchat()
		defer srv.Close()
		lc := newSDK(t, srv.URL)
		first, err := lc.CreateLead(context.Background(), minimal, leadclient.WithIdempotencyKey("order-1"))
		if err != nil {
			t.Fatal(err)
		}
		again, err := lc.CreateLead(context.Background(), minimal, leadclient.WithIdempotencyKey("order-1"))
		if err != nil {
			t.Fatal(err)
		}
		if first.Replayed || !again.Replayed || again.LeadID != first.LeadID || again.IdempotencyKey != "order-1" {
			t.Errorf("first = %+v\nagain = %+v", first, again)
		}
	})
}

func TestCreateLeadErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		status  int
		code    leadclient.ErrorCode
		message string
		wantErr string
	}{
		{"invalid email", 400, "invalid_email", "Az e-mail cím formátuma érvénytelen.",
			"leadchat: 400 invalid_email: Az e-mail cím formátuma érvénytelen."},
		{"revoked key", 401, "invalid_api_key", "Az API-kulcs érvénytelen vagy visszavonták.",
			"leadchat: 401 invalid_api_key: Az API-kulcs érvénytelen vagy visszavonták."},
		{"private key from browser", 403, "private_key_from_browser", "Privát API-kulcs nem használható böngészőből.",
			"leadchat: 403 private_key_from_browser: Privát API-kulcs nem használható böngészőből."},
		{"key reused", 422, "idempotency_key_reused", "Másik kérés.",
			"leadchat: 422 idempotency_key_reused: Másik kérés."},
		{"a code newer than the SDK", 400, "invalid_fax_number", "A fax száma érvénytelen.",
			"leadchat: 400 invalid_fax_number: A fax száma érvénytelen."},
	} {
		t.Run(tc.name+" is not retried", func(t *testing.T) {
			srv, s := serve(t, failing(tc.status, string(tc.code), tc.message, "X-Request-Id", "req-9"), created(leadID))
			_, err := newSDK(t, srv.URL).CreateLead(context.Background(), minimal)

			var apiErr *leadclient.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want an *APIError", err)
			}
			want := leadclient.APIError{StatusCode: tc.status, Code: tc.code, Message: tc.message, RequestID: "req-9"}
			if *apiErr != want {
				t.Errorf("err = %+v\nwant  %+v", *apiErr, want)
			}
			if err.Error() != tc.wantErr {
				t.Errorf("Error() = %q\nwant      %q", err.Error(), tc.wantErr)
			}
			if !leadclient.IsCode(err, tc.code) || leadclient.IsCode(err, leadclient.ErrorCodeInternal) {
				t.Errorf("IsCode is wrong for %v", err)
			}
			if n := len(s.requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}

	t.Run("non-JSON 502", func(t *testing.T) {
		srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "<html><body><h1>502 Bad Gateway</h1></body></html>")
		})
		_, err := newSDK(t, srv.URL, leadclient.WithRetries(0)).CreateLead(context.Background(), minimal)
		var apiErr *leadclient.APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("err = %v, want an *APIError", err)
		}
		if apiErr.StatusCode != 502 || apiErr.Code != "" || err.Error() != "leadchat: 502: Bad Gateway" {
			t.Errorf("err = %q (%+v)", err, *apiErr)
		}
	})

	t.Run("plain-text 503 keeps its first line", func(t *testing.T) {
		srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, "upstream connect error\nreset reason: overflow\n")
		})
		_, err := newSDK(t, srv.URL, leadclient.WithRetries(0)).CreateLead(context.Background(), minimal)
		if err == nil || err.Error() != "leadchat: 503: upstream connect error" {
			t.Errorf("err = %v", err)
		}
	})
}
