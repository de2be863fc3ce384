// Command gen derives the morph package's data from general language resources that Debian
// ships: the Hungarian Hunspell dictionary (hunspell-hu) and thesaurus (mythes-hu), the
// FreeDict Hungarian–English and
// English–Hungarian dictionaries (dict-freedict-hun-eng, dict-freedict-eng-hun), the
// English WordNet (wordnet-base, whose antonyms also give en_antonyms.txt) and LibreOffice's
// Hungarian translation
// (libreoffice-l10n-hu, whose message catalogues may be unpacked with dpkg -x rather than
// installed with the office suite it depends on). It is run by
// `go generate ./internal/assistant/morph/` on a machine with those packages installed; the
// output is committed, so neither a build nor the server needs them.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

func main() {
	aff := flag.String("aff", "/usr/share/hunspell/hu_HU.aff", "Hunspell affix file")
	dic := flag.String("dic", "/usr/share/hunspell/hu_HU.dic", "Hunspell dictionary")
	dictd := flag.String("dictd", "/usr/share/dictd", "folder of the FreeDict dictd files")
	wordnet := flag.String("wordnet", "/usr/share/wordnet", "folder of the WordNet database files")
	thesaurus := flag.String("thesaurus", "/usr/share/mythes/th_hu_HU_v2.dat", "Hungarian MyThes thesaurus")
	ui := flag.String("ui", "/usr/lib/libreoffice/program/resource/hu/LC_MESSAGES",
		"folder of the Hungarian message catalogues (.mo) of LibreOffice (libreoffice-l10n-hu)")
	out := flag.String("out", "data", "output folder")
	flag.Parse()
	if err := run(*aff, *dic, *dictd, *wordnet, *thesaurus, *ui, *out); err != nil {
		log.Fatal(err)
	}
}

func run(affPath, dicPath, dictd, wordnet, thesaurus, ui, out string) error {
	aff, err := readAffixes(affPath)
	if err != nil {
		return err
	}
	stems, lemmas, prefixes, err := readStems(dicPath, aff)
	if err != nil {
		return err
	}
	adjectives, err := readAdjectives(dicPath, aff)
	if err != nil {
		return err
	}
	stemLines, suffixLines, ruleLines, setLines := encodeMorphology(aff, stems, lemmas, adjectives)
	if err := writeLines(filepath.Join(out, "hu_stems.txt"), stemLines); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_suffixes.txt"), suffixLines); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_rules.txt"), ruleLines); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_flags.txt"), setLines); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_compound.txt"), compoundLines(aff)); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_persons.txt"), personLines(aff)); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_prefixes.txt"), sorted(prefixes)); err != nil {
		return err
	}
	function, err := readFunctionWords(dicPath, aff)
	if err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_function_words.txt"), function); err != nil {
		return err
	}
	hu := morph.New(stemLines, suffixLines, ruleLines, setLines, sorted(prefixes))
	same, err := readThesaurus(thesaurus, hu)
	if err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_synonyms.txt"), same); err != nil {
		return err
	}
	synonyms, pertains, twoWords, err := readSynonyms(wordnet)
	if err != nil {
		return err
	}
	uiPairs, err := readCatalogues(ui)
	if err != nil {
		return err
	}
	lex, forms, phrased, err := readLexicon(dictd, hu, synonyms, pertains, twoWords, uiPairs)
	if err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "en_hu.txt"), lex); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "en_hu_phrases.txt"), phrased); err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "en_hu_forms.txt"), forms); err != nil {
		return err
	}
	glosses, err := readGlosses(dictd, hu)
	if err != nil {
		return err
	}
	if err := writeLines(filepath.Join(out, "hu_en.txt"), glosses); err != nil {
		return err
	}
	antonyms, err := readAntonyms(wordnet)
	if err != nil {
		return err
	}
	return writeLines(filepath.Join(out, "en_antonyms.txt"), antonyms)
}

// readAntonyms reads the English WordNet's antonyms (the "!" pointers between two words of
// its synsets, wordnet-base): a line "stem<TAB>stem stem" per English Snowball stem of one
// word with the stems of its antonyms in every part of speech, so that "fail" finds
// "succeed". An antonym is a lexical relation WordNet states word for word, not a sense.
func readAntonyms(dir string) ([]string, error) {
	antonyms := map[string][]string{}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		data, err := os.ReadFile(filepath.Join(dir, "data."+pos))
		if err != nil {
			return nil, fmt.Errorf("%w (install wordnet-base)", err)
		}
		byOffset := map[string][]string{} // offset -> words, for the pointers' targets
		var lines [][]string
		for _, line := range strings.Split(string(data), "\n") {
			fs := strings.Fields(line)
			if len(fs) < 4 || strings.HasPrefix(line, " ") {
				continue
			}
			n, err := strconv.ParseInt(fs[3], 16, 32)
			if err != nil || len(fs) < 5+2*int(n) {
				continue
			}
			var ws []string
			for i := 0; i < int(n); i++ {
				w, _, _ := strings.Cut(fs[4+2*i], "(") // an adjective's marker: "galore(ip)"
				ws = append(ws, strings.ToLower(w))
			}
			byOffset[fs[0]] = ws
			lines = append(lines, fs)
		}
		stem := func(w string) string {
			if !isLetters(w) || len(w) < 3 {
				return "" // a compound ("go_bad") or a name is no single word to match
			}
			return morph.EnglishStem(w)
		}
		for _, fs := range lines {
			n, _ := strconv.ParseInt(fs[3], 16, 32)
			rest := fs[4+2*int(n):]
			p, err := strconv.Atoi(rest[0])
			if err != nil || len(rest) < 1+4*p {
				continue
			}
			for i := 0; i < p; i++ {
				f := rest[1+4*i : 5+4*i]
				st, err := strconv.ParseUint(f[3], 16, 16)
				src, dst := int(st>>8), int(st&0xff)
				if err != nil || f[0] != "!" || src == 0 || dst == 0 || f[2] != pos[:1] && !(pos == "adj" && f[2] == "s") {
					continue
				}
				from, to := byOffset[fs[0]], byOffset[f[1]]
				if src > len(from) || dst > len(to) {
					continue
				}
				a, b := stem(from[src-1]), stem(to[dst-1])
				if a != "" && b != "" && a != b && !slices.Contains(antonyms[a], b) {
					antonyms[a] = append(antonyms[a], b)
				}
			}
		}
	}
	var out []string
	for a, bs := range antonyms {
		out = append(out, a+"\t"+strings.Join(bs, " "))
	}
	slices.Sort(out)
	return out, nil
}

// maxGlosses bounds the English words kept for one Hungarian word.
const maxGlosses = 16

