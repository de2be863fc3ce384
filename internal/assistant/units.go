package assistant

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// unitTable is a small table of units of measure and currencies, SI and everyday, as people
// write them in Hungarian and English: each row is one unit, what it measures, its symbol
// first, then the folded forms that name it (a trailing '*' takes any word that begins so:
// "négyzetméteres", "forintért"). It is general language, as a dictionary's appendix of units
// is, so that a visitor's "nm" or "square metres" is the profile's "m²".
var unitTable = []struct {
	kind  measure
	forms []string
}{
	{ofArea, []string{"m2", "nm", "nm2", "m2", "sqm", "negyzetmeter*", "squaremetre*", "squaremeter*"}},
	{ofArea, []string{"km2", "km2", "negyzetkilometer*", "squarekilometre*", "squarekilometer*"}},
	{ofArea, []string{"ha", "hektar*", "hectare*"}},
	{ofVolume, []string{"m3", "m3", "kobmeter*", "cubicmetre*", "cubicmeter*"}},
	{ofVolume, []string{"l", "l", "liter", "litert", "literes", "literrel", "literig", "litre", "litres", "liters"}},
	{ofLength, []string{"km", "km", "kilometer*", "kilometre*"}},
	{ofLength, []string{"m", "m", "meter", "meteres", "meterre", "metert", "meterig", "metre", "metres", "meters"}},
	{ofLength, []string{"cm", "cm", "centimeter*", "centimetre*"}},
	{ofLength, []string{"mm", "mm", "millimeter*", "millimetre*"}},
	{ofMass, []string{"kg", "kg", "kilogram*", "kilo", "kilos", "kilot", "kilonkent"}},
	{ofMass, []string{"g", "g", "gramm", "grammot", "grammos", "grammal", "gram", "grams"}},
	{ofMass, []string{"t", "tonna*", "tonne*", "ton", "tons"}},
	{ofEnergy, []string{"kw", "kw", "kwp", "kilowatt", "kilowattos", "kilowatts"}},
	{ofEnergy, []string{"kwh", "kwh", "kilowattora*", "kilowatthour*"}},
	{ofTime, []string{"h", "h", "hr", "hrs", "ora", "oras", "orat", "oran", "oraig", "oraba", "oraja", "oranyi", "oraval",
		"orara", "orankent", "hour", "hours", "hourly"}},
	{ofTime, []string{"min", "min", "mins", "perc", "percet", "percig", "perces", "percre", "percen", "percenkent", "percnyi",
		"percben", "minute*"}},
	{ofCount, []string{"db", "db", "darab*", "pcs", "pc", "piece*"}},
	{ofShare, []string{"%", "%", "szazalek*", "percent*"}},
	{ofMoney, []string{"huf", "ft", "huf", "forint*"}},
	{ofMoney, []string{"eur", "eur", "€", "euro", "eurot", "euros", "euroert", "euroban", "eurora"}},
	{ofMoney, []string{"usd", "usd", "$", "dollar*"}},
	{ofMoney, []string{"gbp", "gbp", "£", "pound", "pounds"}},
}

// measure is a bit of what a unit measures.
type measure uint16

const (
	ofArea measure = 1 << iota
	ofVolume
	ofLength
	ofMass
	ofEnergy
	ofTime
	ofCount
	ofShare
	ofMoney
)

// ofSize is what a question of how big asks: "mekkora a terem?", "how big is the box?".
const ofSize = ofArea | ofVolume | ofLength

// measureAsked returns what the folded word i asks to be measured, with the question word
// before it: "mekkora", "how big", "milyen nagy", "what size" ask a size, "how far", "milyen
// messze" a length, "how heavy", "milyen nehéz" a mass; 0 when it asks none.
func measureAsked(folded []string, i int) measure {
	prev := ""
	if i > 0 {
		prev = folded[i-1]
	}
	f := folded[i]
	switch {
	case strings.HasPrefix(f, "mekkor"): // "mekkora", "mekkorák", "mekkorát"
		return ofSize
	case prev == "how" && (f == "big" || f == "large"), prev == "what" && f == "size",
		(prev == "milyen" || prev == "mennyire") && f == "nagy":
		return ofSize
	case prev == "how" && f == "far" && !leadTime(folded, i), (prev == "milyen" || prev == "mennyire") && strings.HasPrefix(f, "messz"):
		return ofLength
	case prev == "how" && f == "heavy", (prev == "milyen" || prev == "mennyire") && f == "nehez":
		return ofMass
	}
	return 0
}

