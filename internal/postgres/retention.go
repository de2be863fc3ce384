package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// retentionBatch bounds the leads one erasure of the retention job takes, so that a large
// backlog is many short transactions rather than one that holds its locks for minutes.
const retentionBatch = 500

// selectExpiredLeads finds up to $2 leads created before their company's retention reaches
// back from $1, oldest first, through leads_company_created_id.
const selectExpiredLeads = `
SELECT l.company_id, l.id
FROM companies c
CROSS JOIN LATERAL (
    SELECT company_id, id FROM leads
    WHERE company_id = c.id AND created_at < $1::timestamptz - make_interval(months => c.retention_months)
    ORDER BY created_at, id LIMIT $2
) l
WHERE c.retention_months IS NOT NULL
LIMIT $2`

// eraseExpiredChats deletes up to $2 conversations that made no lead and were last active
// before their company's retention reaches back from $1, with their messages.
const eraseExpiredChats = `
WITH doomed AS (
    SELECT s.company_id, s.session_id
    FROM chat_sessions s JOIN companies c ON c.id = s.company_id
    WHERE c.retention_months IS NOT NULL AND s.lead_id IS NULL
        AND s.updated_at < $1::timestamptz - make_interval(months => c.retention_months)
    LIMIT $2
    FOR UPDATE OF s SKIP LOCKED
), messages AS (
    DELETE FROM chat_messages m USING doomed d WHERE m.company_id = d.company_id AND m.session_id = d.session_id
)
DELETE FROM chat_sessions s USING doomed d WHERE s.company_id = d.company_id AND s.session_id = d.session_id
RETURNING s.session_id`

// EraseExpired enforces every company's retention as of now: leads created more than its
// retention_months before now are erased as one person's request would erase them (lead.erased
// recorded for each), and conversations without a lead last active before then are deleted.
// It works in bounded batches until none is left and returns how many of each it removed. Two
// runs at once erase each lead once: the erasure locks the rows and skips those gone.
func (s *Store) EraseExpired(ctx context.Context, now time.Time) (leads, chats int, err error) {
	for {
		var rows []struct {
			CompanyID uuid.UUID `db:"company_id"`
			ID        uuid.UUID `db:"id"`
		}
		if err := s.db.SelectContext(ctx, &rows, selectExpiredLeads, now, retentionBatch); err != nil {
			return leads, chats, translate(err)
		}
		if len(rows) == 0 {
			break
		}
		byCompany := map[uuid.UUID][]uuid.UUID{}
		for _, r := range rows {
			byCompany[r.CompanyID] = append(byCompany[r.CompanyID], r.ID)
		}
		for company, ids := range byCompany {
			n, err := s.EraseLeads(ctx, company, ids)
			if err != nil {
				return leads, chats, err
			}
			leads += n
		}
	}
	for {
		var gone []string
		if err := s.db.SelectContext(ctx, &gone, eraseExpiredChats, now, retentionBatch); err != nil {
			return leads, chats, translate(err)
		}
		chats += len(gone)
		if len(gone) < retentionBatch {
			return leads, chats, nil
		}
	}
}
