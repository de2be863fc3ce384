package chat

import (
	"strings"
	"unicode/utf8"
)

// maxNote bounds a lead's summary of the conversation, in characters.
const maxNote = 1000

// noteSep separates the visitor's questions in a lead's note.
const noteSep = "\n"

// addToNote adds one of the visitor's questions or needs (assistant.Gist) to a lead's note.
// The note keeps the first question, which usually says what the visitor came for, and as
// many of the latest as fit; a question asked again is not repeated.
func addToNote(note, gist string) string {
	if gist == "" {
		return note
	}
	var items []string
	if note != "" {
		items = strings.Split(note, noteSep)
	}
	for _, it := range items {
		if strings.EqualFold(it, gist) {
			return note
		}
	}
	items = append(items, gist)
	for len(items) > 2 && utf8.RuneCountInString(strings.Join(items, noteSep)) > maxNote {
		items = append(items[:1], items[2:]...)
	}
	return strings.Join(items, noteSep)
}