// askedTerm is the kind of answer a question of measure asks as a word of it, which matches
// a profile word of a unit of that measure ("m²" to "mekkora").
func askedTerm(m measure) term {
	return term{fold: askedFold, lemmas: []string{askedFold}, id: -1, asks: m}
}

// askedFold is the word of an askedTerm, which no text has.
const askedFold = "?measure"

// unitID is a unit as 1 + its row in unitTable, 0 for none.
type unitID uint8

// symbol is the unit's symbol, "" for none.
func (u unitID) symbol() string {
	if u == 0 {
		return ""
	}
	return unitTable[u-1].forms[0]
}

// measures is what the unit measures, 0 for none.
func (u unitID) measures() measure {
	if u == 0 {
		return 0
	}
	return unitTable[u-1].kind
}

// unitIndex finds a folded word's unit: whole forms by the word, stems by their first letter.
var unitIndex = func() (x struct {
	first  [256]bool // the first bytes of the forms: most words begin otherwise
	whole  map[string]unitID
	prefix map[byte][]unitStem
}) {
	x.whole, x.prefix = map[string]unitID{}, map[byte][]unitStem{}
	for i, row := range unitTable {
		u := unitID(i + 1)
		for _, w := range row.forms[1:] {
			x.first[w[0]] = true
			if stem, ok := strings.CutSuffix(w, "*"); ok {
				x.prefix[stem[0]] = append(x.prefix[stem[0]], unitStem{stem, u})
			} else {
				x.whole[w] = u
			}
		}
	}
	return x
}()

type unitStem struct {
	stem string
	unit unitID
}

// unitOf returns the unit a folded word names ("nm", "négyzetméteres" and "m2" are "m2"), 0
// when it names none.
func unitOf(f string) unitID {
	if f == "" || !unitIndex.first[f[0]] {
		return 0
	}
	if u, ok := unitIndex.whole[f]; ok {
		return u
	}
	var u unitID
	n := 0
	for _, p := range unitIndex.prefix[f[0]] {
		if len(p.stem) > n && strings.HasPrefix(f, p.stem) {
			u, n = p.unit, len(p.stem) // the longest stem: "negyzetkilometer" is no "negyzet..." km
		}
	}
	return u
}

// unitAt returns the unit of the folded word i, 0 when it names none. A letter ("m", "h") is a
// unit only right after a number ("60 m²", "8 h"): alone it is a letter. So is a word of
// countedUnits. A sign ("%", "€") is a unit wherever it stands.
func unitAt(folded []string, i int) unitID {
	u := unitOf(folded[i])
	if u == 0 || afterNumber(folded, i) {
		return u
	}
	if r, n := utf8.DecodeRuneInString(folded[i]); n == len(folded[i]) && unicode.IsLetter(r) || countedUnits[u.symbol()] {
		return 0
	}
	return u
}

// countedUnits are the units whose words are everyday nouns too: "óra" is also a lesson and a
// clock, "hours" the opening hours, "darab" and "piece" a part of anything. Only a number
// before one makes it a unit.
var countedUnits = map[string]bool{"h": true, "min": true, "db": true}

// numeral reports whether s is a number written in digits: isNumber holds for "" too.
func numeral(s string) bool { return s != "" && isNumber(s) }

func afterNumber(folded []string, i int) bool {
	return i > 0 && numeral(folded[i-1])
}

