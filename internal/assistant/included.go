package assistant

// includedNamed returns the service that the question names whole (every word of its name)
// and that the first pick, a service matched only in what it says (no word of its name),
// lists by that name: "nail trim only?" asks about "Karomvágás", not the full grooming whose
// description says "fürdetés, nyírás, karomvágás". The pick includes the named service, which
// is what is asked; or -1. Services only: an FAQ's answer that says a service's name, or an
// FAQ named by an everyday word ("Hogyan lehet fizetni?"), is no part of a package.
func includedNamed(ss []scored, pick scored, q query) int {
	if pick.kind != factService || pick.keyCover > 0 || !q.onePart() {
		return -1
	}
	best := -1
	for i, s := range ss {
		if s.kind != factService || s.keyCover < 1 || sameFact(s.fact, pick.fact) || !sharesStrong(s, pick, q) || !bodySays(pick, s.keys) {
			continue
		}
		if best < 0 || rank(s) > rank(ss[best]) {
			best = i
		}
	}
	return best
}

// sharesStrong reports whether a topic word of the query matches both facts strongly.
func sharesStrong(a, b scored, q query) bool {
	for j := range q.terms {
		if q.terms[j].weight >= 1 && a.strongAt[j] && b.strongAt[j] {
			return true
		}
	}
	return false
}

// bodySays reports whether a fact's text says every one of keys as the same word.
func bodySays(f scored, keys []term) bool {
	if len(keys) == 0 {
		return false
	}
	for i := range keys {
		found := false
		for j := range f.body {
			if match(&keys[i], &f.body[j]) >= related {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
