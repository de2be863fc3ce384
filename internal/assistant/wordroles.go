package assistant

import (
	"slices"
	"strings"
)

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

// perUnit reports whether the folded word i of a text's words (the first written of them
// the text's own, the rest hyphenated words taken whole) is what a price counts by: the word
// right after the money unit of an amount ("38 000 Ft / hó", a month; "6 500 Ft / fő"), or a
// whole hyphenated word that begins with such a word ("hó-tól"), given per, those found.
func perUnit(folded []string, i, written int, per []string) bool {
	if i >= written {
		return slices.ContainsFunc(per, func(p string) bool { return strings.HasPrefix(folded[i], p) })
	}
	return i >= 2 && unitOf(folded[i-1]).measures() == ofMoney && afterNumber(folded, i-1)
}

// countedBy reports whether the English word at i of a message's folded words is said as
// what something is counted by: after "per", "each", "every", an article or a number ("per
// night", "a night", "for 2 days").
func countedBy(folded []string, i int) bool {
	if i == 0 {
		return false
	}
	switch p := folded[i-1]; p {
	case "per", "each", "every", "a", "an", "one":
		return true
	default:
		return numeral(p)
	}
}
