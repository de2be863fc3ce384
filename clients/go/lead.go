package leadclient

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/google/uuid"
)

// Lead is a sales lead to create; empty fields are not sent.
type Lead struct {
	// FirstName is required: the first name, or the whole name.
	FirstName string
	LastName  string
	// Email is required.
	Email string
	// Phone is free text holding 6 to 15 digits.
	Phone string
	// Service is a short label of the service or product asked about.
	Service string
	// Details is free text, up to 10,000 characters.
	Details string
	// Source is "form", "api", "chat" or "manual"; the service takes "api" when it is empty.
	Source string
	// ReferralData holds where the visitor came from (utm_source, gclid, landing_page…);
	// keys the service does not know are dropped without an error.
	ReferralData map[string]string
	// Consent is what the person saw and chose when leaving their details (nil: none): the
	// service stores it with the lead, with its own time and the lead's source.
	Consent *ConsentInput
}

// CreateLeadResult is the service's answer to CreateLead.
type CreateLeadResult struct {
	// LeadID is the new lead's id, or on a replay the id of the lead the first request made:
	// the id GetLead, SetLeadStatus and the listed leads' LeadId use.
	LeadID uuid.UUID
	// OverLimit is true when the lead is past the plan's monthly limit: it is stored all the
	// same, with status over_limit.
	OverLimit bool
	// Limit is the plan's monthly lead limit (X-Lead-Limit), nil when the plan has none.
	Limit *int
	// Count is the number of leads this calendar month, this one included (X-Lead-Count), nil
	// when the plan has no limit.
	Count *int
	// Replayed is true when the answer is the stored answer to an earlier request with the same
	// Idempotency-Key (Idempotent-Replayed), so no new lead was made.
	Replayed bool
	// RequestID is the X-Request-Id of the answer.
	RequestID string
	// IdempotencyKey is the key the call sent, generated or given with WithIdempotencyKey.
	IdempotencyKey string
}

// CallOption changes one CreateLead call.
type CallOption func(*callSettings)

// callSettings collects what the call options set.
type callSettings struct {
	idempotencyKey string
}

// WithIdempotencyKey sends key (1 to 255 characters, unique per lead) instead of a random one,
// so that a retry of the same lead from a later process, after a crash say, is recognised too.
func WithIdempotencyKey(key string) CallOption {
	return func(s *callSettings) { s.idempotencyKey = key }
}

// CreateLead creates a lead. Every attempt of the call carries the same Idempotency-Key, so its
// retries after a timeout, a network error, a 5xx or a 429 cannot store the lead twice.
func (c *SDK) CreateLead(ctx context.Context, lead Lead, opts ...CallOption) (*CreateLeadResult, error) {
	s := callSettings{idempotencyKey: newIdempotencyKey()}
	for _, opt := range opts {
		opt(&s)
	}
	params := &CreateLeadParams{IdempotencyKey: &s.idempotencyKey}
	input := lead.input()
	resp, body, err := c.call(ctx, idempotent, func(ctx context.Context) (*http.Response, error) {
		return c.api.CreateLead(ctx, params, input, c.withKey)
	})
	if err != nil {
		return nil, err
	}
	var created LeadCreated
	if err := decode(resp, body, &created); err != nil {
		return nil, err
	}
	return &CreateLeadResult{
		LeadID:         created.LeadId,
		OverLimit:      created.OverLimit,
		Limit:          intHeader(resp, "X-Lead-Limit"),
		Count:          intHeader(resp, "X-Lead-Count"),
		Replayed:       resp.Header.Get("Idempotent-Replayed") == "true",
		RequestID:      resp.Header.Get("X-Request-Id"),
		IdempotencyKey: s.idempotencyKey,
	}, nil
}

// input converts the lead to the generated request body, leaving out what is empty.
func (l Lead) input() LeadInput {
	in := LeadInput{
		FirstName: l.FirstName,
		Email:     l.Email,
		LastName:  optional(l.LastName),
		Phone:     optional(l.Phone),
		Service:   optional(l.Service),
		Details:   optional(l.Details),
	}
	if l.Source != "" {
		src := LeadSource(l.Source)
		in.Source = &src
	}
	if len(l.ReferralData) > 0 {
		rd := ReferralData(l.ReferralData)
		in.ReferralData = &rd
	}
	in.Consent = l.Consent
	return in
}

// optional maps "" to an omitted field.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// intHeader reads a numeric header, nil when it is missing or not a number.
func intHeader(resp *http.Response, name string) *int {
	n, err := strconv.Atoi(resp.Header.Get(name))
	if err != nil {
		return nil
	}
	return &n
}

// decode reads a success body into v; the answer is not retried when it fails, because the
// operation did succeed.
func decode(resp *http.Response, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("leadchat: %d answer with an unreadable body (request id %q): %w",
			resp.StatusCode, resp.Header.Get("X-Request-Id"), err)
	}
	return nil
}

// newIdempotencyKey returns a random UUID version 4, the form the API recommends.
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails: crypto/rand crashes the program instead
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
