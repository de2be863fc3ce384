package assistant

import "slices"

// qualifiesName reports whether the query's adjective j stands right before a word that the
// entry s names by its own name or question, or before more adjectives of that word ("egy
// sima zárcsere" of a service "Zárcsere"; "a mohás, foltos gyepet" of one "Gyepfelújítás"):
// it says what kind of the entry's own thing is asked about, which the entry is about all
// the same. An adjective before a word the entry only mentions ("a hátsó kerekem" of a
// puncture repair whose text says "kerék") may be what tells the thing asked about from it.
func (q query) qualifiesName(j int, s scored) bool {
	for k := j + 1; k < len(q.terms); k++ {
		t := &q.terms[k]
		if t.at != q.terms[k-1].next || t.clause != q.terms[j].clause {
			return false
		}
		if !t.adjective {
			return slices.ContainsFunc(s.keys, func(key term) bool { return match(&t.term, &key) >= weakMatch })
		}
	}
	return false
}

// narrower reports whether another entry of all names a kind of s's thing: its own name or
// question says each word of s's and more ("Expressz székkárpitozás" of "Székkárpitozás"),
// so that an adjective no entry says ("gyors székkárpitozás") may be the visitor's word for
// that kind rather than a word of no topic.
func narrower(s scored, all []scored) bool {
	return slices.ContainsFunc(all, func(o scored) bool {
		return !sameFact(o.fact, s.fact) && len(o.keys) > len(s.keys) && !slices.ContainsFunc(s.keys, func(k term) bool {
			return !slices.ContainsFunc(o.keys, func(ok term) bool { return match(&k, &ok) >= sameIdea })
		})
	})
}

// restSaid reports whether the chosen entries say every topic word of the query other than
// its adjectives and adverbs of manner, at least in part: then those are all the question
// adds to what the entries answer. "Mennyi a sikeres vizsgák aránya?" asks of a rate no
// entry states, not of the exam an FAQ names.
func (q query) restSaid(chosen []scored) bool {
	for j := range q.terms {
		t := &q.terms[j]
		if t.weight >= 1 && !t.adjective && !t.manner && !slices.ContainsFunc(chosen, func(s scored) bool { return s.hit[j] > 0 }) {
			return false
		}
	}
	return true
}
