package assistant

import "github.com/leadchat/leadchat/internal/assistant/morph"

// phrasalAt reports whether the folded English words a and b of a question, neighbours, are a
// phrasal verb the lexicon gives senses of its own: "pick up" is "felszed", "felvesz", not
// "pick" ("kikeres") and a stop word; "take away" is "elvesz", "elvisz" before the noun
// "takeaway"'s words. Written with a hyphen ("check-up", "drop-in") the pair is a noun, which
// the lexicon holds as one word.
func phrasalAt(a, b string, hyphen bool) bool {
	return !hyphen && morph.Load().PhrasalKey(a, b) != ""
}
