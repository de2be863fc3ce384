package assistant

import "slices"

// commonWord reports whether most of the profile's entries with names of their own (FAQs and
// services) say the query's word j, as a word of their own or of one idea with it: the trade's
// own noun, "kutya" at a dog salon whose every service is for a dog. score and explained weigh
// such a word down only against the question's other words, so alone it explains all.
func commonWord(ss []scored, j int) bool {
	entries, say := 0, 0
	for _, s := range ss {
		if named(s.kind) {
			entries++
			if s.hit[j] >= bodyWeight*sameIdea {
				say++
			}
		}
	}
	return say >= 3 && 2*say > entries
}

// commonOnly reports whether the first chosen fact is an FAQ and the chosen facts match no topic
// word of the query, however weakly, but ones most entries say (commonWord), of a question that
// asks no kind of answer (asksKind) to tell the entries apart by: "Mi van, ha közbejön valami és
// nem tudom vinni a kutyát?" of a dog salon is not answered by the FAQ "Mi van, ha harap a
// kutyám?", which shares only the dog with it; "Can you pick up the rug?" of a rug cleaner is
// answered by "Honnan veszitek fel a szőnyeget?", which says the pick-up too, if only as a
// verb with its prefix apart. An FAQ answers the one question it asks; "Mennyi ideig
// tart egy kutya fürdetése?" asks a length, which few entries state; a service is a thing the
// company offers, which a question of the word all services say ("Szolgáltatások?") may ask.
func commonOnly(ss []scored, q query, chosen []scored) bool {
	if chosen[0].kind != factFAQ || q.asksKind() {
		return false
	}
	some := false
	for j, qt := range q.terms {
		if qt.weight < 1 || qt.byName || !slices.ContainsFunc(chosen, func(s scored) bool { return s.hit[j] > 0 }) {
			continue
		}
		if !commonWord(ss, j) {
			return false
		}
		some = true
	}
	return some
}

// asksKind reports whether the query asks a kind of answer: a price, a length, a time, a
// place.
func (q query) asksKind() bool {
	return q.price || q.priceParts != 0 || q.howMuch != 0 || q.relative || q.duration || q.when || q.timeAsked || q.clock || q.where
}
