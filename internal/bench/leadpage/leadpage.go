// Package leadpage stores the lead page that make bench measures and the benchmarks of its
// statement and handler read: one lead with the same person's other leads, a chat transcript,
// a history of status changes and notes, made as the dashboard makes them.
package leadpage

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// What the speed target names: Related other leads of the same person, Notes notes, and
// besides a history of History status changes and a transcript of Transcript messages.
const (
	Related    = 20
	Notes      = 50
	History    = 10
	Transcript = 20
	// Address is the e-mail address the page's lead and its related leads share.
	Address = "visszatero.ugyfel@example.hu"
	// Session is the chat session that brought the page's lead.
	Session = "leadchat-bench-lead-page"
)

// seedRelated stores the page's lead and $3 other leads of the same person (the same address
// and E.164 number) for company $1, the first with id $2, a day apart.
const seedRelated = `
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
VALUES ($1, $3, $2, 10, 'Eszter', 'Kovács', $4)`
	seedMessages = `
INSERT INTO chat_messages (company_id, session_id, visitor, text, created_at)
SELECT $1, $2, i % 2 = 1,
       CASE WHEN i % 2 = 1 THEN 'Mennyibe kerül egy hőszivattyú egy 120 m²-es házhoz? (' || i || ')'
            ELSE 'Egy 120 m²-es házhoz általában 8–10 kW-os hőszivattyú kell; az ár a típustól függ.' END,
       now() - interval '1 hour' + i * interval '10 seconds'
FROM generate_series(1, $3::int) AS i`
)

// Seed stores the page's lead for company companyID, its notes written by user owner, and
// returns its id.
func Seed(ctx context.Context, s *postgres.Store, companyID, owner uuid.UUID) (uuid.UUID, error) {
	id := uuid.New()
	if _, err := s.DB().ExecContext(ctx, seedRelated, companyID, id, Related, Address); err != nil {
		return uuid.Nil, fmt.Errorf("seeding the lead page's related leads: %w", err)
	}
	if _, err := s.DB().ExecContext(ctx, seedSession, companyID, id, Session, Address); err != nil {
		return uuid.Nil, fmt.Errorf("seeding the lead page's chat session: %w", err)
	}
	if _, err := s.DB().ExecContext(ctx, seedMessages, companyID, Session, Transcript); err != nil {
		return uuid.Nil, fmt.Errorf("seeding the lead page's transcript: %w", err)
	}
	statuses := []lead.Status{lead.StatusContacted, lead.StatusQualified}
	for i := range History {
		if err := s.SetLeadStatus(ctx, companyID, id, statuses[i%2], lead.OriginDashboard); err != nil {
			return uuid.Nil, fmt.Errorf("seeding the lead page's history: %w", err)
		}
	}
	for i := range Notes {
		text := fmt.Sprintf("%d. jegyzet: felhívtam, a hőszivattyú ára és a telepítés ideje érdekli; jövő héten újra hívom.", i+1)
		if _, err := s.AddLeadNote(ctx, companyID, id, owner, text); err != nil {
			return uuid.Nil, fmt.Errorf("seeding the lead page's notes: %w", err)
		}
	}
	return id, nil
}
