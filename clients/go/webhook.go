package leadclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// WebhookVerifier checks the messages leadchat sends to a webhook endpoint and reads them into
// typed events. It holds every secret the endpoint may sign with: the current one and, for
// the grace period after a rotation, the one it replaced. A message is genuine when one of its
// v1 signatures matches one of them. It is safe for concurrent use.
type WebhookVerifier struct {
	secrets []*standardwebhooks.Webhook
}

// NewWebhookVerifier returns a verifier for the endpoint's whsec_ secrets: the one `leadchat
// webhook add` (or the dashboard) showed, and after `webhook rotate` the new one too, until
// the old one's grace period ends.
func NewWebhookVerifier(secrets ...string) (*WebhookVerifier, error) {
	if len(secrets) == 0 {
		return nil, errors.New("leadchat: a webhook verifier needs at least one secret")
	}
	v := &WebhookVerifier{}
	for i, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			return nil, fmt.Errorf("leadchat: webhook secret %d is not a whsec_ secret: %w", i+1, err)
		}
		v.secrets = append(v.secrets, wh)
	}
	return v, nil
}

// ErrWebhookSignature is the error of a message no secret verifies: its signature does not
// match, its headers are missing, or its timestamp is more than five minutes from this clock
// (a replay). Answer such a message with a 4xx; leadchat retries it.
var ErrWebhookSignature = errors.New("leadchat: webhook message not verified")

// WebhookMessage is a verified webhook message.
type WebhookMessage struct {
	// ID is the webhook-id header: the same on every retry and redelivery of one event to one
	// endpoint, so a receiver that has seen it can answer 2xx and do nothing more.
	ID string
	// Type is what happened: WebhookEventTypeLeadCreated, WebhookEventTypeLeadUpdated or
	// WebhookEventTypeLeadErased (a newer service may send other types: skip those).
	Type WebhookEventType
	// Timestamp is when the change was recorded; order the messages of a lead by it.
	Timestamp time.Time
	// LeadID is the lead the event is about, on every type.
	LeadID uuid.UUID
	// Lead is the lead as it was when the message was sent (lead.created, lead.updated); nil
	// for lead.erased, which carries no personal data.
	Lead *StoredLead
}

// Parse verifies a message (its headers and its body, read whole and unchanged) and decodes
// it. A message no secret verifies is ErrWebhookSignature; a verified body that does not decode
// is another error.
func (v *WebhookVerifier) Parse(header http.Header, body []byte) (*WebhookMessage, error) {
	var last error
	for _, wh := range v.secrets {
		if last = wh.Verify(body, header); last == nil {
			break
		}
	}
	if last != nil {
		return nil, fmt.Errorf("%w: %w", ErrWebhookSignature, last)
	}
	var ev struct {
		Type      WebhookEventType `json:"type"`
		Timestamp time.Time        `json:"timestamp"`
		Data      struct {
			Lead   *StoredLead `json:"lead"`
			LeadID *uuid.UUID  `json:"lead_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, fmt.Errorf("leadchat: webhook body: %w", err)
	}
	m := &WebhookMessage{ID: header.Get(standardwebhooks.HeaderWebhookID), Type: ev.Type, Timestamp: ev.Timestamp, Lead: ev.Data.Lead}
	switch {
	case ev.Data.Lead != nil:
		m.LeadID = ev.Data.Lead.LeadId
	case ev.Data.LeadID != nil:
		m.LeadID = *ev.Data.LeadID
	default:
		return nil, fmt.Errorf("leadchat: webhook %s carries neither a lead nor a lead_id", ev.Type)
	}
	return m, nil
}

// ParseRequest reads the request's body (at most 1 MiB, far more than a lead event) and
// parses it as Parse does.
func (v *WebhookVerifier) ParseRequest(r *http.Request) (*WebhookMessage, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("leadchat: reading the webhook body: %w", err)
	}
	if len(body) > maxBody {
		return nil, fmt.Errorf("leadchat: webhook body over %d bytes", maxBody)
	}
	return v.Parse(r.Header, body)
}
