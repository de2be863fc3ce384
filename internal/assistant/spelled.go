package assistant

import (
	"slices"
	"strings"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// spelling finds the profile words that two words of a Hungarian question write as one
// compound (see spells). Most profile words begin with two letters no word of the question
// holds, and are passed over at one test of a bit.
type spelling struct {
	// pairs has, for each of the query's topic words, a bit for each two neighbouring letters
	// of its lemmas (see pairBit); any is their union. Words after the 64th share the last
	// slot, which then says too much, never too little (see at).
	pairs [64]uint64
	any   uint64
}

// init prepares the words of q for spells, which it is then given.
func (s *spelling) init(q *query) {
	if q.english {
		return
	}
	for j := range q.terms {
		t := &q.terms[j]
		if t.weight < 1 || t.english {
			continue
		}
		p := &s.pairs[min(j, len(s.pairs)-1)]
		for _, l := range t.lemmas {
			for i := 0; i+1 < len(l); i++ {
				*p |= pairBit(l[i:])
			}
		}
		s.any |= *p
	}
}

// at returns the letter pairs of the query's word j.
func (s *spelling) at(j int) uint64 { return s.pairs[min(j, len(s.pairs)-1)] }

// pairBit is the bit of the first two letters of w.
func pairBit(w string) uint64 { return 1 << ((uint(w[0])*31 + uint(w[1])) & 63) }

// spells reports whether the Hungarian query word j and another topic word of the message,
// written apart, are the profile's word k written as one compound: "sövényt … nyírni" of
// "sövénynyírás", "diófa …, ki kéne vágni" of "fakivágás". Hungarian writes a compound's
// first part as its lemma and begins the rest with the word the rest is made of, so the two
// words said together name the compound as their phrase, which each alone names only in part.
// The words may stand in two clauses: a visitor names the thing, then what to do with it.
func (s *spelling) spells(ts []queryTerm, j int, k *term) bool {
	return len(k.fold) >= minSplit && s.any&pairBit(k.fold) != 0 && s.at(j) != 0 && s.spelled(ts, j, k)
}

// spelled is spells past its quick tests.
func (s *spelling) spelled(ts []queryTerm, j int, k *term) bool {
	start := pairBit(k.fold)
	a := &ts[j]
	for i := range ts {
		if i == j || s.at(i) == 0 {
			continue
		}
		b := &ts[i]
		if s.at(j)&start != 0 && joins(&a.term, &b.term, k.fold) ||
			s.at(i)&start != 0 && joins(&b.term, &a.term, k.fold) {
			return true
		}
	}
	return false
}

// joins reports whether the folded word w is one of first's lemmas, or its end ("tujasövényt"
// ends in "sövény", "diófa" in "fa"), followed by next's lemma and more: the first part of a
// compound and the beginning of the rest. A first part of two letters counts only where the
// dictionary's compounding flags let the word begin a compound ("fű", grass, of "fűnyírás");
// the rest begins with three letters of next's at least.
func joins(first, next *term, w string) bool {
	l := next.lemmas[0]
	if next.pre > 0 && int(next.pre) <= len(next.fold) && joinsAt(first, next.fold[:next.pre]+l, w) {
		return true // "ki … vágni" of "fakivágás"
	}
	return joinsAt(first, l, w)
}

// joinsAt is joins for the next word's lemma l: the rest of w begins with l, or is, four
// letters or more, the beginning of l ("zárat … cseréltetni" of "zárcsere": the noun "csere"
// of the verb "cserél").
func joinsAt(first *term, l, w string) bool {
	if len(l) < 3 || len(w) < minFirstPart+2 {
		return false
	}
	if i := strings.Index(w[2:], l); i >= 0 && firstPart(first, w[:i+2]) {
		return true
	}
	for p := max(2, len(w)-len(l)); p <= len(w)-4; p++ {
		if strings.HasPrefix(l, w[p:]) && firstPart(first, w[:p]) {
			return true
		}
	}
	return false
}

// firstPart reports whether head is one of the word's lemmas or its end, after three letters
// or more, and begins a compound: three letters, or two the compounding flags let begin one.
func firstPart(t *term, head string) bool {
	for _, lemma := range t.lemmas {
		if strings.HasSuffix(lemma, head) && (len(head) == len(lemma) || len(lemma)-len(head) >= minFirstPart) {
			return len(head) >= minFirstPart || morph.Load().BeginsCompound(head)
		}
	}
	return false
}

// minFirstPart is the fewest letters of a compound's first part that needs no flag of the
// dictionary's to be one.
const minFirstPart = 3

// saysParts reports whether the fact says the first part of the visitor's compound t as a
// word of its own and its last part in a key: "diákkedvezmény" (student discount) of an FAQ
// "Van kedvezmény?" whose answer names the students ("Diákoknak"). A compound of another
// thing's name ("szemöldökfestés", eyebrow tint) is no "festés" (dye) of a fact that never
// names its first part.
//
// The last part may also be the head of a key's compound, where no other entry's key ends in
// it: "dióallergiás" of an FAQ asked of "ételallergia" whose answer names nuts. Of siblings
// ("Ablaktisztítás", "Autótisztítás") the head names none: the visitor's first part said in
// one's description ("kárpittisztítás" of a car-cleaning that mentions the upholstery) may be
// a word of the other's trade.
func saysParts(fs []fact, f *fact, t *term) bool {
	first, rest := t.parts[0], t.parts[1:]
	if len(first) < minFirstPart {
		return false
	}
	saysFirst, inKey, byHead := false, false, false
	for n, ws := range [][]term{f.keys, f.joined, f.body} {
		for i := range ws {
			saysFirst = saysFirst || slices.Contains(ws[i].lemmas, first)
			inKey = inKey || n < 2 && slices.Contains(rest, ws[i].lemmas[0])
			byHead = byHead || n < 2 && endsIn(&ws[i], rest)
		}
	}
	if !saysFirst || inKey || !byHead {
		return saysFirst && inKey
	}
	for i := range fs {
		if &fs[i] != f && named(fs[i].kind) && slices.ContainsFunc(fs[i].keys, func(k term) bool { return endsIn(&k, rest) }) {
			return false
		}
	}
	return true
}

// endsIn reports whether k is a compound whose last part is one of parts.
func endsIn(k *term, parts []string) bool {
	return len(k.parts) >= 2 && slices.Contains(parts, k.parts[len(k.parts)-1])
}
