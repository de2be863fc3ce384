package assistant

import (
	"strconv"
	"strings"
)

// Entries often differ by a range of one quantity: "10 kg alatti kutyáknak" and "10 kg
// feletti kutyáknak", "50 m²-ig", "4–6 hónapos kölyköknek", "under 5 years". A visitor who
// names a quantity of that measure ("30 kilós kutyám van", "for a 3-year-old") asks about the
// entry whose range holds it. The profile's ranges are terms of its entries (spanAt), which a
// visitor's quantity (quantityAt, ageAt) matches fully inside and only in part outside (see
// spanMatch): the entry still speaks of the visitor's case ("16 éves kortól" tells a parent of
// a 12-year-old no), but one whose range holds the quantity ranks first.

// scale is a unit a range may be stated in: the measure it belongs to, as that measure's base
// symbol, and its size in the base unit. Money is left out: a price "7 900 Ft-tól" is the least
// a service costs, and any larger amount a visitor names would fall inside it, whatever they ask.
type scale struct {
	dim  string
	size float64
}

// scales are the units of unitTable that a range compares, by symbol, and the units of age
// (ageAt), whose symbols begin with '@', which no folded word has.
var scales = map[string]scale{
	"kg": {"kg", 1}, "g": {"kg", 0.001}, "t": {"kg", 1000},
	"m2": {"m2", 1}, "km2": {"m2", 1e6}, "ha": {"m2", 1e4},
	"m3": {"m3", 1}, "l": {"m3", 0.001},
	"km": {"m", 1000}, "m": {"m", 1}, "cm": {"m", 0.01}, "mm": {"m", 0.001},
	"@y": {"@age", 365}, "@mo": {"@age", 30}, "@w": {"@age", 7}, "@d": {"@age", 1},
}

// ageUnit returns the symbol of the unit of age the folded word i names after a number, with
// the index after it: an adjective of a unit of time ("5 éves", "4–6 hónapos", "12 hetes
// kortól"), which says how old, or the English "year old", "months old" ("a 7-year-old");
// "" when it names none. "3 év" is a length, "3 éves garancia" an age only as a form: a single
// quantity of that kind matches nothing (see spanMatch).
func ageUnit(folded []string, i int) (string, int) {
	if i >= len(folded) {
		return "", i
	}
	f := folded[i]
	for _, a := range [...]struct{ stem, sym string }{{"eves", "@y"}, {"honapos", "@mo"}, {"hetes", "@w"}, {"napos", "@d"}} {
		if strings.HasPrefix(f, a.stem) {
			return a.sym, i + 1
		}
	}
	if f == "ev" && i+1 < len(folded) && (strings.HasPrefix(folded[i+1], "alatti") || strings.HasPrefix(folded[i+1], "feletti") || strings.HasPrefix(folded[i+1], "folotti")) {
		return "@y", i + 1 // "18 év alattiak", under-18s
	}
	if i+1 < len(folded) && folded[i+1] == "old" {
		switch strings.TrimSuffix(f, "s") {
		case "year", "yr":
			return "@y", i + 2
		case "month":
			return "@mo", i + 2
		case "week":
			return "@w", i + 2
		case "day":
			return "@d", i + 2
		}
	}
	return "", i
}

// ageAt returns the age the folded word i states after a number, as a quantity's fold ("5@y"
// of "5 éves"), "" when it states none.
func ageAt(folded []string, i int) string {
	if !afterNumber(folded, i) {
		return ""
	}
	sym, _ := ageUnit(folded, i)
	if sym == "" {
		return ""
	}
	return folded[i-1] + sym
}

// numberAt reads the number that begins at the folded word i, with its groups of three digits
// ("200 000"), and returns it with the index after it.
func numberAt(folded []string, i int) (float64, int) {
	s := folded[i]
	e := i + 1
	for e < len(folded) && len(folded[i]) <= 3 && len(folded[e]) == 3 && isNumber(folded[e]) {
		s += folded[e]
		e++
	}
	v, _ := strconv.ParseFloat(s, 64)
	return v, e
}

// unitAfter returns the scale of the unit at the folded word i (a unit of unitTable that
// scales holds, or one of age), with the index after it.
func unitAfter(folded []string, i int) (scale, string, int) {
	if i >= len(folded) {
		return scale{}, "", i
	}
	if sym, e := ageUnit(folded, i); sym != "" {
		return scales[sym], folded[i], e
	}
	w := folded[i]
	u := unitOf(w)
	if u == 0 {
		for _, suf := range [...]string{"ig", "tol"} { // "kilóig", "kilótól"
			if stem, ok := strings.CutSuffix(w, suf); ok && len(stem) > 2 {
				if u = unitOf(stem); u != 0 {
					break
				}
			}
		}
	}
	if u == 0 {
		return scale{}, "", i
	}
	return scales[u.symbol()], w, i + 1
}

