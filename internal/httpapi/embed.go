package httpapi

import (
	"context"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
)

// GetWidgetConfig answers the widget's settings for the key's company, from memory.
func (s *server) GetWidgetConfig(ctx context.Context, _ api.GetWidgetConfigRequestObject) (api.GetWidgetConfigResponseObject, error) {
	p, ok := principal(ctx)
	if !ok {
		return nil, errs.Internalf("widget config without a principal")
	}
	c, err := s.configs.Config(ctx, p.CompanyID, p.Plan)
	if err != nil {
		return nil, err
	}
	body := api.WidgetConfig{
		WelcomeMessage: c.WelcomeMessage, QuickButtons: c.QuickButtons, ContactPromptText: c.ContactPrompt,
		RequirePhone: c.RequirePhone, GateQuote: c.GateQuote, Language: api.WidgetConfigLanguage(c.Language),
	}
	if t := c.Theme; t != nil {
		body.ChatTheme = &api.ChatTheme{PrimaryHex: t.PrimaryHex, AccentHex: t.AccentHex,
			HeaderTitle: t.HeaderTitle, BorderRadiusPx: t.BorderRadiusPx, HidePoweredBy: t.HidePoweredBy}
	}
	return api.GetWidgetConfig200JSONResponse{Body: body}, nil
}

// SendChatMessage answers one visitor message.
func (s *server) SendChatMessage(ctx context.Context, req api.SendChatMessageRequestObject) (api.SendChatMessageResponseObject, error) {
	p, ok := principal(ctx)
	if !ok {
		return nil, errs.Internalf("chat without a principal")
	}
	b := req.Body
	in := chat.Request{SessionID: b.SessionId, Message: b.Message, FirstName: b.FirstName, Email: b.Email, Phone: b.Phone}
	if b.ReferralData != nil {
		in.ReferralData = *b.ReferralData
	}
	if b.Honeypot != nil {
		in.Honeypot = *b.Honeypot
	}
	in.FormFillMillis = b.FormFillMs
	r, err := s.chat.Handle(ctx, p, in)
	if err != nil {
		return nil, err
	}
	return api.SendChatMessage200JSONResponse{Body: api.ChatReply{
		Reply: r.Text, LeadId: r.LeadID, SessionId: r.SessionID, RequestContact: r.RequestContact,
	}}, nil
}
