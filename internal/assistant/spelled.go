package assistant

import (
	"slices"
	"strings"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// spells reports whether the Hungarian query word j and another topic word of the message,
// written apart, are the profile's word k written as one compound: "sövényt … nyírni" of
// "sövénynyírás", "diófa …, ki kéne vágni" of "fakivágás". Hungarian writes a compound's
// first part as its lemma and begins the rest with the word the rest is made of, so the two
// words said together name the compound as their phrase, which each alone names only in part.
// The words may stand in two clauses: a visitor names the thing, then what to do with it.
func (q query) spells(j int, k *term) bool {
	if q.english || len(k.fold) < minSplit {
		return false
	}
	a := &q.terms[j]
	if a.weight < 1 {
		return false
	}
	for i := range q.terms {
		b := &q.terms[i]
		if i == j || b.weight < 1 || b.english {
			continue
		}
		if joins(&a.term, &b.term, k.fold) || joins(&b.term, &a.term, k.fold) {
			return true
		}
	}
	return false
}

// joins reports whether the folded word w is first's lemma, or its end ("tujasövényt" ends
// in "sövény", "diófa" in "fa"), followed by next's lemma and more: the first part of a
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

// joinsAt is joins for the next word's lemma l.
func joinsAt(first *term, l, w string) bool {
	if len(l) < 3 || len(w) < len(l)+2 {
		return false
	}
	i := strings.Index(w[2:], l)
	if i < 0 {
		return false
	}
	head, lemma := w[:i+2], first.lemmas[0]
	if !strings.HasSuffix(lemma, head) || len(head) < len(lemma) && len(lemma)-len(head) < minFirstPart {
		return false
	}
	return len(head) >= minFirstPart || morph.Load().BeginsCompound(head)
}

// minFirstPart is the fewest letters of a compound's first part that needs no flag of the
// dictionary's to be one.
const minFirstPart = 3

// saysParts reports whether the fact says each part of the visitor's compound t as a word of
// its own, and whether a key of the fact says its last part: "olvasószemüveg" (reading
// glasses) where the fact says "olvasó szemüveghez", "diákkedvezmény" (student discount) in an
// FAQ "Van kedvezmény?" whose answer names the students ("Diákoknak"). A compound of another
// thing's name ("szemöldökfestés", eyebrow tint) is no "festés" (dye) of a fact that never
// names its first part.
func saysParts(f *fact, t *term) (said, inKey bool) {
	first, rest := t.parts[0], t.parts[1:]
	if len(first) < minFirstPart {
		return false, false
	}
	saysFirst, saysRest := false, false
	for n, ws := range [][]term{f.keys, f.joined, f.body} {
		for i := range ws {
			saysFirst = saysFirst || slices.Contains(ws[i].lemmas, first)
			if slices.Contains(rest, ws[i].lemmas[0]) {
				saysRest = true
				inKey = inKey || n < 2
			}
		}
	}
	return saysFirst && saysRest, inKey
}
