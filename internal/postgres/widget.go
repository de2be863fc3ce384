package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/widget"
)

const selectWidgetSettings = `
SELECT welcome_message, quick_buttons, contact_prompt_text, require_phone, gate_quote,
       primary_hex, accent_hex, header_title, border_radius_px, hide_powered_by, language,
       privacy_url, marketing_consent_text
FROM widget_settings WHERE company_id = $1`

type widgetRow struct {
	WelcomeMessage *string        `db:"welcome_message"`
	QuickButtons   pq.StringArray `db:"quick_buttons"`
	ContactPrompt  *string        `db:"contact_prompt_text"`
	RequirePhone   bool           `db:"require_phone"`
	GateQuote      bool           `db:"gate_quote"`
	PrimaryHex     *string        `db:"primary_hex"`
	AccentHex      *string        `db:"accent_hex"`
	HeaderTitle    *string        `db:"header_title"`
	BorderRadiusPx *int           `db:"border_radius_px"`
	HidePoweredBy  *bool          `db:"hide_powered_by"`
	Language       string         `db:"language"`
	PrivacyURL     *string        `db:"privacy_url"`
	ConsentText    *string        `db:"marketing_consent_text"`
}

// WidgetSettings returns a company's widget settings, the defaults when it set none.
func (s *Store) WidgetSettings(ctx context.Context, companyID uuid.UUID) (widget.Settings, error) {
	var r widgetRow
	err := s.db.GetContext(ctx, &r, selectWidgetSettings, companyID)
	if errors.Is(err, sql.ErrNoRows) {
		return widget.DefaultSettings(), nil
	}
	if err != nil {
		return widget.Settings{}, translate(err)
	}
	ws := widget.Settings{
		WelcomeMessage: r.WelcomeMessage, ContactPrompt: r.ContactPrompt, RequirePhone: r.RequirePhone,
		GateQuote: r.GateQuote, PrimaryHex: r.PrimaryHex, AccentHex: r.AccentHex, HeaderTitle: r.HeaderTitle,
		BorderRadiusPx: r.BorderRadiusPx, HidePoweredBy: r.HidePoweredBy, Language: r.Language,
		PrivacyURL: r.PrivacyURL, MarketingConsentText: r.ConsentText,
	}
	if r.QuickButtons != nil {
		ws.QuickButtons = []string(r.QuickButtons)
	}
	return ws, nil
}

// The upsert and the notification commit together, so every instance drops its cached config
// the moment the new settings are visible.
const upsertWidgetSettings = `
WITH saved AS (
    INSERT INTO widget_settings (company_id, welcome_message, quick_buttons, contact_prompt_text,
        require_phone, gate_quote, primary_hex, accent_hex, header_title, border_radius_px,
        hide_powered_by, language, privacy_url, marketing_consent_text)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
    ON CONFLICT (company_id) DO UPDATE SET
        welcome_message = excluded.welcome_message, quick_buttons = excluded.quick_buttons,
        contact_prompt_text = excluded.contact_prompt_text, require_phone = excluded.require_phone,
        gate_quote = excluded.gate_quote, primary_hex = excluded.primary_hex,
        accent_hex = excluded.accent_hex, header_title = excluded.header_title,
        border_radius_px = excluded.border_radius_px, hide_powered_by = excluded.hide_powered_by,
        language = excluded.language, privacy_url = excluded.privacy_url,
        marketing_consent_text = excluded.marketing_consent_text, updated_at = now()
    RETURNING company_id
)
SELECT pg_notify('` + cacheChannel + `', 'widget') FROM saved`

// SetWidgetSettings stores a company's widget settings.
func (s *Store) SetWidgetSettings(ctx context.Context, companyID uuid.UUID, ws widget.Settings) error {
	var buttons any
	if ws.QuickButtons != nil {
		buttons = pq.StringArray(ws.QuickButtons)
	}
	_, err := s.db.ExecContext(ctx, upsertWidgetSettings, companyID, ws.WelcomeMessage, buttons,
		ws.ContactPrompt, ws.RequirePhone, ws.GateQuote, ws.PrimaryHex, ws.AccentHex, ws.HeaderTitle,
		ws.BorderRadiusPx, ws.HidePoweredBy, ws.Language, ws.PrivacyURL, ws.MarketingConsentText)
	return translate(err)
}

const selectAssistantProfile = `SELECT profile FROM assistant_profiles WHERE company_id = $1`

// AssistantProfile returns a company's assistant profile as stored (JSON); nil when it set none.
func (s *Store) AssistantProfile(ctx context.Context, companyID uuid.UUID) ([]byte, error) {
	var p []byte
	err := s.db.GetContext(ctx, &p, selectAssistantProfile, companyID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return p, translate(err)
}

const upsertAssistantProfile = `
WITH saved AS (
    INSERT INTO assistant_profiles (company_id, profile) VALUES ($1, $2)
    ON CONFLICT (company_id) DO UPDATE SET profile = excluded.profile, updated_at = now()
    RETURNING company_id
)
SELECT pg_notify('` + cacheChannel + `', 'assistant') FROM saved`

// SetAssistantProfile stores a company's assistant profile (JSON).
func (s *Store) SetAssistantProfile(ctx context.Context, companyID uuid.UUID, profile []byte) error {
	_, err := s.db.ExecContext(ctx, upsertAssistantProfile, companyID, string(profile))
	return translate(err)
}
