package assistant

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// The matcher passes over most pairs of words by a shortcut; these tests hold each shortcut to
// the rule it stands for, on the words of the tuning profiles and English questions about them.

// TestShortcutsAgreeWithTheRules: translatedTo and headTranslatedTo give the rank the plain
// scan over the lexicon's words gives, and match is the same with the shortcuts' indexes built
// once as with them built anew.
func TestShortcutsAgreeWithTheRules(t *testing.T) {
	x := NewIndex(fortyEntries(t))
	var ks []*term
	for i := range x.facts {
		f := &x.facts[i]
		for _, ts := range [][]term{f.keys, f.joined, f.body} {
			for j := range ts {
				ks = append(ks, &ts[j])
			}
		}
	}
	qs := strings.Fields(`implant implants cleaning cost price appointment saturday weekend
		hair colour colouring haircut nails tooth teeth whitening cancel cancellation pay
		instalments card brakes tyres tires service website design shop hosting children`)
	compared := 0
	for _, w := range qs {
		q := newTerm(w, true)
		for _, k := range ks {
			if got, want := q.translatedTo(k.fold, k.lemmas), scanTranslated(&q, k.fold, k.lemmas); got != want {
				t.Errorf("translatedTo(%s, %s) = %d, the scan gives %d", w, k.fold, got, want)
			}
			if got, want := q.translatedTo("", k.parts), scanTranslated(&q, "", k.parts); got != want {
				t.Errorf("translatedTo(%s, parts of %s) = %d, the scan gives %d", w, k.fold, got, want)
			}
			if got, want := q.headTranslatedTo(k.fold, k.lemmas, &k.ends), scanHeads(&q, k.fold, k.lemmas, &k.ends); got != want {
				t.Errorf("headTranslatedTo(%s, %s) = %d, the scan gives %d", w, k.fold, got, want)
			}
			fresh := newTerm(w, true)
			if got, want := match(&q, k), match(&fresh, k); got != want {
				t.Errorf("match(%s, %s) = %v with the term's index kept, %v anew", w, k.fold, got, want)
			}
			compared++
		}
	}
	if compared < 1000 {
		t.Fatalf("only %d pairs compared", compared)
	}
}

// scanTranslated is translatedTo without its shortcuts: each lexicon word in rank order.
func scanTranslated(t *term, w string, ws []string) int {
	lemmas := func(h string) func() []string { return func() []string { return morph.Load().Lemmas(h) } }
	for i, h := range t.trans {
		if len(h) < 3 {
			continue
		}
		if w != "" && translates(h, w, lemmas(h)) || slices.ContainsFunc(ws, func(x string) bool { return x != "" && translates(h, x, lemmas(h)) }) {
			return i
		}
	}
	return -1
}

// scanHeads is headTranslatedTo without its shortcuts.
func scanHeads(t *term, w string, ws []string, ends *[4]uint64) int {
	if len(t.trans) == 0 || t.split || !overlap(&t.transEnd, ends) {
		return -1
	}
	heads := func(a, b string) bool {
		return len(a) >= len(b)+minHead-1 && len(b) >= minHead && strings.HasSuffix(a, b)
	}
	for i, h := range t.trans {
		if len(h) >= minHead && slices.ContainsFunc(append([]string{w}, ws...), func(x string) bool { return heads(h, x) || heads(x, h) }) {
			return i
		}
	}
	return -1
}

// TestBagDistanceBoundsEditDistance: nearTypo passes over words whose letters differ by more
// than a typo; that is right only if the letters apart never exceed the edit distance.
func TestBagDistanceBoundsEditDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, 3+r.IntN(10))
		for i := range b {
			b[i] = "aeiklmnorst"[r.IntN(11)]
		}
		return string(b)
	}
	for range 100000 {
		a := word()
		b := []byte(a)
		for range r.IntN(4) { // a few edits of a, or another word
			switch i := r.IntN(len(b)); r.IntN(4) {
			case 0:
				b[i] = "aeiklmnorst"[r.IntN(11)]
			case 1:
				b = slices.Insert(b, i, 'e')
			case 2:
				b = slices.Delete(b, i, i+1)
			default:
				if i+1 < len(b) {
					b[i], b[i+1] = b[i+1], b[i]
				}
			}
			if len(b) == 0 {
				b = []byte(word())
			}
		}
		if bag, d := bagDistance(a, string(b)), editDistanceASCII(a, string(b)); bag > d {
			t.Fatalf("%q, %q: %d letters apart, edit distance %d", a, b, bag, d)
		}
	}
}

// TestConceptIndex: conceptsOf by its index gives what reading every word of every concept
// gives, for the concepts' own words, words they begin, end and are inside, and the words of
// the tuning profiles.
func TestConceptIndex(t *testing.T) {
	scan := func(f string) uint64 {
		var bits uint64
		for i, c := range concepts {
			for _, w := range c {
				stem, prefix := strings.CutSuffix(w, "*")
				if prefix && (strings.HasPrefix(f, stem) || len(stem) >= 5 && strings.Index(f, stem) >= 3) || w == f {
					bits |= 1 << i
					break
				}
			}
		}
		return bits
	}
	var ws []string
	for _, c := range concepts {
		for _, w := range c {
			w = strings.TrimSuffix(w, "*")
			ws = append(ws, w, w+"ok", "ab"+w, "abc"+w, "abcd"+w+"ek", w[:len(w)-1], w[1:])
		}
	}
	x := NewIndex(fortyEntries(t))
	for _, f := range x.facts {
		for _, k := range append(append(slices.Clone(f.keys), f.body...), f.joined...) {
			ws = append(ws, k.fold)
			ws = append(ws, k.lemmas...)
		}
	}
	for _, w := range ws {
		if got, want := conceptsOf(w), scan(w); got != want {
			t.Errorf("conceptsOf(%q) = %b, want %b", w, got, want)
		}
	}
}

// TestStopLemmaAgreesWithTheRules: stopLemma trusts the term's own record of whether the
// dictionary's rules gave its first lemma, instead of asking them again; that is the rule it
// stands for, on the words of the tuning profiles and on inflected function words.
func TestStopLemmaAgreesWithTheRules(t *testing.T) {
	x := NewIndex(fortyEntries(t))
	ws := strings.Fields(`valamit valamiért semmit mindent ezért azért akármit bármit neki nekik velük
		általuk rólunk SEO-t se meg lemondani szombaton foglalást`)
	for i := range x.facts {
		for _, k := range x.facts[i].body {
			ws = append(ws, k.fold)
		}
	}
	stops := 0
	for _, w := range ws {
		q := newTerm(w, false)
		want := !q.english && q.concepts == 0 && len(q.lemmas) > 0 && q.lemmas[0] != q.fold &&
			morph.Load().Function(q.lemmas[0]) && slices.Contains(morph.Load().Stems(q.fold), q.lemmas[0])
		if got := stopLemma(&q); got != want {
			t.Errorf("stopLemma(%s) = %v, the rules give %v (lemmas %q)", w, got, want, q.lemmas)
		}
		if want {
			stops++
		}
	}
	if stops == 0 {
		t.Fatal("no word is a form of a function word: the test compares nothing that matters")
	}
}
