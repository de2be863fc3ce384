package morph

import "strings"

// PhrasalKey returns the lexicon's key of the phrasal verb of the folded English words verb
// and particle ("pick up", "took away": "take away"), "" when the lexicon has no line for it.
// The dictionaries give such a phrase senses of its own ("felvesz", "elvisz"), which its verb
// alone lacks ("pick": "kikeres", "tép"); the generator keys them by PhrasalStem.
func (d *Data) PhrasalKey(verb, particle string) string {
	if len(verb) < 2 || !Particle(particle) {
		return ""
	}
	k := PhrasalStem(verb, particle)
	if !d.english.has(k) {
		base, ok := irregular[verb]
		if !ok {
			return ""
		}
		if k = PhrasalStem(base, particle); !d.english.has(k) {
			return ""
		}
	}
	return k
}

// PhrasalStem is the lexicon's key of the phrasal verb of verb and particle, as the generator
// writes it and PhrasalKey looks it up: the verb's stem, a space and the particle.
func PhrasalStem(verb, particle string) string { return EnglishStem(verb) + " " + particle }

// phrasalKey is PhrasalKey of a folded phrase of two words, "" for any other word.
func (d *Data) phrasalKey(w string) string {
	verb, particle, ok := strings.Cut(w, " ")
	if !ok || strings.Contains(particle, " ") {
		return ""
	}
	return d.PhrasalKey(verb, particle)
}

// particles are the adverbs that make a phrasal verb of the verb before them: "pick up",
// "take away", "find out", "drop off". Those that are prepositions too ("in", "on", "over",
// "to") are not among them: "pay in cash", "work in factories" and "come to my house" are
// no phrases, and read as phrases they lost covered questions.
var particles = [...]string{"up", "down", "out", "off", "away", "back", "apart"}

// Particle reports whether the folded English word w is an adverb that makes a phrasal verb
// of the verb before it (see particles).
func Particle(w string) bool {
	for _, p := range particles {
		if w == p {
			return true
		}
	}
	return false
}
