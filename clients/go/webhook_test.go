package leadclient_test

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

const (
	oldSecret   = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	newSecret   = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD"
	createdBody = `{"type":"lead.created","timestamp":"2026-03-02T09:15:04.123456Z","data":{"lead":{` +
		`"consent":null,"created_at":"2026-03-02T09:15:04.123456Z","details":null,"email":"anna@example.hu",` +
		`"first_name":"Kovács Anna","last_name":null,"lead_id":"6a1c9e0d-2b4f-4d7e-8c3a-9f8e7d6c5b4a",` +
		`"over_limit":false,"phone":null,"phone_e164":null,"referral_data":null,"service":null,` +
		`"session_id":null,"source":"api","status":"new","updated_at":"2026-03-02T09:15:04.123456Z"}}}`
	erasedBody = `{"type":"lead.erased","timestamp":"2026-03-02T10:00:00Z","data":{"lead_id":"6a1c9e0d-2b4f-4d7e-8c3a-9f8e7d6c5b4a"}}`
)

// signed makes the headers of a message signed at `at` by each secret, as the official Standard
// Webhooks library signs, the signatures separated by spaces.
func signed(t *testing.T, body string, at time.Time, secrets ...string) http.Header {
	t.Helper()
	h := http.Header{}
	h.Set("webhook-id", "0f6b5d1e-1c2a-4b7e-9d3f-2a1b0c9d8e7f")
	h.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
	var sigs []string
	for _, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := wh.Sign(h.Get("webhook-id"), at, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, sig)
	}
	h.Set("webhook-signature", strings.Join(sigs, " "))
	return h
}

func TestWebhookVerifier(t *testing.T) {
	now := time.Now()
	for _, tt := range []struct {
		name    string
		held    []string // what the receiver holds
		signers []string // what the message is signed with
		at      time.Time
		body    string
		ok      bool
	}{
		{"one secret", []string{newSecret}, []string{newSecret}, now, createdBody, true},
		{"during a rotation, the old secret held", []string{oldSecret}, []string{newSecret, oldSecret}, now, createdBody, true},
		{"during a rotation, the new secret held", []string{newSecret}, []string{newSecret, oldSecret}, now, createdBody, true},
		{"both held, the new one alone signs", []string{oldSecret, newSecret}, []string{newSecret}, now, createdBody, true},
		{"both held, the old one alone signs", []string{newSecret, oldSecret}, []string{oldSecret}, now, createdBody, true},
		{"after the grace, the old secret alone held", []string{oldSecret}, []string{newSecret}, now, createdBody, false},
		{"a replay from ten minutes ago", []string{newSecret}, []string{newSecret}, now.Add(-10 * time.Minute), createdBody, false},
		{"a changed body", []string{newSecret}, []string{newSecret}, now, strings.Replace(createdBody, "anna@", "eve@", 1), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := leadclient.NewWebhookVerifier(tt.held...)
			if err != nil {
				t.Fatal(err)
			}
			h := signed(t, createdBody, tt.at, tt.signers...)
			m, err := v.Parse(h, []byte(tt.body))
			if !tt.ok {
				if !errors.Is(err, leadclient.ErrWebhookSignature) {
					t.Fatalf("err = %v, want ErrWebhookSignature", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.ID != h.Get("webhook-id") || m.Type != leadclient.WebhookEventTypeLeadCreated || m.Lead == nil ||
				m.LeadID.String() != "6a1c9e0d-2b4f-4d7e-8c3a-9f8e7d6c5b4a" || m.Lead.LeadId != m.LeadID ||
				*m.Lead.Email != "anna@example.hu" || m.Lead.Status != leadclient.LeadStatusNew || m.Timestamp.Year() != 2026 {
				t.Errorf("message = %+v", m)
			}
		})
	}

	t.Run("lead.erased carries the id alone", func(t *testing.T) {
		v, _ := leadclient.NewWebhookVerifier(newSecret)
		m, err := v.Parse(signed(t, erasedBody, now, newSecret), []byte(erasedBody))
		if err != nil || m.Type != leadclient.WebhookEventTypeLeadErased || m.Lead != nil || m.LeadID.String() != "6a1c9e0d-2b4f-4d7e-8c3a-9f8e7d6c5b4a" {
			t.Errorf("message = %+v, %v", m, err)
		}
	})

	t.Run("no secret, or not a secret", func(t *testing.T) {
		if _, err := leadclient.NewWebhookVerifier(); err == nil {
			t.Error("a verifier without secrets")
		}
		if _, err := leadclient.NewWebhookVerifier("whsec_not base64!"); err == nil {
			t.Error("a verifier with a broken secret")
		}
	})
}