// quantityAt returns the quantity at the folded word i: a unit after a number, or a number
// after a sign or code of money ("€50", "HUF 390,000"), as one word of the number and the
// unit's symbol ("60 nm" and "60 m²" are "60m2", "14 000 Ft" is "14000huf"); "" when it is
// none. Groups of three digits after a number are its thousands, as Hungarian writes them.
func quantityAt(folded []string, i int) string {
	if !afterNumber(folded, i) {
		if !numeral(folded[i]) || i == 0 {
			return ""
		}
		u := unitOf(folded[i-1])
		if u.measures() != ofMoney {
			return ""
		}
		end := i + 1
		for end < len(folded) && len(folded[end]) == 3 && isNumber(folded[end]) {
			end++
		}
		if end < len(folded) && unitOf(folded[end]) != 0 {
			return "" // "EUR 50 Ft": the unit after the number is its own
		}
		return strings.Join(folded[i:end], "") + u.symbol()
	}
	u := unitOf(folded[i])
	if u == 0 {
		return ""
	}
	start := i - 1
	for start > 0 && len(folded[start]) == 3 && numeral(folded[start-1]) {
		start--
	}
	return strings.Join(folded[start:i], "") + u.symbol()
}

// quantityWeight is the weight of a quantity in a question: below 1, so that one no entry
// states costs the question nothing (see explainedIn).
const quantityWeight = 0.5

// quantityTerm is a quantity as a term, which matches the same quantity only.
func quantityTerm(q string) term {
	return term{fold: q, lemmas: []string{q}, id: -1, quantity: true}
}

// unitsMatch tells how well two terms match by their units: sameWord when both name one unit
// or state one quantity, or q asks the measure of k's unit; 0 when either is a quantity or q
// asks a measure and they differ (a unit does not
// decide: "óra" and "perc" are both of time); ok is false when units do not tell.
func unitsMatch(q, k *term) (m float64, ok bool) {
	if q.asks != 0 {
		if k.unit.measures()&q.asks != 0 {
			return sameWord, true
		}
		return 0, true
	}
	if k.unit.measures() == ofShare && q.concepts&relativePriceConcepts != 0 {
		return sameIdea, true // "more expensive" of "+20%": a percentage is a surcharge or discount
	}
	if q.quantity || k.quantity {
		if q.quantity && k.quantity && isSpan(k.fold) {
			if m, ok := spanMatch(q.fold, k.fold); ok {
				return m, true // "30 kilós" and "10 kg feletti"
			}
			return 0, true
		}
		if q.quantity && k.quantity && q.fold == k.fold {
			return sameWord, true
		}
		return 0, true
	}
	if q.unit != 0 && q.unit == k.unit {
		return sameWord, true
	}
	return 0, false
}

// timeOfDay reports whether the folded word i is the suffix or word that makes the number
// before it a time of day: "7-kor", "20:00-kor", "9 órakor" (at seven, at eight). "kor" alone
// is an age ("4 éves kortól").
func timeOfDay(folded []string, i int) bool {
	return (folded[i] == "kor" || folded[i] == "orakor") && afterNumber(folded, i)
}

// hourWords are the Hungarian hours of the clock said in words with the suffix "-kor" (at),
// folded: "kettőkor", "hétkor", "éjfélkor". "egykor" is left out: it also means "once, formerly".
var hourWords = map[string]int{"kettokor": 2, "haromkor": 3, "negykor": 4, "otkor": 5, "hatkor": 6,
	"hetkor": 7, "nyolckor": 8, "kilenckor": 9, "tizkor": 10, "tizenegykor": 11, "tizenkettokor": 12,
	"ejfelkor": 0, "delkor": 12}

// clockTime reports whether the folded word i names a time of day: a Hungarian one (see
// timeOfDay, hourWords), or an English one, "8am", "6 pm", "7 o'clock", "at 9:30".
func clockTime(folded []string, i int) bool {
	f := folded[i]
	_, inWords := hourWords[f]
	switch {
	case inWords || timeOfDay(folded, i):
		return true
	case (f == "am" || f == "pm" || f == "oclock") && afterNumber(folded, i):
		return true
	case len(f) > 2 && (strings.HasSuffix(f, "am") || strings.HasSuffix(f, "pm")) && isNumber(f[:len(f)-2]):
		return true
	}
	return numeral(f) && i > 0 && folded[i-1] == "at"
}
