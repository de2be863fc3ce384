package httpapi

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/widget"
)

// written is what a response wrote: status, headers and body.
type written struct {
	Status  int
	Headers map[string][]string
	Body    string
}

func record(t *testing.T, visit func(*httptest.ResponseRecorder) error) written {
	t.Helper()
	w := httptest.NewRecorder()
	if err := visit(w); err != nil {
		t.Fatal(err)
	}
	return written{w.Code, w.Header(), w.Body.String()}
}

// TestLeadCreatedJSONIsTheGenerated: the hand-written 201 of a lead create writes what the
// generated response writes, headers included, for every shape of answer.
func TestLeadCreatedJSONIsTheGenerated(t *testing.T) {
	limit := 100
	for _, c := range []lead.Created{
		{ID: uuid.New()},
		{ID: uuid.New(), OverLimit: true, Limit: &limit, Count: 101},
		{ID: uuid.New(), Limit: &limit, Count: 7, Replayed: true},
		{ID: uuid.New(), Replayed: true},
		{ID: uuid.Nil, Limit: &limit},
		{ID: uuid.MustParse("ffffffff-ffff-ffff-ffff-ffffffffffff")},
	} {
		gen := api.CreateLead201JSONResponse{Body: api.LeadCreated{Success: true, LeadId: c.ID, OverLimit: c.OverLimit}}
		if c.Limit != nil {
			gen.Headers.XLeadLimit, gen.Headers.XLeadCount = c.Limit, &c.Count
		}
		if c.Replayed {
			replayed := "true"
			gen.Headers.IdempotentReplayed = &replayed
		}
		want := record(t, func(w *httptest.ResponseRecorder) error { return gen.VisitCreateLeadResponse(w) })
		got := record(t, func(w *httptest.ResponseRecorder) error { return leadCreatedJSON(c).VisitCreateLeadResponse(w) })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v (-generated +hand-written):\n%s", c, diff)
		}
	}
}

// TestWidgetConfigJSONIsTheGenerated: the config rendered once and written from memory is what
// the generated response writes of the same config, on every plan's shape.
func TestWidgetConfigJSONIsTheGenerated(t *testing.T) {
	radius, hide := 12, true
	s := func(v string) *string { return &v }
	for _, c := range []widget.Config{
		{WelcomeMessage: "Üdvözöljük!", QuickButtons: []string{"Ár", "<b>&"}, Language: "hu"},
		{WelcomeMessage: "Hi", Language: "en", RequirePhone: true, GateQuote: true, ContactPrompt: s("Your number?"),
			PrivacyURL: s("https://example.hu/adatvedelem"), MarketingConsentText: s("Kérek híreket.")},
		{WelcomeMessage: "Szia", Language: "hu", Theme: &widget.Theme{PrimaryHex: "#0A7C66"}},
		{WelcomeMessage: "Szia", Language: "hu", Theme: &widget.Theme{PrimaryHex: "#0A7C66", AccentHex: s("#F2B705"),
			HeaderTitle: s("Napfény \u2028"), BorderRadiusPx: &radius, HidePoweredBy: &hide}},
	} {
		gen := api.GetWidgetConfig200JSONResponse{Body: api.WidgetConfig{
			WelcomeMessage: c.WelcomeMessage, QuickButtons: c.QuickButtons, ContactPromptText: c.ContactPrompt,
			RequirePhone: c.RequirePhone, GateQuote: c.GateQuote, Language: api.WidgetConfigLanguage(c.Language),
			PrivacyUrl: c.PrivacyURL, MarketingConsentText: c.MarketingConsentText,
		}}
		if t := c.Theme; t != nil {
			gen.Body.ChatTheme = &api.ChatTheme{PrimaryHex: t.PrimaryHex, AccentHex: t.AccentHex,
				HeaderTitle: t.HeaderTitle, BorderRadiusPx: t.BorderRadiusPx, HidePoweredBy: t.HidePoweredBy}
		}
		want := record(t, func(w *httptest.ResponseRecorder) error { return gen.VisitGetWidgetConfigResponse(w) })
		body, err := renderWidgetConfig(c)
		if err != nil {
			t.Fatal(err)
		}
		got := record(t, func(w *httptest.ResponseRecorder) error {
			return widgetConfigJSON(body).VisitGetWidgetConfigResponse(w)
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v (-generated +rendered):\n%s", c, diff)
		}
	}
}
