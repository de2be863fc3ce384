package bench

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// lcLeadPage is the read pair's lead page step: one lead of the big company as its owner opens
// it, with the same person's other leads, its notes, its history and its chat transcript.
const lcLeadPage = "leadchat: dashboard lead page"

// The lead page's lead holds what the speed target names: relatedLeads other leads of the same
// person, pageNotes notes, and besides a history of status changes and a transcript.
const (
	relatedLeads    = 20
	pageNotes       = 50
	pageHistory     = 10
	pageTranscript  = 20
	pageLeadAddress = "visszatero.ugyfel@example.hu"
)

// seedRelatedLeads stores the lead page's lead and $3 other leads of the same person (the same
// address and E.164 number) for company $1, the first with id $2, a day apart, as SeedLeads
// does.
const seedRelatedLeads = `
INSERT INTO leads (id, company_id, first_name, last_name, email, phone, phone_e164, service,
                   details, source, status, created_at, updated_at)
SELECT CASE WHEN i = 0 THEN $2 ELSE gen_random_uuid() END, $1, 'Eszter', 'Kovács', $4,
       '+36 30 999 1234', '+36309991234', 'Hőszivattyú',
       jsonb_build_object('note', 'Visszatérő érdeklődő, ' || i || '. kérés.'),
       (ARRAY['form','api','chat','manual'])[1 + i % 4], 'new',
       now() - i * interval '1 day', now() - i * interval '1 day'
FROM generate_series(0, $3::int) AS i`

// seedSession is the chat session $3 that brought lead $2 of company $1; seedMessages gives
// session $2 of company $1 $3 messages, the visitor's and the assistant's in turn.
const (
	seedSession = `
INSERT INTO chat_sessions (company_id, session_id, lead_id, visitor_messages, first_name, last_name, email)
VALUES ($1, $3, $2, 10, 'Eszter', 'Kovács', 'visszatero.ugyfel@example.hu')`
	seedMessages = `
INSERT INTO chat_messages (company_id, session_id, visitor, text, created_at)
SELECT $1, $2, i % 2 = 1,
       CASE WHEN i % 2 = 1 THEN 'Mennyibe kerül egy hőszivattyú egy 120 m²-es házhoz? (' || i || ')'
            ELSE 'Egy 120 m²-es házhoz általában 8–10 kW-os hőszivattyú kell; az ár a típustól függ.' END,
       now() - interval '1 hour' + i * interval '10 seconds'
FROM generate_series(1, $3::int) AS i`
)

// seedLeadPage gives the big company the lead page's lead: the same person's other leads, a
// transcript, a history of status changes and notes by the owner, made as the dashboard makes
// them.
func (b *bench) seedLeadPage(ctx context.Context, s *postgres.Store) error {
	id := uuid.New()
	if _, err := s.DB().ExecContext(ctx, seedRelatedLeads, b.bigCompany, id, relatedLeads, pageLeadAddress); err != nil {
		return fmt.Errorf("seeding the lead page's related leads: %w", err)
	}
	const session = "leadchat-bench-lead-page"
	if _, err := s.DB().ExecContext(ctx, seedSession, b.bigCompany, id, session); err != nil {
		return fmt.Errorf("seeding the lead page's chat session: %w", err)
	}
	if _, err := s.DB().ExecContext(ctx, seedMessages, b.bigCompany, session, pageTranscript); err != nil {
		return fmt.Errorf("seeding the lead page's transcript: %w", err)
	}
	statuses := []lead.Status{lead.StatusContacted, lead.StatusQualified}
	for i := range pageHistory {
		if err := s.SetLeadStatus(ctx, b.bigCompany, id, statuses[i%2], lead.OriginDashboard); err != nil {
			return fmt.Errorf("seeding the lead page's history: %w", err)
		}
	}
	for i := range pageNotes {
		text := fmt.Sprintf("%d. jegyzet: felhívtam, a hőszivattyú ára és a telepítés ideje érdekli; jövő héten újra hívom.", i+1)
		if _, err := s.AddLeadNote(ctx, b.bigCompany, id, b.ownerID, text); err != nil {
			return fmt.Errorf("seeding the lead page's notes: %w", err)
		}
	}
	b.pageLead = id
	return nil
}

// leadPageRequest is GET /app/leads/{id} with a session cookie.
func leadPageRequest(host, cookie string, id uuid.UUID) []byte {
	return []byte(fmt.Sprintf("GET /app/leads/%s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n", id, host, cookie))
}