// readGlosses reads the Hungarian–English dictionary the other way round from readLexicon: a
// line "lemma<TAB>stem stem" per Hungarian headword, folded, as its first lemma (by which the
// matcher looks glosses up), with the English Snowball stems of its single-word senses in
// the dictionary's order. A Hungarian word's own entry is short, so it keeps senses that an
// English word's long list of translations loses ("tárol" is "store", which "store" lists
// after twelve others).
func readGlosses(dictd string, hu *morph.Data) ([]string, error) {
	glosses := map[string][]string{}
	err := eachEntry(filepath.Join(dictd, "freedict-hun-eng"), func(head string, senses []string) {
		if strings.Contains(head, " ") {
			return
		}
		lemmas := hu.Lemmas(morph.Fold(head))
		if len(lemmas) == 0 {
			return
		}
		h := lemmas[0]
		for _, s := range senses {
			s = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(s, "to "), "a "), "an ")
			if strings.HasSuffix(s, "-") || strings.HasPrefix(s, "-") {
				continue // "techno-": a part of words, not one
			}
			s = strings.ReplaceAll(s, "-", "") // "hair-do" is "hairdo"
			if strings.Contains(s, " ") || !isLetters(s) || len(s) < 2 {
				continue
			}
			if k := morph.EnglishStem(s); !slices.Contains(glosses[h], k) && len(glosses[h]) < maxGlosses {
				glosses[h] = append(glosses[h], k)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	var lines []string
	for h, ks := range glosses {
		lines = append(lines, h+"\t"+strings.Join(ks, " "))
	}
	slices.Sort(lines)
	return lines, nil
}

// thesaurusMeanings is how many of a word's first meanings in the thesaurus give synonyms,
// and maxSynonyms how many are kept for one word.
const (
	thesaurusMeanings = 2
	maxSynonyms       = 12
)

// readThesaurus reads the Hungarian MyThes thesaurus (mythes-hu): a line "lemma<TAB>lemma
// lemma" per single-word headword, the words folded and each as its first lemma (by which
// the matcher looks synonyms up), with the single-word synonyms of its first meanings in the
// thesaurus's order.
func readThesaurus(path string, hu *morph.Data) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (install mythes-hu)", err)
	}
	lemma := func(w string) string {
		if w == "" || strings.Contains(w, " ") || !isLetters(w) || unicode.IsUpper([]rune(w)[0]) {
			return ""
		}
		if ls := hu.Lemmas(morph.Fold(w)); len(ls) > 0 {
			return ls[0]
		}
		return ""
	}
	synonyms := map[string][]string{}
	lines := strings.Split(string(data), "\n")
	for i := 1; i < len(lines); i++ {
		head, count, ok := strings.Cut(lines[i], "|")
		n, err := strconv.Atoi(count)
		if !ok || err != nil {
			continue
		}
		h := lemma(head)
		for m := 0; m < n && i+1 < len(lines); m++ {
			i++
			fs := strings.Split(lines[i], "|")
			if m >= thesaurusMeanings || h == "" || strings.HasPrefix(fs[0], "(névnap)") {
				continue // a name day lists names, no synonyms
			}
			for _, f := range fs[1:] {
				if s := lemma(strings.TrimSpace(f)); s != "" && s != h && !slices.Contains(synonyms[h], s) && len(synonyms[h]) < maxSynonyms {
					synonyms[h] = append(synonyms[h], s)
				}
			}
		}
	}
	var out []string
	for h, ss := range synonyms {
		if len(ss) > 0 {
			out = append(out, h+"\t"+strings.Join(ss, " "))
		}
	}
	slices.Sort(out)
	return out, nil
}

// affixes is what the generator keeps of an affix file: the flag sets by alias number (AF),
// each suffix rule in folded letters with its flag, condition and continuation flags, and the
// morphological descriptions by alias number (AM).
type affixes struct {
	flagsets []string // AF alias -> flags, one byte each
	suffixes []suffixRule
	morph    []string
	// needAffix, onlyInCompound and forbidden are the flags of stems that are no word alone,
	// stems that are one only inside a compound, and forbidden words.
	needAffix, onlyInCompound, forbidden byte
	// compound, compoundBegin and compoundEnd are the flags of stems that may be a part of a
	// compound anywhere, only first, and only last.
	compound, compoundBegin, compoundEnd byte
}

// suffixRule is a suffix rule of the affix file: a stem that carries flag and whose end
// matches cond takes the suffix by replacing strip with add, and may then take the suffixes
// whose flags cont holds.
type suffixRule struct {
	flag                   byte
	strip, add, cond, cont string
	// person is the person of the possessor the suffix marks, by the rule's morphological
	// description: '1' for "my"/"our" (is:POSS_SG_1, is:POSS_PL_1: "irodánkban"), '2' for
	// "your" (is:POSS_SG_2, is:POSS_PL_2: "irodátokba"), 0 for none.
	person byte
}

// readAffixes reads the affix file byte by byte: its flags are single bytes of an 8-bit
// encoding, its affixes UTF-8.
func readAffixes(path string) (affixes, error) {
	f, err := os.Open(path)
	if err != nil {
		return affixes{}, fmt.Errorf("%w (install hunspell-hu)", err)
	}
	defer f.Close()
	a := affixes{flagsets: []string{""}, morph: []string{""}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	header := regexp.MustCompile(`^(AM|AF) \d+\s*$`)
	var ignore string
	flagOf := func(line string) byte {
		if fs := strings.Fields(line); len(fs) == 2 && len(fs[1]) == 1 {
			return fs[1][0]
		}
		return 0
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case header.MatchString(line):
		case strings.HasPrefix(line, "AM "):
			a.morph = append(a.morph, strings.TrimSpace(line[3:]))
		case strings.HasPrefix(line, "AF "):
			fs := strings.Fields(line)
			a.flagsets = append(a.flagsets, fs[1])
		case strings.HasPrefix(line, "IGNORE "):
			ignore = strings.TrimSpace(line[len("IGNORE "):])
		case strings.HasPrefix(line, "NEEDAFFIX "):
			a.needAffix = flagOf(line)
		case strings.HasPrefix(line, "ONLYINCOMPOUND "):
			a.onlyInCompound = flagOf(line)
		case strings.HasPrefix(line, "COMPOUNDFLAG "):
			a.compound = flagOf(line)
		case strings.HasPrefix(line, "COMPOUNDBEGIN "):
			a.compoundBegin = flagOf(line)
		case strings.HasPrefix(line, "COMPOUNDEND "):
			a.compoundEnd = flagOf(line)
		case strings.HasPrefix(line, "FORBIDDENWORD "):
			a.forbidden = flagOf(line)
		case strings.HasPrefix(line, "SFX "):
			fs := strings.Fields(line)
			if len(fs) < 5 || len(fs[1]) != 1 {
				continue // a rule group's header
			}
			strip, add, cond := fs[2], fs[3], fs[4]
			var person byte
			if len(fs) > 5 {
				if n, err := strconv.Atoi(fs[5]); err == nil && n > 0 && n < len(a.morph) {
					person = possessor(a.morph[n])
				}
			}
			add, cont, _ := strings.Cut(add, "/")
			if n, err := strconv.Atoi(cont); err == nil && n > 0 && n < len(a.flagsets) {
				cont = a.flagsets[n]
			}
			if strip == "0" {
				strip = ""
			}
			if add == "0" {
				add = ""
			}
			drop := func(s string) string {
				return strings.Map(func(r rune) rune {
					if strings.ContainsRune(ignore, r) {
						return -1
					}
					return r
				}, s)
			}
			add, strip = drop(add), drop(strip)
			if add == "" || strings.ContainsAny(add+strip, "-.") {
				continue
			}
			a.suffixes = append(a.suffixes, suffixRule{flag: fs[1][0], strip: morph.Fold(strip),
				add: morph.Fold(add), cond: foldCondition(cond), cont: cont, person: person})
		}
	}
	return a, sc.Err()
}