// Words that bound a quantity, folded: after it ("10 kg alatti", "25 kg feletti"), or before
// it ("legalább 3 éves", "up to 50 m²", "under 10 kg").
var (
	boundsBelow = []string{"alatt", "kisebb", "konnyebb", "rovidebb", "fiatalabb", "kevesebb"}
	boundsAbove = []string{"felett", "folott", "nagyobb", "nehezebb", "hosszabb", "idosebb", "tobb"}
	upTo        = wordSet("legfeljebb maximum max maximalisan under below")
	from        = wordSet("legalabb minimum min minimalisan over above from")
)

// spanAt returns, as a term's fold, the range of a quantity the folded words of a profile's
// text state at i, "" when they state none there: "10–25 kg", "10 kg alatti", "25 kg feletti",
// "50 m²-ig", "2 doboztól", "12 éves kortól", "legalább 3 éves", "up to 50 m2", "under 10 kg",
// "between 10 and 25 kg". The fold is "~lo~hi~measure" in the measure's base unit, a bound left
// out where the range is open.
func spanAt(folded []string, i int) string {
	if !numeral(folded[i]) || i > 0 && numeral(folded[i-1]) || secondOfPair(folded, i) {
		return ""
	}
	lo, e := numberAt(folded, i)
	if e+1 < len(folded) && folded[e] == "tol" && numeral(folded[e+1]) {
		// "10-től 25 kg-ig": the unit comes with the second number only.
		hi, e2 := numberAt(folded, e+1)
		if sc, unit, u := unitAfter(folded, e2); sc.dim != "" && upToHere(folded, unit, u) {
			return span(lo*sc.size, true, hi*sc.size, true, sc.dim)
		}
	}
	hi, two, es := lo, false, false
	if e < len(folded) && numeral(folded[e]) {
		hi, e = numberAt(folded, e) // "10–25 kg": the dash is no word
		two = true
	} else if e+1 < len(folded) && numeral(folded[e+1]) && (folded[e] == "to" || folded[e] == "es" ||
		folded[e] == "and" && i > 0 && folded[i-1] == "between") {
		es = folded[e] == "es"
		hi, e = numberAt(folded, e+1)
		two = true
	}
	sc, unit, u := unitAfter(folded, e)
	if sc.dim == "" {
		return ""
	}
	open := func(below bool) string {
		if below {
			return span(0, false, hi*sc.size, true, sc.dim)
		}
		return span(lo*sc.size, true, 0, false, sc.dim)
	}
	after := ""
	if u < len(folded) {
		after = folded[u]
	}
	switch {
	case after == "nal" || after == "nel": // "10 kg-nál könnyebb"
		if u+1 < len(folded) {
			after = folded[u+1]
		}
	case after == "ig" || strings.HasSuffix(unit, "ig") || after == "korig":
		return open(true) // "50 m²-ig", "18 éves korig"
	case after == "tol" || strings.HasSuffix(unit, "tol") || after == "kortol" || after == "to":
		next := u
		if after == "tol" || after == "to" || after == "kortol" {
			next = u + 1
		}
		if next < len(folded) && numeral(folded[next]) {
			// "10 kg-tól 25 kg-ig", "from 10 kg to 25 kg": one range.
			h, e2 := numberAt(folded, next)
			if sc2, unit2, u2 := unitAfter(folded, e2); sc2.dim == sc.dim && (after == "to" || upToHere(folded, unit2, u2)) {
				return span(lo*sc.size, true, h*sc2.size, true, sc.dim)
			}
		}
		if after == "to" {
			break
		}
		return open(false) // "2 doboztól", "12 éves kortól"
	case after == "es" && u+1 < len(folded) && (strings.HasPrefix(folded[u+1], "korzet") || strings.HasPrefix(folded[u+1], "sugaru")),
		i > 0 && folded[i-1] == "within", after == "radius":
		return open(true) // "30 km-es körzetében", "within 30 km": as far as that
	}
	if two {
		if es && !strings.HasPrefix(after, "kozott") {
			return "" // "2 és 5 kg" without "között" (between) names two quantities
		}
		return span(lo*sc.size, true, hi*sc.size, true, sc.dim)
	}
	for _, b := range boundsBelow {
		if strings.HasPrefix(after, b) {
			return open(true)
		}
	}
	for _, b := range boundsAbove {
		if strings.HasPrefix(after, b) {
			return open(false)
		}
	}
	if i > 0 {
		before := folded[i-1]
		switch {
		case upTo[before], before == "to" && i > 1 && folded[i-2] == "up", before == "than" && i > 1 && folded[i-2] == "less":
			return open(true)
		case from[before], before == "than" && i > 1 && folded[i-2] == "more", before == "least" && i > 1 && folded[i-2] == "at":
			return open(false)
		}
	}
	return ""
}

