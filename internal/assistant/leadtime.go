package assistant

import (
	"iter"
	"slices"
	"strings"
)

// leadTime reports whether the folded word i asks how long before something must be done, a
// length of time: "how far ahead", "how far in advance", "how early", "mennyivel előbb /
// előre / korábban" (how much earlier). "How far" alone asks a distance (measureAsked).
func leadTime(folded []string, i int) bool {
	prev, next := "", ""
	if i > 0 {
		prev = folded[i-1]
	}
	if i+1 < len(folded) {
		next = folded[i+1]
	}
	switch f := folded[i]; {
	case prev == "how" && f == "far":
		return aheadWords[next] || next == "in" && i+2 < len(folded) && folded[i+2] == "advance"
	case prev == "how" && f == "early":
		return true
	case prev == "mennyivel":
		return earlierWords[f]
	}
	return false
}

// aheadWords say, after "how far", that a time before is asked; earlierWords say it after
// "mennyivel" (by how much).
var (
	aheadWords   = wordSet(`ahead before beforehand`)
	earlierWords = wordSet(`elobb elore korabban hamarabb`)
)

// statesLead reports whether a text states a length of time before something: a number and
// a unit of time in the instrumental ("6 héttel", "két nappal", "48 órával"), or followed by
// a word of before ("2 weeks ahead", "3 days in advance", "egy hét előtte").
func statesLead(s string) bool {
	ws := words(s)
	for u := range counted(ws) {
		if t := makeTerm(ws[u], false, true); !unitOfTime(&t) {
			continue
		}
		if instrumental(fold(ws[u])) {
			return true
		}
		for _, w := range ws[u+1 : min(u+3, len(ws))] {
			if w == clauseBreak {
				break
			}
			if beforeWords[fold(w)] {
				return true
			}
		}
	}
	return false
}

// counted yields, for each number of a text's words, the index of the word after it, where
// the unit of what is counted stands: after the second number of a range ("2–3 héttel",
// "4–6 hét"). The numbers are written in digits or in words ("két", "two").
func counted(ws []string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i+1 < len(ws); i++ {
			if ws[i] == clauseBreak || !isNumber(ws[i]) && !numberWord.MatchString(fold(ws[i])) {
				continue
			}
			u := i + 1
			if isNumber(ws[u]) && u+1 < len(ws) {
				u++
			}
			if !yield(u) {
				return
			}
		}
	}
}

// beforeWords say that a length of time is counted back from something, folded.
var beforeWords = wordSet(`elotte elore korabban hamarabb ahead before beforehand advance earlier prior notice`)

// instrumental reports whether a folded Hungarian word ends in the instrumental "-val/-vel",
// whose v turns into the word's last consonant ("héttel", "nappal", "perccel").
func instrumental(f string) bool {
	if strings.HasSuffix(f, "val") || strings.HasSuffix(f, "vel") {
		return true
	}
	n := len(f)
	return n >= 5 && (f[n-2:] == "al" || f[n-2:] == "el") && f[n-3] == f[n-4] && !strings.ContainsRune("aeiou", rune(f[n-3]))
}

// statedAhead reports whether any entry the question matched states a lead time.
func statedAhead(ss []scored) bool {
	return slices.ContainsFunc(ss, func(s scored) bool { return s.ahead && rank(s) > 0 })
}