// fields writes the rule as the lines of hu_rules.txt and hu_persons.txt begin: "add strip
// flag cond", "0" for no strip.
func (r suffixRule) fields() string {
	strip := r.strip
	if strip == "" {
		strip = "0"
	}
	return fmt.Sprintf("%s %s %02x %s", r.add, strip, r.flag, r.cond)
}

// possessorPerson finds the possessor's person in a suffix's morphological description.
var possessorPerson = regexp.MustCompile(`\bis:POSS_(SG|PL)_([12])\b`)

// possessor returns the person of the possessor a suffix's description marks, '1' or '2', or
// 0 when it marks none of them.
func possessor(desc string) byte {
	if m := possessorPerson.FindStringSubmatch(desc); m != nil {
		return m[2][0]
	}
	return 0
}

// personLines writes the suffix rules that mark a first- or second-person possessor as
// morph.Data reads them: "add strip flag cond person", the rule's fields as in hu_rules.txt.
func personLines(aff affixes) []string {
	lines := map[string]bool{}
	for _, r := range aff.suffixes {
		if r.person == 0 {
			continue
		}
		lines[fmt.Sprintf("%s %c", r.fields(), r.person)] = true
	}
	return sorted(lines)
}

// foldCondition folds a rule's condition as the words it is matched against are: a letter
// becomes its folded letter, and a class of letters keeps the folded letters of any it holds,
// or, when it says "none of these", those with a letter folding to them that it does not
// hold: "[^ó]" may be an "o" but "[^oóöő]" may not. A condition that holds of every stem is ".".
func foldCondition(cond string) string {
	if cond == "." {
		return "."
	}
	var b strings.Builder
	for cond != "" {
		if cond[0] != '[' {
			r, n := utf8.DecodeRuneInString(cond)
			cond = cond[n:]
			if r == '.' {
				b.WriteByte('.')
			} else {
				b.WriteString(morph.Fold(string(r)))
			}
			continue
		}
		end := strings.IndexByte(cond, ']')
		if end < 0 {
			end = len(cond) - 1
		}
		class := cond[1:end]
		cond = cond[end+1:]
		negated := strings.HasPrefix(class, "^")
		class = strings.TrimPrefix(class, "^")
		var letters []rune
		if !negated {
			for _, r := range morph.Fold(class) {
				if !slices.Contains(letters, r) {
					letters = append(letters, r)
				}
			}
		} else {
			// A folded letter is excluded when every letter that folds to it is.
			for _, r := range class {
				f := []rune(morph.Fold(string(r)))
				if len(f) != 1 || slices.Contains(letters, f[0]) {
					continue
				}
				all := true
				for _, o := range foldsTo[f[0]] {
					if !strings.ContainsRune(class, o) {
						all = false
					}
				}
				if all {
					letters = append(letters, f[0])
				}
			}
		}
		slices.Sort(letters)
		switch {
		case negated && len(letters) == 0:
			b.WriteByte('.')
		case negated:
			b.WriteString("[^" + string(letters) + "]")
		case len(letters) == 1:
			b.WriteRune(letters[0])
		default:
			b.WriteString("[" + string(letters) + "]")
		}
	}
	return b.String()
}

// foldsTo lists, for each folded vowel, the Hungarian letters that fold to it.
var foldsTo = map[rune][]rune{'a': []rune("aá"), 'e': []rune("eé"), 'i': []rune("ií"),
	'o': []rune("oóöő"), 'u': []rune("uúüű")}

// functionPOS are the parts of speech whose words carry no topic: pronouns, question and
// quantity words, conjunctions, negation, articles, postpositions and interjections.
var functionPOS = regexp.MustCompile(`po:(noun_pron|noun_ref_|adj_wh|adj_num_wh|adv_pron|con|neg|det|det_def|det_indef|post|sentint)\b`)

// readStems returns the dictionary's single words, folded, with the flags of the suffixes
// they take (the union over the words that fold alike) and the lemmas they are forms of, and
// the verbal prefixes. A word's flags lose the needaffix and onlyincompound flags when
// one of the words folding to it is a word by itself.
func readStems(path string, aff affixes) (stems map[string]string, lemmas map[string][]string, prefixes map[string]bool, err error) {
	stems, prefixes = map[string]string{}, map[string]bool{}
	alone := map[string]bool{}
	lemmas = map[string][]string{}
	err = eachDicWord(path, aff, func(word, flags, desc string) {
		w := morph.Fold(word)
		stems[w] = unionFlags(stems[w], flags)
		lemma := w
		if m := stemField.FindStringSubmatch(desc); m != nil && isLetters(m[1]) {
			lemma = morph.Fold(m[1])
		}
		if !slices.Contains(lemmas[w], lemma) {
			lemmas[w] = append(lemmas[w], lemma)
		}
		if strings.IndexByte(flags, aff.needAffix) < 0 && strings.IndexByte(flags, aff.onlyInCompound) < 0 {
			alone[w] = true
		}
		if strings.Contains(desc, "po:prv") && len(w) >= 2 {
			prefixes[w] = true
		}
	})
	if err != nil {
		return nil, nil, nil, err
	}
	for w := range alone {
		stems[w] = string(slices.DeleteFunc([]byte(stems[w]), func(b byte) bool {
			return b == aff.needAffix || b == aff.onlyInCompound
		}))
	}
	return stems, lemmas, prefixes, nil
}

// eachDicWord calls f with each single lower-case word of the Hunspell dictionary at path, as
// spelled, with its flags and morphological description; names, phrases and forbidden words
// are left out.
func eachDicWord(path string, aff affixes, f func(word, flags, desc string)) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w (install hunspell-hu)", err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Scan() // the word count
	for sc.Scan() {
		word, rest, _ := strings.Cut(sc.Text(), "\t")
		word, alias, _ := strings.Cut(word, "/")
		if strings.ContainsAny(word, " -.") || len([]rune(word)) < 2 || !isLetters(word) {
			continue
		}
		if unicode.IsUpper([]rune(word)[0]) {
			continue // a name: of no use in matching a visitor's words
		}
		flags := alias
		if n, err := strconv.Atoi(alias); err == nil && n < len(aff.flagsets) {
			flags = aff.flagsets[n]
		}
		if aff.forbidden != 0 && strings.IndexByte(flags, aff.forbidden) >= 0 {
			continue
		}
		desc := ""
		if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && n < len(aff.morph) {
			desc = aff.morph[n]
		}
		f(word, flags, desc)
	}
	return sc.Err()
}

