package bench

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/bench/leadpage"
	"github.com/leadchat/leadchat/internal/postgres"
)

// lcLeadPage is the read pair's lead page step: one lead of the big company as its owner opens
// it, with the same person's other leads, its notes, its history and its chat transcript.
const lcLeadPage = "leadchat: dashboard lead page"

// seedLeadPage gives the big company the lead page's lead (leadpage.Seed), its notes by the
// owner.
func (b *bench) seedLeadPage(ctx context.Context, s *postgres.Store) error {
	id, err := leadpage.Seed(ctx, s, b.bigCompany, b.ownerID)
	if err != nil {
		return err
	}
	b.pageLead = id
	return nil
}

// leadPageRequest is GET /app/leads/{id} with a session cookie.
func leadPageRequest(host, cookie string, id uuid.UUID) []byte {
	return []byte(fmt.Sprintf("GET /app/leads/%s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n", id, host, cookie))
}
