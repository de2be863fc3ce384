package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
)

// insertNote adds a note to a company's lead by one of its users, in one statement: no row back
// means the lead or the author is not the company's. The author's address is copied from users.
const insertNote = `
INSERT INTO lead_notes (company_id, lead_id, author_id, author_email, body)
SELECT $1, l.id, u.id, u.email, $4
FROM leads l JOIN memberships m ON m.company_id = $1 AND m.user_id = $3 JOIN users u ON u.id = m.user_id
WHERE l.company_id = $1 AND l.id = $2
RETURNING id, created_at`

// AddLeadNote keeps a checked note on a company's lead, written by authorID; a lead that is not
// the company's is errs.NotFound, as is an author who is not its user.
func (s *Store) AddLeadNote(ctx context.Context, companyID, leadID, authorID uuid.UUID, text string) (lead.InternalNote, error) {
	text, err := lead.CheckNoteText(text)
	if err != nil {
		return lead.InternalNote{}, err
	}
	var row struct {
		ID        int64     `db:"id"`
		CreatedAt time.Time `db:"created_at"`
	}
	if err := s.db.GetContext(ctx, &row, insertNote, companyID, leadID, authorID, text); err != nil {
		return lead.InternalNote{}, leadNotFound(translate(err))
	}
	return lead.InternalNote{ID: row.ID, AuthorID: authorID, Text: text, At: row.CreatedAt}, nil
}

// selectNotes reads a lead's notes in the order they were written.
const selectNotes = `
SELECT id, author_id, author_email, body, created_at
FROM lead_notes WHERE company_id = $1 AND lead_id = $2 ORDER BY id`

// LeadNotes returns a company's lead's notes, oldest first (none for a lead that is not the
// company's).
func (s *Store) LeadNotes(ctx context.Context, companyID, leadID uuid.UUID) ([]lead.InternalNote, error) {
	var rows []struct {
		ID        int64         `db:"id"`
		AuthorID  uuid.NullUUID `db:"author_id"`
		Author    string        `db:"author_email"`
		Body      string        `db:"body"`
		CreatedAt time.Time     `db:"created_at"`
	}
	if err := (runner{s: s}).selectAll(ctx, &rows, selectNotes, companyID, leadID); err != nil {
		return nil, translate(err)
	}
	out := make([]lead.InternalNote, len(rows))
	for i, r := range rows {
		out[i] = lead.InternalNote{ID: r.ID, AuthorID: r.AuthorID.UUID, Author: r.Author, Text: r.Body, At: r.CreatedAt}
	}
	return out, nil
}