// adjectivePOS and namingPOS are the parts of speech of a dictionary entry that is not
// derived from another word (no "st:" or "ds:" field): an adjective, and a noun or a verb.
var (
	adjectivePOS = regexp.MustCompile(`(^|\s)po:adj(\s|$)`)
	namingPOS    = regexp.MustCompile(`(^|\s)po:(noun|vrb)(\s|$)`)
)

// readAdjectives returns the folded words the dictionary lists as adjectives of their own
// ("sima", plain; "olcsó", cheap; "kistestű") and never as nouns or verbs of their own
// ("plusz", "automata" are nouns too): words that say what kind a thing is.
func readAdjectives(path string, aff affixes) (map[string]bool, error) {
	adjective, naming := map[string]bool{}, map[string]bool{}
	err := eachDicWord(path, aff, func(word, _, desc string) {
		if strings.Contains(desc, "st:") || strings.Contains(desc, "ds:") {
			return
		}
		w := morph.Fold(word)
		adjective[w] = adjective[w] || adjectivePOS.MatchString(desc)
		naming[w] = naming[w] || namingPOS.MatchString(desc)
	})
	for w, ok := range adjective {
		if !ok || naming[w] {
			delete(adjective, w)
		}
	}
	return adjective, err
}

// readFunctionWords returns the function words of the dictionary as spelled, accents
// kept, each followed by a tab and "~" when a noun, verb or adjective is spelled alike once
// accents are dropped ("őrá" and "óra", "mely", which, and "mély", deep; "haj", an
// interjection and hair): folding alone cannot tell such words apart.
func readFunctionWords(path string, aff affixes) ([]string, error) {
	function, contentFolds := map[string]bool{}, map[string]bool{}
	err := eachDicWord(path, aff, func(word, _, desc string) {
		switch {
		case functionPOS.MatchString(desc):
			function[word] = true
		case contentPOS.MatchString(desc):
			contentFolds[morph.Fold(word)] = true
		}
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range sorted(function) {
		if contentFolds[morph.Fold(w)] {
			w += "\t~"
		}
		out = append(out, w)
	}
	return out, nil
}

// contentPOS are the parts of speech whose words may name a topic: nouns, verbs and
// adjectives.
var contentPOS = regexp.MustCompile(`po:(noun|vrb|verb|adj)( |$)`)

// stemField is the lemma of a dictionary entry that is an inflected form ("fogak": "fog"),
// which the dictionary lists so that its forms ("fogam") derive from it.
var stemField = regexp.MustCompile(`(?:^|\s)st:(\S+)`)

// maxStemLemmas bounds the lemmas kept for a dictionary word.
const maxStemLemmas = 3

// unionFlags returns the flags of a and b, sorted, each once.
func unionFlags(a, b string) string {
	fs := []byte(a + b)
	slices.Sort(fs)
	return string(slices.Compact(fs))
}

// encodeMorphology writes the stems and suffix rules as the morph package reads them (see
// morph.Data): flag sets by number, "word<TAB>[+|]set[*][ lemma...]" ("*" for one of
// adjectives; the lemmas only when the word is not its own only one), "add strip" and "add
// strip flag cond cont".
func encodeMorphology(aff affixes, stems map[string]string, lemmas map[string][]string, adjectives map[string]bool) (stemLines, suffixLines, ruleLines, setLines []string) {
	sets := map[string]bool{}
	for _, fs := range stems {
		sets[sortedFlags(fs, aff)] = true
	}
	for _, r := range aff.suffixes {
		if r.cont != "" {
			sets[sortedFlags(r.cont, aff)] = true
		}
	}
	setLines = sorted(sets)
	id := map[string]int{}
	for i, s := range setLines {
		id[s] = i
	}
	for w, fs := range stems {
		mark := ""
		switch {
		case strings.IndexByte(fs, aff.onlyInCompound) >= 0:
			mark = "|"
		case strings.IndexByte(fs, aff.needAffix) >= 0:
			mark = "+"
		}
		line := w + "\t" + mark + strconv.Itoa(id[sortedFlags(fs, aff)])
		if adjectives[w] {
			line += "*"
		}
		if ls := lemmas[w]; len(ls) > 1 || len(ls) == 1 && ls[0] != w {
			line += " " + strings.Join(ls[:min(len(ls), maxStemLemmas)], " ")
		}
		stemLines = append(stemLines, line)
	}
	slices.Sort(stemLines)
	rules, suffixes := map[string]bool{}, map[string]bool{}
	for _, r := range aff.suffixes {
		suffixes[r.add+" "+r.strip] = true
		cont := "-"
		if r.cont != "" {
			cont = strconv.Itoa(id[sortedFlags(r.cont, aff)])
		}
		rules[r.fields()+" "+cont] = true
	}
	return stemLines, sorted(suffixes), sorted(rules), setLines
}

// compoundLines writes the compounding flags as morph.Data reads them: "flag begin end", two
// hex digits each ("00" for none).
func compoundLines(aff affixes) []string {
	return []string{fmt.Sprintf("%02x %02x %02x", aff.compound, aff.compoundBegin, aff.compoundEnd)}
}

// sortedFlags writes flags as the sorted hexadecimal numbers of their bytes, without those
// that mark a stem rather than say which suffixes it takes.
func sortedFlags(flags string, aff affixes) string {
	fs := []byte(flags)
	fs = slices.DeleteFunc(fs, func(b byte) bool { return b == aff.needAffix || b == aff.onlyInCompound })
	slices.Sort(fs)
	fs = slices.Compact(fs)
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%02x", f)
	}
	return b.String()
}

func isLetters(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// maxTranslations bounds the Hungarian words kept for one English word; the first are those
// both dictionaries agree on, then those of the first senses.
const maxTranslations = 12

// synonymWords is how many of a WordNet synonym's first Hungarian words an English word takes.
const synonymWords = 3

// minSynonyms is how many of a word's synonyms must give a Hungarian word that the word's own
// entries lack for the word to take it, unless it has no entry of its own.
const minSynonyms = 2

// phraseHead returns the last word of a Hungarian phrase of two words whose first is an
// adjective of the suffix "-i" ("tanítási óra": "óra"), the phrase's head.
func phraseHead(s string) (string, bool) {
	ws := strings.Fields(s)
	if len(ws) != 2 || !isLetters(ws[0]) || !isLetters(ws[1]) || !strings.HasSuffix(ws[0], "i") || len(ws[0]) < 4 {
		return "", false
	}
	return ws[1], true
}

// readCatalogues reads the GNU message catalogues (.mo) of a folder: the pairs of an English
// message of one word and its Hungarian translation of one word, lower case, each pair once,
// sorted. A user interface's words are the web's and the office's ("website": "weboldal").
func readCatalogues(dir string) ([][2]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.mo"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no message catalogues in %s (apt-get download libreoffice-l10n-hu; dpkg -x; -ui its folder): %v", dir, err)
	}
	seen := map[[2]string]bool{}
	var out [][2]string
	clean := func(s string) string {
		s = strings.NewReplacer("~", "", "_", "").Replace(s)
		return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ".:…"))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if len(b) < 20 || binary.LittleEndian.Uint32(b) != 0x950412de {
			return nil, fmt.Errorf("%s: not a little-endian message catalogue", f)
		}
		n := int(binary.LittleEndian.Uint32(b[8:]))
		ids, strs := int(binary.LittleEndian.Uint32(b[12:])), int(binary.LittleEndian.Uint32(b[16:]))
		at := func(table, i int) string {
			l, o := int(binary.LittleEndian.Uint32(b[table+8*i:])), int(binary.LittleEndian.Uint32(b[table+8*i+4:]))
			if o+l > len(b) {
				return ""
			}
			return string(b[o : o+l])
		}
		for i := 0; i < n; i++ {
			id := at(ids, i)
			if _, msg, ok := strings.Cut(id, "\x04"); ok {
				id = msg // a message's context
			}
			en, hu := clean(id), clean(at(strs, i))
			if en == "" || hu == "" || !isASCIILetters(en) || !isLetters(hu) || len(en) < 3 {
				continue
			}
			if p := [2]string{en, hu}; !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0]+"\t"+a[1], b[0]+"\t"+b[1]) })
	return out, nil
}

