package assistant

import (
	"slices"
	"strings"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// minClip is the fewest letters of a clipped word ("akku" of "akkumulátor"), and
// clipMore the fewest the full word has past them.
const (
	minClip  = 4
	clipMore = 3
)

// clippedMatch is match for a visitor's Hungarian word that is a clipping of the profile's
// word or of its compound's first part: "akku" of "akkumulátor" and of "akkumulátorcsere",
// "akkucsere" of "akkumulátorcsere" (a compound whose first part is the clipping and whose
// head is the same). A beginning alone is no clipping ("kert", garden, begins "kertész",
// gardener): the dictionary must know the short word as a word of its own and give it one of
// its main English senses with the long word ("akku" and "akkumulátor": battery). 0 when q
// is none.
func clippedMatch(q, k *term) float64 {
	if q.english || k.english || len(q.fold) < minClip || len(k.fold) < minClip || q.fold[:2] != k.fold[:2] {
		return 0
	}
	a := q.lemmas[0]
	if len(q.parts) >= 2 {
		// A compound of a clipped first part: its head must be the profile compound's.
		if len(k.parts) < 2 || q.parts[len(q.parts)-1] != k.parts[len(k.parts)-1] || q.parts[0] == k.parts[0] {
			return 0
		}
		if clips(q.parts[0], k.parts[0]) {
			return related
		}
		return 0
	}
	if len(k.parts) >= 2 && clips(a, k.parts[0]) {
		return sameIdea // a part of the profile's word, as a whole part matches
	}
	return 0
}

// clips reports whether the folded dictionary word short is a clipping of long: long's
// beginning, clipMore letters or more shorter, sharing a main English sense with it.
func clips(short, long string) bool {
	if len(short) < minClip || len(long) < len(short)+clipMore || !strings.HasPrefix(long, short) {
		return false
	}
	lang := morph.Load()
	if !lang.Known(short) || !lang.Known(long) || lang.Verb(short) {
		return false
	}
	// The rest of a clipping is no word, suffix or part: "nyolcadik" is "nyolc" with a
	// suffix, "tervszerű" "terv" with one, "elefántcsont" a compound of "elefánt".
	rest := long[len(short):]
	if lang.Known(rest) || lang.SuffixChain(rest) || len(lang.Compound(long)) > 1 ||
		slices.Contains(lang.LooseLemmas(long), short) {
		return false
	}
	if h, _ := lang.Parts(long); h != "" {
		return false
	}
	gs, gl := lang.Glosses(short), lang.Glosses(long)
	gs, gl = gs[:min(mainSenses, len(gs))], gl[:min(mainSenses, len(gl))]
	return slices.ContainsFunc(gs, func(g string) bool { return slices.Contains(gl, g) })
}
