package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/insight"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/widget"
)

// GetWidgetConfig answers the widget's settings for the key's company, from memory.
func (s *server) GetWidgetConfig(ctx context.Context, _ api.GetWidgetConfigRequestObject) (api.GetWidgetConfigResponseObject, error) {
	p, ok := principal(ctx)
	if !ok {
		return nil, errs.Internalf("widget config without a principal")
	}
	body, err := s.configs.Rendered(ctx, p.CompanyID, p.Plan, renderWidgetConfig)
	if err != nil {
		return nil, err
	}
	return widgetConfigJSON(body), nil
}

// renderWidgetConfig encodes a config as GetWidgetConfig's 200 body: the generated type, as
// the generated response would encode it (json.Encoder's final newline included).
func renderWidgetConfig(c widget.Config) ([]byte, error) {
	body := api.WidgetConfig{
		WelcomeMessage: c.WelcomeMessage, QuickButtons: c.QuickButtons, ContactPromptText: c.ContactPrompt,
		RequirePhone: c.RequirePhone, GateQuote: c.GateQuote, Language: api.WidgetConfigLanguage(c.Language),
		PrivacyUrl: c.PrivacyURL, MarketingConsentText: c.MarketingConsentText,
	}
	if t := c.Theme; t != nil {
		body.ChatTheme = &api.ChatTheme{PrimaryHex: t.PrimaryHex, AccentHex: t.AccentHex,
			HeaderTitle: t.HeaderTitle, BorderRadiusPx: t.BorderRadiusPx, HidePoweredBy: t.HidePoweredBy}
	}
	b, err := json.Marshal(body)
	return append(b, '\n'), err
}

// widgetConfigJSON is GetWidgetConfig's 200 with its body encoded already, once per company's
// settings (widget.Configs.Rendered): a page view of a customer's site costs no encoding.
type widgetConfigJSON []byte

func (b widgetConfigJSON) VisitGetWidgetConfigResponse(w http.ResponseWriter) error {
	return writeJSON(w, b)
}

// SendWidgetEvent counts one widget event for the key's company: a number per day, nothing of
// the visitor.
func (s *server) SendWidgetEvent(ctx context.Context, req api.SendWidgetEventRequestObject) (api.SendWidgetEventResponseObject, error) {
	p, ok := principal(ctx)
	if !ok {
		return nil, errs.Internalf("widget event without a principal")
	}
	if req.Body == nil {
		return nil, errs.E(errs.Invalid, errs.CodeInvalidJSON)
	}
	t := insight.EventType(req.Body.Type)
	if !t.Valid() {
		return nil, errs.Field(errs.CodeInvalidField, "type")
	}
	if s.events != nil {
		if err := s.events.CountWidgetEvent(ctx, p.CompanyID, t); err != nil {
			return nil, err
		}
	}
	return api.SendWidgetEvent204Response{}, nil
}

func (s *server) PreflightWidgetEvent(context.Context, api.PreflightWidgetEventRequestObject) (api.PreflightWidgetEventResponseObject, error) {
	return api.PreflightWidgetEvent204Response{}, nil
}

// SendChatMessage answers one visitor message.
func (s *server) SendChatMessage(ctx context.Context, req api.SendChatMessageRequestObject) (api.SendChatMessageResponseObject, error) {
	p, ok := principal(ctx)
	if !ok {
		return nil, errs.Internalf("chat without a principal")
	}
	b := req.Body
	in := chat.Request{SessionID: b.SessionId, MessageID: b.MessageId, Message: b.Message,
		FirstName: b.FirstName, Email: b.Email, Phone: b.Phone}
	if b.ReferralData != nil {
		in.ReferralData = *b.ReferralData
	}
	if b.Honeypot != nil {
		in.Honeypot = *b.Honeypot
	}
	in.FormFillMillis = b.FormFillMs
	in.Consent = consentInput(b.Consent)
	r, err := s.chat.Handle(ctx, p, in)
	s.observeChat(ctx, r)
	if err != nil {
		return nil, err
	}
	return api.SendChatMessage200JSONResponse{Body: api.ChatReply{
		Reply: r.Text, LeadId: r.LeadID, SessionId: r.SessionID, RequestContact: r.RequestContact,
		Language: api.ChatReplyLanguage(r.Language), HandledBy: handledBy(r),
	}}, nil
}

// observeChat records what a chat turn did, at the edge: the chat package counts nothing itself.
func (s *server) observeChat(ctx context.Context, r chat.Reply) {
	if r.BotDropped {
		s.metrics.BotDropped()
	}
	if m := r.Model; m.Called {
		s.metrics.ModelCall("called", m.Took)
		if m.FellBack != "" {
			s.log.WarnContext(ctx, "AI model failed; the built-in assistant answered",
				"request_id", requestID(ctx), "reason", m.FellBack)
			s.metrics.ModelCall("fallback", 0)
		}
	} else if m.BudgetSpent {
		s.metrics.ModelCall("budget", 0)
	}
	if r.Text == "" || r.Replayed {
		return // no answer, or an answer counted the first time
	}
	if c := r.NewLead; c != nil {
		s.metrics.LeadCreated(string(lead.SourceChat), c.OverLimit)
	}
	s.metrics.ChatMessage()
}