// partsOf reports whether Hunspell reads w as a compound of words it has.
func partsOf(hu *morph.Data, w string) bool {
	head, _ := hu.Parts(w)
	return head != ""
}

func isASCIILetters(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

// lexiconLemma returns the word the lexicon pairs for the folded Hungarian word w: w itself
// when the dictionary has it, as the loosest stripping would make "óra" (hour) "örök"
// (eternal); else its longest loose lemma (see morph.LooseLemmas); "" when it has none or
// that is a misread.
func lexiconLemma(hu *morph.Data, w string) string {
	if hu.Known(w) {
		return w
	}
	ls := hu.LooseLemmas(w)
	if len(ls) == 0 {
		return ""
	}
	for _, p := range hu.Prefixes() {
		// A loose lemma that ends within three letters of a verbal prefix the word begins
		// with is a misread of a prefixed verb: "megsért" (hurt) as "meg", "megsebesít"
		// (wound) as "mégse" (still not), "leszámít" (deduct) as "lesz" (will be). The verb
		// without its prefix is often another verb ("számít", count: it made a cleaning
		// firm's discount question state its cancellation fee), so it gives none, and the
		// caller keeps the word whole where Hunspell reads it as a prefix and a verb.
		if strings.HasPrefix(w, p) && strings.HasPrefix(ls[0], p) && len(ls[0]) < len(p)+3 {
			return ""
		}
	}
	return ls[0]
}

// formDistance is how far the English word en is from its Snowball stem k: the letters of
// each past their common beginning. A stem's commonest form is mostly the stem itself or
// the stem with its ending back ("come": "come" 0, "comely" 2; "happi": "happy" 2,
// "happiness" 4), and its rarer derivations lie farther.
func formDistance(en, k string) int {
	i := 0
	for i < len(en) && i < len(k) && en[i] == k[i] {
		i++
	}
	return len(en) - i + len(k) - i
}

// readLexicon pairs English words with Hungarian ones from both FreeDict dictionaries: a line
// "stem<TAB>hu hu hu" per English Snowball stem, the Hungarian words folded and known to the
// Hunspell dictionary, each as lexiconLemma gives it or, a compound it gives none of, whole;
// a verb's ("to spay") after the rest of
// the word's own. After its own
// words, an English word takes those that minSynonyms of its WordNet synonyms give among
// their first synonymWords, so that "venue" (FreeDict: "találkozóhely") finds "hely", which
// "locale" and "locus" give; a word FreeDict lacks takes those of any synonym. Its own come
// first: a synonym is another word, whose senses part from the word's own soon. Between the
// two come the first synonymWords of each word it pertains to ("bridal": "bride"), which
// are its own meaning. A compound WordNet writes only as two words and FreeDict lacks gets
// no line: read as its two words, it matches what they say.
//
// The third lines, "stem<TAB>hu hu", are the pairs of stemLines that only two-word phrases
// give (see derived below): "lesson" and "óra", of "french lesson" and "francia óra". Its
// rank in the stem's line, after the word's own, does not say how common a sense it is.
//
// The second lines, "word<TAB>hu hu hu", are the English words as the dictionaries write them
// whose line differs from their stem's: the stem's words, those both dictionaries give the
// word itself first. Snowball stems "cancel" and "cancellation" alike, and a stem's line
// cannot rank first both what "cancel" means and what "cancellation" does.
func readLexicon(dictd string, hu *morph.Data, synonyms, pertains map[string][]string, twoWords map[string]bool, uiPairs [][2]string) (stemLines, formLines, phraseLines []string, err error) {
	pairs := map[string]map[string]int{}     // English stem -> Hungarian word -> how many dictionaries
	order := map[string]map[string]int{}     // English stem -> Hungarian word -> when first seen
	formPairs := map[string]map[string]int{} // the same by English word as written
	// English stem -> Hungarian word -> formDistance of the nearest English word that gave it
	near := map[string]map[string]int{}
	// notePair pairs the stem k of the English word en with the Hungarian lemma.
	notePair := func(k, en, lemma string, n int) {
		if pairs[k] == nil {
			pairs[k], order[k], near[k] = map[string]int{}, map[string]int{}, map[string]int{}
		}
		if _, ok := order[k][lemma]; !ok {
			order[k][lemma] = len(order[k])
			near[k][lemma] = formDistance(en, k)
		}
		near[k][lemma] = min(near[k][lemma], formDistance(en, k))
		pairs[k][lemma] += n
		if formPairs[en] == nil {
			formPairs[en] = map[string]int{}
		}
		formPairs[en][lemma] += n
	}
	// addPair pairs en with word, which n more entries give (0 adds the pair after those of
	// an entry).
	addPairBy := func(en, word string, n int) {
		en = strings.ToLower(en)
		key := ""
		if verb, particle, ok := strings.Cut(en, " "); ok && isLetters(verb) && morph.Particle(particle) {
			key = morph.PhrasalStem(verb, particle) // a phrasal verb (see phrasalVerb)
		} else if !isLetters(en) || len(en) < 2 {
			return
		} else {
			key = morph.EnglishStem(en)
		}
		lemma := ""
		if a, b, ok := strings.Cut(word, "-"); ok && isLetters(a) && isLetters(b) && len(a) > 1 && len(b) > 1 {
			// A compound written with a hyphen ("légiposta-levél") is one word, whole when
			// Hunspell reads it so; no loose lemma is taken of it ("ide-oda" is no "ide").
			if w := morph.Fold(a + b); hu.Known(w) || partsOf(hu, w) {
				lemma = w
			}
		} else {
			lemma = lexiconLemma(hu, morph.Fold(word))
		}
		if w := morph.Fold(word); lemma == "" && isLetters(w) && partsOf(hu, w) {
			// A compound Hunspell lacks and finds no lemma of, but reads as words it has,
			// is kept whole: "air conditioner" is "légkondicionáló", which the profile's
			// "légkondicionáló" or "légkondi..." matches as it stands or by its beginning.
			lemma = w
		}
		if lemma == "" {
			return
		}
		notePair(key, en, lemma, n)
	}
	addPair := func(en, word string) { addPairBy(en, word, 1) }
	var phrases [][2]string // an English word and the head of a two-word Hungarian sense
	var verbs [][2]string   // an English verb and a single-word sense of it
	var twos [][4]string    // a phrase of two English words and one of two Hungarian words
	var twoBy []int         // which dictionary gave each of twos: 1 English–Hungarian, 2 the other
	two := func(en, hu string, by int) {
		e, h := strings.Fields(en), strings.Fields(hu)
		if len(e) == 2 && len(h) == 2 && isLetters(e[0]) && isLetters(e[1]) && isLetters(h[0]) && isLetters(h[1]) {
			twos = append(twos, [4]string{e[0], e[1], h[0], h[1]})
			twoBy = append(twoBy, by)
		}
	}
	if err := eachEntry(filepath.Join(dictd, "freedict-eng-hun"), func(head string, senses []string) {
		for _, s := range senses {
			two(head, s, 1)
		}
		// The dictionary files a verb under "to": "to spay" is "ivartalanít", which the
		// visitor's "spay" must find.
		verb, isVerb := strings.CutPrefix(irregularVerb(head), "to ")
		if isVerb = isVerb && !strings.Contains(verb, " "); isVerb {
			head = verb
		}
		if p, ok := phrasalVerb(head); ok {
			for _, s := range senses {
				if !strings.Contains(s, " ") {
					addPair(p, s)
				}
			}
			return
		}
		if head = joinTwo(head); strings.Contains(head, " ") {
			return
		}
		for _, s := range senses {
			if !strings.Contains(s, " ") && isVerb {
				verbs = append(verbs, [2]string{head, s})
			} else if !strings.Contains(s, " ") {
				addPair(head, s)
			} else if h, ok := phraseHead(s); ok {
				phrases = append(phrases, [2]string{head, h})
			}
		}
	}); err != nil {
		return nil, nil, nil, err
	}
	if err := eachEntry(filepath.Join(dictd, "freedict-hun-eng"), func(head string, senses []string) {
		head = strings.ReplaceAll(head, ",", "")
		if strings.Contains(head, " ") {
			for _, s := range senses {
				two(s, head, 2)
			}
			return
		}
		for _, s := range senses {
			if p, ok := phrasalVerb(s); ok {
				addPair(p, head)
			}
			s = joinTwo(strings.TrimPrefix(strings.TrimPrefix(s, "to "), "a "))
			if !strings.Contains(s, " ") {
				addPair(s, head)
			}
		}
	}); err != nil {
		return nil, nil, nil, err
	}
	// A two-word sense names a kind of its last word: "banyan" is "indiai fügefa" (an Indian
	// fig tree), a "fügefa". Only a word with no single-word equivalent takes it:
	// added to those, "surgery" ("orvosi rendelő") answered a vet's question with another
	// entry ("rendelő").
	had := map[string]bool{}
	for _, p := range phrases {
		k := morph.EnglishStem(strings.ToLower(p[0]))
		if pairs[k] == nil || had[k] {
			had[k] = true
			addPair(p[0], p[1])
		}
	}
	// A word neither dictionary has takes the word LibreOffice's Hungarian translation gives
	// it ("website": "weboldal"), whole when Hunspell lacks it but reads it as a compound.
	hadUI := map[string]bool{}
	for _, p := range uiPairs {
		k := morph.EnglishStem(p[0])
		if pairs[k] != nil && !hadUI[k] {
			continue
		}
		if l := lexiconLemma(hu, morph.Fold(p[1])); len(l) < 3 || hu.Prefix(l) {
			continue // "embedded": "beágyazott" as "be", a verbal prefix
		}
		hadUI[k] = true
		if w := morph.Fold(p[1]); !hu.Known(w) && partsOf(hu, w) {
			notePair(k, p[0], w, 1)
			continue
		}
		addPair(p[0], p[1])
	}
	// A verb's words come after the word's own, which give the noun's and the verb's commonest
	// senses already: counted as another entry, rare verbs went first ("to home" is "repül",
	// fly home, which the other dictionary gives "home" too).
	for _, p := range verbs {
		addPairBy(p[0], p[1], 0)
	}
	// A phrase of two words whose first words the dictionaries pair pairs its second words
	// too: "french lesson" is "francia óra", and "french" is "francia", so "lesson" is "óra",
	// which neither dictionary gives it alone. Both dictionaries must give the phrase, and
	// such a word comes after the word's own.
	derived := map[[2]string]int{}
	for i, t := range twos {
		k, l := morph.EnglishStem(t[0]), lexiconLemma(hu, morph.Fold(t[2]))
		if _, ok := pairs[k][l]; l == "" || !ok {
			continue
		}
		kb, lb := morph.EnglishStem(t[1]), lexiconLemma(hu, morph.Fold(t[3]))
		if lb == "" || len(lb) < 3 || hu.Prefix(lb) || hu.FunctionOnly(lb) {
			continue
		}
		if _, ok := pairs[kb][lb]; ok || len(pairs[kb]) == 0 || len(pairs[kb]) >= maxOwnForPhrase {
			// Only a word with a few senses of its own: "home industry" is "otthoni munka",
			// but "industry" is no "munka"; a word of none ("are", "paid") is a form of
			// another or no topic.
			continue
		}
		derived[[2]string{t[1], t[3]}] |= twoBy[i]
	}
	phrased := map[string][]string{} // English stem -> Hungarian lemmas only phrases pair with it
	for _, p := range sortedPairs(derived, 3) {
		addPairBy(p[0], p[1], 0)
		if l := lexiconLemma(hu, morph.Fold(p[1])); l != "" {
			k := morph.EnglishStem(strings.ToLower(p[0]))
			if !slices.Contains(phrased[k], l) {
				phrased[k] = append(phrased[k], l)
			}
		}
	}
	// own ranks a stem's own Hungarian words: those both dictionaries give first; then those
	// of the English word nearest the stem, as words Snowball stems alike mean different
	// things ("come" is "jön", "comely" "kellemes"); then in the order of their senses (the
	// dictionaries list the commonest sense first). The nearest word first of all lost the
	// tuning half: "cancel" is nearer its stem than "cancellation", which visitors write.
	own := func(en string) []string {
		words := pairs[en]
		ws := make([]string, 0, len(words))
		for w := range words {
			ws = append(ws, w)
		}
		slices.SortFunc(ws, func(a, b string) int {
			if words[a] != words[b] {
				return words[b] - words[a]
			}
			if near[en][a] != near[en][b] {
				return near[en][a] - near[en][b]
			}
			return order[en][a] - order[en][b]
		})
		return ws
	}
	keys := map[string]bool{}
	for en := range pairs {
		keys[en] = true
	}
	for _, m := range []map[string][]string{synonyms, pertains} {
		for en, syns := range m {
			if twoWords[en] {
				// A compound of two words FreeDict lacks is read as its words: its synonyms
				// give their head's words ("tax return" is "return", "vissza").
				continue
			}
			for _, s := range syns {
				if pairs[s] != nil {
					keys[en] = true
				}
			}
		}
	}
	byStem := map[string][]string{}
	for en := range keys {
		score := map[string]int{}
		first := map[string]int{}
		note := func(w string, n int) {
			if _, ok := first[w]; !ok {
				first[w] = len(first)
			}
			score[w] += n
		}
		mine := own(en)
		for _, w := range mine {
			note(w, 0)
		}
		for _, s := range synonyms[en] {
			ws := own(s)
			for _, w := range ws[:min(len(ws), synonymWords)] {
				note(w, 1)
			}
		}
		var ws []string
		for w := range score {
			if _, ok := pairs[en][w]; !ok && (score[w] >= minSynonyms || len(mine) == 0) {
				ws = append(ws, w)
			}
		}
		slices.SortFunc(ws, func(a, b string) int {
			if score[a] != score[b] {
				return score[b] - score[a]
			}
			return first[a] - first[b]
		})
		// The words of the word's own root come before its synonyms': "bridal" is "nász" and
		// "menyegző", and pertains to "bride", "menyasszony".
		var kin []string
		for _, r := range pertains[en] {
			rs := own(r)
			for _, w := range rs[:min(len(rs), synonymWords)] {
				if _, ok := pairs[en][w]; !ok && !slices.Contains(kin, w) {
					kin = append(kin, w)
				}
			}
		}
		ws = slices.DeleteFunc(ws, func(w string) bool { return slices.Contains(kin, w) })
		ws = append(append(mine, kin...), ws...)
		if len(ws) > maxTranslations {
			ws = ws[:maxTranslations]
		}
		stemLines = append(stemLines, en+"\t"+strings.Join(ws, " "))
		byStem[en] = ws
		if ps := slices.DeleteFunc(slices.Clone(phrased[en]), func(w string) bool { return !slices.Contains(ws, w) }); len(ps) > 0 {
			phraseLines = append(phraseLines, en+"\t"+strings.Join(ps, " "))
		}
	}
	slices.Sort(stemLines)
	slices.Sort(phraseLines)
	// A word as written whose stem is another word takes its stem's line with the words two
	// entries give the word itself first ("cancellation": "lemondás"), in the stem's order.
	// Its own words that the stem's line lacks are not added, and a word that is its own stem
	// ("pick", "scan", "product") keeps the stem's line: both drew a question no entry answers
	// to a lone verb of an entry ("install": "felszerel", "scan": "vizsgál") or lost a covered
	// one ("pick" up: "szed" fifth to ninth).
	for en, words := range formPairs {
		k := morph.EnglishStem(en)
		if en == k {
			continue
		}
		stem := byStem[k]
		var ws, rest []string
		for _, w := range stem {
			if words[w] >= 2 {
				ws = append(ws, w)
			} else {
				rest = append(rest, w)
			}
		}
		if ws = append(ws, rest...); !slices.Equal(ws, stem) {
			formLines = append(formLines, en+"\t"+strings.Join(ws, " "))
		}
	}
	slices.Sort(formLines)
	return stemLines, formLines, phraseLines, nil
}

// wordnetSenses is how many of a word's first senses of each part of speech give it synonyms:
// WordNet lists a word's senses commonest first, and a later one is seldom what a visitor means.
const wordnetSenses = 2

// readSynonyms reads the English WordNet database (wordnet-base): for each word of one or two
// words (two written as one, as joinTwo does), as its Snowball stem, the stems of the other
// words of its first senses' synsets, in the order of its senses; and the stems of the words
// those senses pertain to (WordNet's "\" pointers of the word): the adjective "bridal"
// pertains to "bride", "dental" to "tooth". Other derivations ("+") are left out: "cyclist"
// derives from "cycle", whose first Hungarian word is a circle.
func readSynonyms(dir string) (synonyms, pertains map[string][]string, twoWords map[string]bool, err error) {
	synonyms, pertains, twoWords = map[string][]string{}, map[string][]string{}, map[string]bool{}
	oneWord := map[string]bool{} // "website", which "web site" writes as two
	clean := func(w string) string {
		w, _, _ = strings.Cut(w, "(") // an adjective's marker: "galore(ip)"
		if w == "" || unicode.IsUpper([]rune(w)[0]) {
			return "" // a name ("Aaron_Burr"): of no use in matching a visitor's words
		}
		two := strings.ContainsAny(w, "_-")
		w = joinTwo(strings.ToLower(strings.ReplaceAll(w, "_", " ")))
		if strings.Contains(w, " ") || !isLetters(w) || len(w) < 2 {
			return ""
		}
		w = morph.EnglishStem(w)
		if two {
			twoWords[w] = true
		} else {
			oneWord[w] = true
		}
		return w
	}
	// A synset's words (its position in the list is its word number less one, "" where the
	// word is of no use) and its pointers, by part of speech and offset: "n01037469".
	type pointer struct {
		target       string
		source, word int // 0: the whole synset
	}
	type synset struct {
		words    []string
		pointers []pointer
	}
	synsets := map[string]*synset{}
	posFiles := []string{"noun", "verb", "adj", "adv"}
	posKey := map[string]string{"noun": "n", "verb": "v", "adj": "a", "adv": "r"} // as pointers name them
	for _, pos := range posFiles {
		data, err := os.ReadFile(filepath.Join(dir, "data."+pos))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w (install wordnet-base)", err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			fs := strings.Fields(line)
			if len(fs) < 4 || strings.HasPrefix(line, " ") {
				continue // the licence at the top of the file
			}
			n, err := strconv.ParseInt(fs[3], 16, 32)
			if err != nil || len(fs) < 5+2*int(n) {
				continue
			}
			ss := &synset{}
			for i := 0; i < int(n); i++ {
				ss.words = append(ss.words, clean(fs[4+2*i]))
			}
			rest := fs[4+2*int(n):]
			if p, err := strconv.Atoi(rest[0]); err == nil && len(rest) >= 1+4*p {
				for i := 0; i < p; i++ {
					f := rest[1+4*i : 5+4*i]
					st, err := strconv.ParseUint(f[3], 16, 16)
					if err != nil || f[0] != "\\" {
						continue
					}
					pos := f[2]
					if pos == "s" {
						pos = "a"
					}
					ss.pointers = append(ss.pointers, pointer{target: pos + f[1], source: int(st >> 8), word: int(st & 0xff)})
				}
			}
			synsets[posKey[pos]+fs[0]] = ss
		}
	}
	for _, pos := range posFiles {
		index, err := os.ReadFile(filepath.Join(dir, "index."+pos))
		if err != nil {
			return nil, nil, nil, err
		}
		for _, line := range strings.Split(string(index), "\n") {
			fs := strings.Fields(line)
			if len(fs) < 4 || strings.HasPrefix(line, " ") {
				continue
			}
			w := clean(fs[0])
			senses, err := strconv.Atoi(fs[2])
			if w == "" || err != nil || len(fs) < senses {
				continue
			}
			for _, off := range fs[len(fs)-senses:][:min(senses, wordnetSenses)] {
				ss := synsets[posKey[pos]+off]
				if ss == nil {
					continue
				}
				for _, s := range ss.words {
					if s != "" && s != w && !slices.Contains(synonyms[w], s) {
						synonyms[w] = append(synonyms[w], s)
					}
				}
				for _, p := range ss.pointers {
					if p.source != 0 && (p.source > len(ss.words) || ss.words[p.source-1] != w) {
						continue // another word of the synset pertains to it
					}
					t := synsets[p.target]
					if t == nil {
						continue
					}
					for i, s := range t.words {
						if (p.word == 0 || p.word == i+1) && s != "" && s != w && !slices.Contains(pertains[w], s) {
							pertains[w] = append(pertains[w], s)
						}
					}
				}
			}
		}
	}
	for w := range oneWord {
		delete(twoWords, w)
	}
	return synonyms, pertains, twoWords, nil
}

