package assistant

import "slices"

// saidBetterElsewhere reports whether s, an FAQ that the question names by one word of it
// alone ("fizetni" of "Hogyan lehet fizetni?"), leaves a topic word of the same question part
// to another FAQ whose own question says it, closer than s does: "Lehet részletre fizetni?"
// asks of paying in instalments, which "Lehet részletre vásárolni?" names, not of the ways to
// pay. An everyday word that is the whole of a short FAQ's question is said by many questions
// about other things; the words the FAQ does not say tell which.
func saidBetterElsewhere(ss, out []scored, q query, s scored) bool {
	if s.kind != factFAQ || s.keyCover < 1 || q.asks != 0 && asksOf(s, q) == q.asks {
		return false // "Hogyan lehet fizetni a felmérést?" asks what the FAQ asks, of the survey
	}
	by := -1 // the one topic word of the question that names a key of s
	for j := range q.terms {
		qt := &q.terms[j]
		if !topicWord(qt) || !slices.ContainsFunc(s.keys, func(k term) bool { return match(&qt.term, &k) >= weakMatch }) {
			continue
		}
		if by >= 0 {
			return false
		}
		by = j
	}
	if by < 0 {
		return false
	}
	for j := range q.terms {
		qt := &q.terms[j]
		if j == by || !topicWord(qt) || qt.concepts&durationConcept != 0 || qt.part != q.terms[by].part || s.hit[j] >= bodyWeight*sameIdea {
			continue
		}
		if slices.ContainsFunc(ss, func(r scored) bool {
			return r.kind == factFAQ && !sameFact(r.fact, s.fact) && r.hit[j] > s.hit[j] && !inAnswer(out, r.fact) &&
				slices.ContainsFunc(r.keys, func(k term) bool { return match(&qt.term, &k) >= sameIdea })
		}) {
			return true
		}
	}
	return false
}

// inAnswer reports whether the fact f is one of the entries of the answer so far.
func inAnswer(out []scored, f *fact) bool {
	return slices.ContainsFunc(out, func(o scored) bool { return sameFact(o.fact, f) })
}

// topicWord reports whether a query term names a topic of its own: not a generic word, a
// preposition, or a word standing for the company's name.
func topicWord(qt *queryTerm) bool { return qt.weight >= 1 && !qt.closed && !qt.byName }

// askedOtherwise reports whether s, an FAQ whose whole question is the one topic word of the
// query, asks of that word with another question word than the visitor does, while another
// FAQ whose own question holds the word itself asks of it alike: "Előre kell
// fizetni valamennyit?" asks whether one must pay, as "Kell előleget fizetni?" does, not how
// ("Hogyan lehet fizetni?").
func askedOtherwise(ss, out []scored, q query, s scored) bool {
	if s.kind != factFAQ || s.keyCover < 1 || asksOf(s, q) == q.asks {
		return false
	}
	by := -1
	for j := range q.terms {
		if !topicWord(&q.terms[j]) {
			continue
		}
		if by >= 0 || s.hit[j] < bodyWeight*sameIdea {
			return false // another topic word: what is asked of it decides, not the question word
		}
		by = j
	}
	if by < 0 {
		return false
	}
	qt := &q.terms[by]
	return slices.ContainsFunc(ss, func(r scored) bool {
		return r.kind == factFAQ && !sameFact(r.fact, s.fact) && asksOf(r, q) == q.asks &&
			!inAnswer(out, r.fact) &&
			slices.ContainsFunc(r.keys, func(k term) bool { return match(&qt.term, &k) >= sameWord })
	})
}

// asksOf returns the question words of an FAQ's question in the language of the query.
func asksOf(s scored, q query) uint64 {
	if q.english && s.faq.QuestionEN != "" {
		return s.asks[1]
	}
	return s.asks[0]
}
