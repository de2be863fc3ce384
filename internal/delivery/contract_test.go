package delivery_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/contracttest"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
)

// The messages a real delivery sends (lead.created, lead.updated, lead.erased) are what the
// contract's x-webhooks says: its headers and a WebhookEvent body, so the contract cannot
// drift from the sender.
func TestDeliveredMessagesMatchTheContract(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spec := contracttest.NewWebhooks(t)
	rc := newReceiver(t, status(http.StatusNoContent))
	e.endpoint(rc.srv.URL)
	e.start(event.Schedule{time.Minute}, nil)

	ctx := context.Background()
	l := lead.Lead{ID: uuid.New(), FirstName: "Kovács Anna", LastName: "Kiss", Email: "anna@example.hu", Phone: "+36 30 123 4567",
		PhoneE164: "+36301234567", Service: "Napelem", Note: "Árajánlatot kérnék.", Source: lead.SourceAPI,
		ReferralData: map[string]string{"utm_source": "google"}}
	text := "Kérek híreket."
	l.Consent = &lead.Consent{Marketing: true, Text: &text, GivenAt: time.Now().UTC().Truncate(time.Second), Source: lead.SourceAPI}
	if _, err := e.store.CreateLead(ctx, e.company, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	bare := lead.Lead{ID: uuid.New(), Phone: "06 30 765 4321", Source: lead.SourceForm}
	if _, err := e.store.CreateLead(ctx, e.company, bare, nil, nil); err != nil {
		t.Fatal(err)
	}
	waitHits(t, rc, 2)
	if err := e.store.SetLeadStatus(ctx, e.company, l.ID, lead.Status("contacted"), lead.OriginAPI); err != nil {
		t.Fatal(err)
	}
	waitHits(t, rc, 3)
	if err := e.store.DeleteLead(ctx, e.company, bare.ID); err != nil {
		t.Fatal(err)
	}
	hits := waitHits(t, rc, 4)

	types, consents := map[string]int{}, 0
	for _, h := range hits {
		req := httptest.NewRequest(http.MethodPost, rc.srv.URL, nil)
		req.Header = h.header
		if err := spec.Check("lead-event", req, h.body); err != nil {
			t.Errorf("%s\n%v", h.body, err)
		}
		var body struct {
			Type string
			Data struct {
				Lead *struct {
					ID      string `json:"lead_id"`
					Consent *lead.Consent
				}
			}
		}
		_ = json.Unmarshal(h.body, &body)
		types[body.Type]++
		if body.Type == "lead.created" && body.Data.Lead != nil && body.Data.Lead.ID == l.ID.String() {
			if c := body.Data.Lead.Consent; c == nil || !c.Marketing || c.Text == nil || *c.Text != text || !c.GivenAt.Equal(l.Consent.GivenAt) {
				t.Errorf("lead.created carries consent %+v, want %+v", c, l.Consent)
			}
			consents++
		}
	}
	if consents != 1 {
		t.Errorf("%d lead.created messages of the lead with a consent, want 1", consents)
	}
	if types["lead.created"] != 2 || types["lead.updated"] != 1 || types["lead.erased"] != 1 {
		t.Errorf("delivered types %v", types)
	}
}

func waitHits(t *testing.T, rc *receiver, n int) []hit {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for len(rc.got()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the receiver got %d messages, want %d", len(rc.got()), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return rc.got()
}