// maxOwnForPhrase is how many Hungarian words of its own an English word may have and still
// take one from a phrase: the new word must rank among the first senses (see the assistant's
// translatedAt), not as a late sense of a word that has its main ones.
const maxOwnForPhrase = 5

// sortedPairs returns, in order, the pairs whose bits hold all of those of want.
func sortedPairs(m map[[2]string]int, want int) [][2]string {
	var out [][2]string
	for p, n := range m {
		if n&want == want {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0]+"\t"+a[1], b[0]+"\t"+b[1]) })
	return out
}

// irregularVerb returns the head of an irregular verb without its past forms ("to hurt, hurt"
// and "to come, came, come" are "to hurt" and "to come"), and any other head as it is.
func irregularVerb(head string) string {
	forms := strings.Split(head, ", ")
	if len(forms) < 2 || len(forms) > 3 || !strings.HasPrefix(forms[0], "to ") {
		return head
	}
	for _, f := range append([]string{strings.TrimPrefix(forms[0], "to ")}, forms[1:]...) {
		if !isLetters(f) {
			return head
		}
	}
	return forms[0]
}

// phrasalVerb returns the verb and particle of a dictionary head of a phrasal verb ("to pick
// up": "pick up"), whose senses are the phrase's, not its verb's ("felvesz", not "kikeres").
// The lexicon keys it by the verb's stem, a space and the particle, which no single word's
// key holds, so the phrase keeps its own line beside the compound written as one word
// ("pickup", a small truck).
func phrasalVerb(head string) (string, bool) {
	rest, ok := strings.CutPrefix(head, "to ")
	verb, particle, two := strings.Cut(rest, " ")
	if !ok || !two || !isLetters(verb) || len(verb) < 2 || !morph.Particle(particle) {
		return "", false
	}
	return verb + " " + particle, true
}

