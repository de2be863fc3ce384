package assistant

import (
	"strings"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// endingInside reports whether two Hungarian words that begin alike (see sameStem) differ by
// more than a letter after the shorter's case ending, which cannot go on inside a word: the
// shorter is its own lemma with suffixes ("kutyát" is "kutya" and "-t"), and the longer's
// rest after it is no chain of suffixes. Then the longer is another word whose first part
// is the shorter's lemma ("kutyatápot", dog food, is "kutya" and "tápot"), not the same word,
// and matches it as a compound's part does.
func endingInside(a, b *term) bool {
	short, long := a, b
	if len(short.fold) > len(long.fold) {
		short, long = long, short
	}
	if short.english || long.english || len(long.fold)-len(short.fold) <= 1 || !strings.HasPrefix(long.fold, short.fold) {
		return false
	}
	lemma := short.lemmas[0]
	return short.stemmed && len(lemma) < len(short.fold) && strings.HasPrefix(short.fold, lemma) &&
		!morph.Load().SuffixChain(long.fold[len(short.fold):])
}
