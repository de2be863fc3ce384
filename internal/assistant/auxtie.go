package assistant

// topicRank is rank over the query's topic words (weight 1) that no earlier answer used: what
// an entry matched of what the question is about, without its generic words.
func topicRank(s scored, q query, used []bool) float64 {
	r := 0.0
	for j, c := range s.contrib {
		if c > 0 && !used[j] && q.terms[j].weight >= 1 {
			r += c
		}
	}
	return r
}

// alikeOverAuxiliary reports whether FAQ a, asked with the visitor's question words, should
// answer before FAQ b, which is not, though b ranks higher: a matches the question's topic
// words at least about as well (nearTie), so b leads by generic words alone (weight under 1,
// as "kér", ask, of its answer's "kérjük", please). "Hogy tudok időpontot kérni?" is "Hogyan
// foglalhatok időpontot?", not "Le tudom mondani az időpontot?", whose answer says "kérjük".
func alikeOverAuxiliary(a, b scored, q query, used []bool) bool {
	if a.kind != factFAQ || b.kind != factFAQ || !askedAlike(a, q) || askedAlike(b, q) {
		return false
	}
	ta, tb := topicRank(a, q, used), topicRank(b, q, used)
	return ta > 0 && ta > tb*(1-nearTie)
}