// joinTwo writes an English compound of two words as one, as the assistant looks up two
// neighbouring words of a question: "opening hours", "check-up" and "x-ray" are
// "openinghours", "checkup" and "xray". Other phrases stay as they are.
func joinTwo(en string) string {
	ws := strings.FieldsFunc(en, func(r rune) bool { return r == ' ' || r == '-' })
	if len(ws) != 2 || !isLetters(ws[0]) || !isLetters(ws[1]) {
		return en
	}
	return ws[0] + ws[1]
}

// eachEntry calls fn with each headword of a dictd dictionary and its senses: the lines of
// its definition split at commas and semicolons, without numbering, pronunciation and notes.
func eachEntry(base string, fn func(head string, senses []string)) error {
	index, err := os.ReadFile(base + ".index")
	if err != nil {
		return fmt.Errorf("%w (install dict-freedict-hun-eng and dict-freedict-eng-hun)", err)
	}
	zf, err := os.Open(base + ".dict.dz")
	if err != nil {
		return err
	}
	defer zf.Close()
	zr, err := gzip.NewReader(zf)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		return err
	}
	paren := regexp.MustCompile(`\([^)]*\)|\[[^\]]*\]|/[^/]*/|<[^>]*>`)
	numbering := regexp.MustCompile(`^\s*\d+\.\s*`)
	for _, line := range bytes.Split(index, []byte("\n")) {
		fs := strings.Split(string(line), "\t")
		if len(fs) != 3 || strings.HasPrefix(fs[0], "00database") {
			continue
		}
		off, len1 := b64(fs[1]), b64(fs[2])
		if off < 0 || len1 < 0 || off+len1 > len(body) {
			continue
		}
		lines := strings.Split(string(body[off:off+len1]), "\n")
		if len(lines) < 2 {
			continue
		}
		var senses []string
		for _, l := range lines[1:] {
			l = numbering.ReplaceAllString(paren.ReplaceAllString(l, ""), "")
			for _, s := range strings.FieldsFunc(l, func(r rune) bool { return r == ',' || r == ';' }) {
				if s = strings.Join(strings.Fields(strings.ToLower(s)), " "); s != "" {
					senses = append(senses, s)
				}
			}
		}
		head := strings.ToLower(strings.TrimSpace(fs[0]))
		// The index drops the commas of a head ("to hurt hurt"); its entry keeps them ("to
		// hurt, hurt", an irregular verb and its past forms).
		if h := strings.ToLower(strings.TrimSpace(paren.ReplaceAllString(lines[0], ""))); strings.Contains(h, ", ") && strings.ReplaceAll(h, ",", "") == head {
			head = h
		}
		fn(head, senses)
	}
	return nil
}

// b64 decodes dictd's base64 numbers.
func b64(s string) int {
	n := 0
	for _, r := range s {
		i := strings.IndexRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", r)
		if i < 0 {
			return -1
		}
		n = n*64 + i
	}
	return n
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// writeLines writes the lines uncompressed: the package embeds them as they are and looks
// words up in place.
func writeLines(path string, lines []string) error {
	var buf bytes.Buffer
	for _, l := range lines {
		fmt.Fprintln(&buf, l)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
