package assistant

// determined reports whether the English word t at i of a message's folded words stands right
// after an article or a possessive determiner, and so is a noun there ("my house", "a
// seat"), not a verb of the same spelling. A derivation of its stem ("the cleaning", "your
// cancellation", see derivedLetters) names the action, which a Hungarian verb says.
func determined(folded []string, i int, t *term) bool {
	if i == 0 || len(folded[i]) >= len(t.en)+derivedLetters {
		return false
	}
	switch folded[i-1] {
	case "a", "an", "the", "my", "our", "your", "their", "his", "her", "its":
		return true
	}
	return false
}