// span writes a range as spanAt's fold.
func span(lo float64, hasLo bool, hi float64, hasHi bool, dim string) string {
	var b strings.Builder
	b.WriteByte('~')
	if hasLo {
		b.WriteString(strconv.FormatFloat(lo, 'g', -1, 64))
	}
	b.WriteByte('~')
	if hasHi {
		b.WriteString(strconv.FormatFloat(hi, 'g', -1, 64))
	}
	b.WriteByte('~')
	b.WriteString(dim)
	return b.String()
}

// isSpan reports whether a quantity term's fold is a range (spanAt), not a quantity.
func isSpan(fold string) bool { return fold != "" && fold[0] == '~' }

// spanTerm is a range as a term, which a quantity of its measure matches (see spanMatch).
func spanTerm(s string) term {
	return term{fold: s, lemmas: []string{s}, id: -1, quantity: true}
}

// outsideSpan is how well a quantity matches a range of its measure that excludes it: under
// what counts as naming the topic, so that it lifts no entry over one whose range holds the
// quantity (see score), yet the entry still speaks of the visitor's case.
const outsideSpan = 0.75

// spanMatch tells how well the quantity of fold q ("30kg", "5@y") matches the range of fold
// k: sameWord inside, outsideSpan outside; ok is false when they measure different things.
func spanMatch(q, k string) (m float64, ok bool) {
	n := 0
	for n < len(q) && q[n] >= '0' && q[n] <= '9' {
		n++
	}
	sc, known := scales[q[n:]]
	if n == 0 || !known {
		return 0, false
	}
	lo, rest, _ := strings.Cut(k[1:], "~")
	hi, dim, _ := strings.Cut(rest, "~")
	if dim != sc.dim {
		return 0, false
	}
	v, _ := strconv.ParseFloat(q[:n], 64)
	v *= sc.size
	const slack = 1e-9
	if l, err := strconv.ParseFloat(lo, 64); err == nil && v < l-slack {
		return outsideSpan, true
	}
	if h, err := strconv.ParseFloat(hi, 64); err == nil && v > h+slack {
		return outsideSpan, true
	}
	return sameWord, true
}

// ofAge reports whether the word i of a text's words, after a number, is an adjective of a
// unit of time that says how old: one qualifying whom it is for, a noun in the dative plural
// ("4–6 hónapos kölyköknek", "6–10 éves gyerekeknek"), or the age itself ("12 éves kortól").
// "3 napos tanfolyam", "2 éves garancia" say how long.
func ofAge(ws []string, i int) bool {
	if i+1 >= len(ws) {
		return false
	}
	folded := []string{fold(ws[i])}
	if sym, _ := ageUnit(folded, 0); sym == "" || folded[0] == "ev" {
		return false
	}
	next := fold(ws[i+1])
	return strings.HasPrefix(next, "kor") || strings.HasSuffix(next, "knak") || strings.HasSuffix(next, "knek")
}

// upToHere reports whether the unit word unit, or the word at u after it, closes a range with
// "-ig" (up to): "25 kg-ig", "25 kilóig", "16 éves korig".
func upToHere(folded []string, unit string, u int) bool {
	return strings.HasSuffix(unit, "ig") || u < len(folded) && (folded[u] == "ig" || folded[u] == "korig")
}

// secondOfPair reports whether the number at i closes a range whose first number spanAt read
// with it: "10 kg-tól 25 kg-ig", "10-től 25 kg-ig", "from 10 kg to 25 kg".
func secondOfPair(folded []string, i int) bool {
	if i < 2 {
		return false
	}
	prev := folded[i-1]
	switch {
	case prev == "tol" || prev == "kortol":
		return numeral(folded[i-2]) || i > 2 && numeral(folded[i-3])
	case prev == "to":
		return i > 2 && unitOf(folded[i-2]) != 0 && numeral(folded[i-3])
	case strings.HasSuffix(prev, "tol"):
		return unitOf(strings.TrimSuffix(prev, "tol")) != 0 && numeral(folded[i-2])
	}
	return false
}
