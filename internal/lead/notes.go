package lead

import (
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

// InternalNote is a note the company's people keep on a lead: never shown to the person, never
// sent to a webhook, exported and erased with the lead.
type InternalNote struct {
	ID int64
	// AuthorID is the user who wrote it, uuid.Nil once they are removed; Author is their
	// address as it was then, so the note still says who wrote it.
	AuthorID uuid.UUID
	Author   string
	Text     string
	At       time.Time
}

// CheckNoteText checks a note's text: 1 to limits.NoteLen characters after trimming, line
// breaks and tabs allowed, no other control character.
func CheckNoteText(s string) (string, error) {
	s, err := CheckText("note", s, limits.NoteLen)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", errs.Field(errs.CodeMissingField, "note")
	}
	return s, nil
}
