package assistant

import (
	"slices"
	"strings"
)

// areaConcept is the bit of the concept of where a company works ("körzet", "megye", "vidék",
// "kiszállás", "area").
var areaConcept = conceptsOf("korzet")

// placeCases are the folded endings of the Hungarian cases that say where or whither: in
// ("Debrecenben"), into ("Győrbe"), onto ("Komlóra"), on ("Szegeden", "Tatán").
var placeCases = []string{"ban", "ben", "ba", "be", "ra", "re", "on", "en", "an"}

// aroundWords are the English prepositions of places around another: "outside Pécs".
const aroundWords = "outside near around"

// placePrepositions stand before an English place name: "in Debrecen", "to Szeged".
var placePrepositions = wordSet("in to " + aroundWords)

// beyond is aroundWords as a set: a place after one of them is around it ("villages outside
// Pécs"), so the company's own place counts too.
var beyond = wordSet(aroundWords)

// placeQuestion reports whether the query asks whether the company works at a place: its only
// topic words name a place, a name in a case of where (or after "in", "outside") or a word of
// the area concept ("Vidékre", "megyében"), and all its other words are generic, a verb of
// working or coming ("dolgoztok", "kijöttök", "vállaltok munkát"). The name is one the
// profile never says: a word it says is asked about as that. A name at the start of the
// message may be an everyday word written with a capital ("Tetőn is dolgoztok?", "Tetőtérben is
// dolgoztok?"): unless the dictionary knows neither it nor its parts ("Debrecenben"), it counts
// only beside a word of coming out to a place ("Komlóra is kijöttök?"). toks are the message's
// folded words.
func placeQuestion(ss []scored, q query, message string, toks []string) bool {
	if q.where || q.when || q.duration || q.price || q.howMuch != 0 || q.clock {
		return false // "Hol van a Szegedi iroda?" asks the address, "Mikor jöttök Győrbe?" a time
	}
	comes := slices.ContainsFunc(q.terms, func(t queryTerm) bool { return t.weight < 1 && t.concepts&areaConcept != 0 })
	place, generic := false, false
	var caps map[string]bool
	capital := func(f string) bool {
		if caps == nil {
			caps = capitalised(message)
		}
		return caps[f]
	}
	// "Debreceni cég vagyok, velem is dolgoztok?": a clause before the question that says where
	// the visitor is from, by the adjective of a name no dictionary knows, tells the visitor's
	// situation; its other words ask nothing.
	from, last := -1, 0
	for j, t := range q.terms {
		last = max(last, t.clause)
		if !q.english && from < 0 && t.proper && len(t.parts) == 0 && strings.HasSuffix(t.fold, "i") && !usesWord(ss, j) && capital(t.fold) {
			from = t.clause
		}
	}
	if from == last {
		from = -1
	}
	for j, t := range q.terms {
		switch {
		case t.clause == from && t.weight >= 1 && t.proper && strings.HasSuffix(t.fold, "i"):
			place = true
		case t.clause == from && !t.negated:
			// the visitor's own situation
		case t.weight < 1 && !t.negated:
			generic = true
		case t.negated || t.mine:
			return false
		case t.concepts == areaConcept:
			place = true // "Vidékre is kijöttök?"
		case t.concepts != 0:
			return false // "Hétvégén is dolgoztok?": a time, no place
		case q.english && placePrepositions[t.fold]:
			// "outside": the place after it says where
		case q.english && t.at > 0 && t.at <= len(toks) && beyond[toks[t.at-1]] && capital(t.fold):
			place = true // "villages outside Pécs": around the place the company names as its own
		case usesWord(ss, j):
			return false // "Társasházra is vállaltok?" of a profile that names blocks of flats
		case q.english:
			if !t.proper || t.at == 0 || t.at > len(toks) || !placePrepositions[toks[t.at-1]] {
				return false
			}
			place = true
		default:
			if !slices.ContainsFunc(placeCases, func(c string) bool { return strings.HasSuffix(t.fold, c) && len(t.fold) > len(c)+2 }) {
				return false
			}
			if !capital(t.fold) {
				return false
			}
			initial := t.at == 0 || t.at <= len(toks) && toks[t.at-1] == clauseBreak
			if initial && (!t.proper || len(t.parts) > 0) && !comes {
				return false // a known word, or a compound of known ones ("Tetőtérben")
			}
			place = true
		}
	}
	return place && generic
}

// areaEntry returns the one entry with a name of its own (an FAQ, a service) that says where
// the company works, by a word of the area concept or a distance ("20 km-en belül"), or, when
// none does, the description if it says so; -1 when none does or two entries do, which leaves
// the visitor's place for a colleague to judge.
func areaEntry(ss []scored) int {
	found, about := -1, -1
	for i, s := range ss {
		if !s.area {
			continue
		}
		switch {
		case named(s.kind) && found >= 0:
			return -1
		case named(s.kind):
			found = i
		case s.kind == factAbout:
			about = i
		}
	}
	if found < 0 {
		return about
	}
	return found
}

// kilometre is the unit of distances between places.
var kilometre = unitOf("km")

// states reports whether a fact's words say an area: a word of the area concept or a distance.
func states(f *fact) bool {
	// A length in kilometres ("20 km-en belül") is a distance, one in metres or centimetres a size.
	area := func(t term) bool { return t.concepts&areaConcept != 0 || t.unit == kilometre }
	return slices.ContainsFunc(f.keys, area) || slices.ContainsFunc(f.body, area)
}
