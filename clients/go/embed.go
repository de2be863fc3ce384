package leadclient

import (
	"context"
	"net/http"
)

// ChatMessage is one visitor message for Chat; empty fields are not sent.
type ChatMessage struct {
	// Message is the visitor's message, up to 2,000 characters.
	Message string
	// SessionID is empty on the first message of a conversation and the ChatReply's SessionId
	// on every later one.
	SessionID string
	// FirstName, Email and Phone are the contact form's fields, when the visitor filled it in.
	FirstName string
	Email     string
	Phone     string
	// ReferralData holds where the visitor came from, as in Lead.
	ReferralData map[string]string
}

// WidgetConfig returns the chat widget's settings; the service accepts only a public key here.
func (c *SDK) WidgetConfig(ctx context.Context) (*WidgetConfig, error) {
	params := &GetWidgetConfigParams{ApiKey: c.key}
	resp, body, err := c.call(ctx, idempotent, func(ctx context.Context) (*http.Response, error) {
		return c.api.GetWidgetConfig(ctx, params)
	})
	if err != nil {
		return nil, err
	}
	var cfg WidgetConfig
	if err := decode(resp, body, &cfg); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// Chat sends one visitor message to the assistant and returns its reply. A message has no
// idempotency key, so only failures that promise it was not processed (429, 503, no
// connection) are retried.
func (c *SDK) Chat(ctx context.Context, msg ChatMessage) (*ChatReply, error) {
	req := ChatRequest{
		ApiKey:    c.key,
		Message:   msg.Message,
		SessionId: optional(msg.SessionID),
		FirstName: optional(msg.FirstName),
		Email:     optional(msg.Email),
		Phone:     optional(msg.Phone),
	}
	if len(msg.ReferralData) > 0 {
		rd := ReferralData(msg.ReferralData)
		req.ReferralData = &rd
	}
	resp, body, err := c.call(ctx, once, func(ctx context.Context) (*http.Response, error) {
		return c.api.SendChatMessage(ctx, req)
	})
	if err != nil {
		return nil, err
	}
	var reply ChatReply
	if err := decode(resp, body, &reply); err != nil {
		return nil, err
	}
	return &reply, nil
}
