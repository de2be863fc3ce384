package assistant

// describedWhereToDo reports whether the description, chosen first for a where-question,
// itself says the verb the visitor asks where to do: "Parkolni hol lehet?" of a description
// that says "a szalon előtti utcában ingyenes parkolás van". The description's words say where,
// which the address alone does not; a where-question of no verb ("Hol van a szalon?") or of a
// verb the description does not say still gets the address.
func describedWhereToDo(chosen []scored, q query) bool {
	if len(chosen) == 0 || chosen[0].kind != factAbout {
		return false
	}
	for j := range q.terms {
		qt := &q.terms[j]
		if qt.weight >= 1 && !qt.mine && (verbal(&qt.term) || infinitive(qt.fold)) && chosen[0].hit[j] >= bodyWeight*sameIdea {
			return true
		}
	}
	return false
}
