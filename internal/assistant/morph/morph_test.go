package morph

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// TestLemmas: inflected, derived and prefixed Hungarian words, folded, find their dictionary
// stems; a word of no language finds none.
func TestLemmas(t *testing.T) {
	d := Load()
	for w, want := range map[string]string{
		"szombaton":    "szombat",
		"foglalast":    "foglal",
		"rendeltek":    "rendel",
		"tanfolyamot":  "tanfolyam",
		"reszletekben": "reszlet",
		"penteken":     "pentek",
		"megrendelnem": "rendel",
	} {
		if got := d.Lemmas(w); !slices.Contains(got, want) {
			t.Errorf("Lemmas(%q) = %v, want %q among them", w, got, want)
		}
	}
	if got := d.Lemmas("xqzvw"); got != nil {
		t.Errorf("Lemmas(xqzvw) = %v", got)
	}
}

// TestLemmasRulesFirst: of the loose lemmas, one the dictionary's rules allow comes first,
// as the thesaurus and the glosses are looked up by the first.
func TestLemmasRulesFirst(t *testing.T) {
	d := Load()
	for w, want := range map[string]string{"fogam": "fog", "kezzel": "kez", "fogaim": "fog"} {
		if got := d.Lemmas(w); len(got) == 0 || got[0] != want {
			t.Errorf("Lemmas(%q) = %v, want %q first", w, got, want)
		}
	}
}

// TestStems: the dictionary's rules decide which stem a suffix comes off, so that a word is
// reduced only to stems that take its suffix: case endings with their vowel harmony and
// assimilation (-ban/-ben, -nak/-nek, -val/-vel as "-zel", "-tal"), possessives, plurals and
// verb forms, a form the dictionary lists standing for its lemma ("fogak": "fog"), and a
// verbal prefix. The stems the looser Lemmas also finds for some ("fogak", "kín") are no
// lemma of the word.
func TestStems(t *testing.T) {
	d := Load()
	for w, c := range map[string]struct{ want, not string }{
		"fogam":        {"fog", "fogak"},
		"kinezni":      {"nez", "kin"},
		"hazban":       {"haz", ""},
		"kertben":      {"kert", ""},
		"haznak":       {"haz", ""},
		"embereknek":   {"ember", ""},
		"kezzel":       {"kez", "kezez"},
		"bottal":       {"bot", ""},
		"kutyaval":     {"kutya", ""},
		"konyveim":     {"konyv", ""},
		"autoink":      {"auto", ""},
		"ablakokat":    {"ablak", ""},
		"fogaim":       {"fog", "fogak"},
		"vannak":       {"van", "vannak"},
		"mentek":       {"megy", "men"},
		"kerul":        {"kerul", "kerek"},
		"mennyibe":     {"mennyi", "menny"},
		"fizethetek":   {"fizet", ""},
		"szombaton":    {"szombat", ""},
		"rendelesemet": {"rendel", ""},
		"megrendelnem": {"rendel", ""},
		"lemondhatom":  {"mond", ""}, // a prefix and two suffixes
	} {
		got := d.Stems(w)
		if !slices.Contains(got, c.want) || c.not != "" && slices.Contains(got, c.not) {
			t.Errorf("Stems(%q) = %v, want %q among them and not %q", w, got, c.want, c.not)
		}
	}
	if got := d.Stems("xqzvw"); got != nil {
		t.Errorf("Stems(xqzvw) = %v", got)
	}
}

// TestMatches: a rule's condition is read from the end of the stem.
func TestMatches(t *testing.T) {
	for _, c := range []struct {
		cond, w string
		want    bool
	}{{".", "haz", true}, {"[^aeiou]", "haz", true}, {"[^aeiou]", "kutya", false},
		{"[ae]e", "idee", true}, {"[ae]e", "mese", false}, {"[ae]e", "tea", false}, {"ak", "fogak", true}, {"ak", "k", false}} {
		if got := matches(c.cond, c.w); got != c.want {
			t.Errorf("matches(%q, %q) = %v, want %v", c.cond, c.w, got, c.want)
		}
	}
}

// TestCompound: a compound splits where Hunspell's compounding flags let its parts stand, the
// last one inflected or derived ("festes" of "fest" may end a compound, as its suffix
// allows), and an inflected word is split as its stem, so that its suffix is no part.
func TestCompound(t *testing.T) {
	d := Load()
	for w, want := range map[string][]string{
		"szovegirast":      {"szoveg", "iras"},
		"hajfestest":       {"haj", "festes", "fest"},
		"ugyfelfogadas":    {"ugyfel", "fogadas"},
		"fogkoeltavolitas": {"fogko", "eltavolitas"},
		"fogfajassal":      {"fog", "fajas"},
	} {
		got := d.Compound(w)
		if len(got) < 2 || got[0] != want[0] {
			t.Errorf("Compound(%q) = %v, want %v", w, got, want)
			continue
		}
		for _, p := range want[1:] {
			if !slices.Contains(got[1:], p) {
				t.Errorf("Compound(%q) = %v, want %q among its later parts", w, got, p)
			}
		}
	}
	for _, w := range []string{"kerulne", "terulet", "szombaton", "xqzvw"} {
		if got := d.Compound(w); got != nil {
			t.Errorf("Compound(%q) = %v, want none", w, got)
		}
	}
}

func TestParts(t *testing.T) {
	d := Load()
	for w, want := range map[string][2]string{
		"fogkoeltavolitas": {"fogko", "eltavolitas"},
		"gyerekangolra":    {"gyerek", "angol"},
		"csaptelepet":      {"csap", "telep"},
	} {
		head, tail := d.Parts(w)
		if head != want[0] || !slices.Contains(tail, want[1]) {
			t.Errorf("Parts(%q) = %q, %v; want %q, %q", w, head, tail, want[0], want[1])
		}
	}
}

func TestEnglish(t *testing.T) {
	d := Load()
	for en, want := range map[string]string{
		"weekend":   "hetvege",
		"guarantee": "garancia",
		"children":  "gyerek",
		"invoice":   "szamla",
		"refund":    "visszaterites",
		"haircut":   "haj", // a compound the lexicon lacks takes its parts' words
		// English compounds of two words are looked up written as one.
		"openinghours": "nyitvatartas",
		"checkup":      "kivizsgalas",
		"paid":         "fizet", // an irregular form the lexicon lacks is looked up as its word
		// A word takes the words its WordNet synonyms ("locale", "locus") agree on.
		"venue": "hely",
		// An adjective takes the words of the noun it pertains to ("bride").
		"bridal": "menyasszony",
	} {
		if got := d.English(en); !slices.Contains(got, want) {
			t.Errorf("English(%q) = %v, want %q among them", en, got, want)
		}
	}
}

// TestEnglishKeepsTheWordAsTyped: Snowball stems "expense" and "expensive" alike, and the
// stem's line gives the noun's words first ("kiadás", "költség"), "drága" eighth; the
// adjective as typed, or inflected, takes the words both dictionaries give it first. The noun
// keeps the stem's line.
func TestEnglishKeepsTheWordAsTyped(t *testing.T) {
	d := Load()
	for _, en := range []string{"expensive", "expensives"} {
		if got := d.English(en); slices.Index(got, "draga") < 0 || slices.Index(got, "draga") > 2 {
			t.Errorf("English(%q) = %v, want %q among the first three", en, got, "draga")
		}
	}
	if got := d.English("expense"); len(got) == 0 || got[0] != "kiadas" {
		t.Errorf("English(expense) = %v, want %q first", got, "kiadas")
	}
}

// TestEnglishTakesDictionaryWords: a Hungarian word the dictionary has is paired as it
// stands, not as a longer word a loose suffix stripping makes of it ("óra", hour, is no
// "örök", eternal).
func TestEnglishTakesDictionaryWords(t *testing.T) {
	d := Load()
	for en, want := range map[string]string{"hour": "ora"} {
		if got := d.English(en); len(got) == 0 || got[0] != want {
			t.Errorf("English(%q) = %v, want %q first", en, got, want)
		}
	}
}

// TestEnglishVerbs: a verb the English–Hungarian dictionary files under "to" ("to spay") is
// paired under the verb, its words after those of the word's own entries ("home" is "haza"
// before "repül", to fly home).
func TestEnglishVerbs(t *testing.T) {
	d := Load()
	if got := d.English("spay"); !slices.Contains(got, "ivartalanit") {
		t.Errorf("English(spay) = %v, want %q among them", got, "ivartalanit")
	}
	if got := d.English("home"); len(got) == 0 || got[0] != "haza" {
		t.Errorf("English(home) = %v, want %q first", got, "haza")
	}
	if d.EnglishWord("tospay") {
		t.Error(`EnglishWord("tospay") = true, want no key of "to" and a verb`)
	}
}

// TestEnglishCompoundWhole: a Hungarian compound Hunspell has no lemma of but reads as its
// words is paired whole ("air conditioner": "légkondicionáló"), one written with a hyphen
// too.
func TestEnglishCompoundWhole(t *testing.T) {
	if got := Load().English("airconditioner"); !slices.Contains(got, "legkondicionalo") {
		t.Errorf("English(airconditioner) = %v, want %q among them", got, "legkondicionalo")
	}
	// One written with a hyphen is one word ("légiposta-levél").
	if got := Load().English("aerogram"); !slices.Contains(got, "legipostalevel") {
		t.Errorf("English(aerogram) = %v, want %q among them", got, "legipostalevel")
	}
}

// TestEnglishPhraseHead: an English word that the dictionary renders only as a Hungarian
// adjective and noun takes the noun ("banyan": "indiai fügefa", an Indian fig tree).
func TestEnglishPhraseHead(t *testing.T) {
	if got := Load().English("banyan"); !slices.Contains(got, "fugefa") {
		t.Errorf("English(banyan) = %v, want %q among them", got, "fugefa")
	}
}

// TestEnglishFromTranslatedUI: a word neither dictionary has takes the word LibreOffice's
// Hungarian translation gives it, whole when Hunspell reads it as a compound.
func TestEnglishFromTranslatedUI(t *testing.T) {
	if got := Load().English("website"); !slices.Contains(got, "weboldal") {
		t.Errorf("English(website) = %v, want %q among them", got, "weboldal")
	}
}

// TestEnglishStem: British spellings stem as the American ones the lexicon keeps, and words
// that only look British keep theirs.
func TestEnglishStem(t *testing.T) {
	for british, american := range map[string]string{"colouring": "coloring", "behaviour": "behavior",
		"favourite": "favorite", "centre": "center", "metres": "meters", "anaesthesia": "anesthesia",
		"paediatric": "pediatric", "catalogue": "catalog", "analyse": "analyze"} {
		if got, want := EnglishStem(british), EnglishStem(american); got != want {
			t.Errorf("EnglishStem(%q) = %q, want %q as for %q", british, got, want, american)
		}
	}
	for _, w := range []string{"hour", "tour", "four", "detour", "your", "genre", "aerial", "reggae"} {
		if got, want := american(w), w; got != want {
			t.Errorf("american(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestSynonyms(t *testing.T) {
	d := Load()
	for hu, want := range map[string]string{"tanfolyam": "kurzus", "auto": "kocsi", "garancia": "szavatossag"} {
		if got := d.Synonyms(hu); !slices.Contains(got, want) {
			t.Errorf("Synonyms(%q) = %v, want %q among them", hu, got, want)
		}
	}
}

func TestEnglishWord(t *testing.T) {
	d := Load()
	// A compound of two words only WordNet has ("tax return") is read as its two words, not as
	// its synonyms' head ("return", "vissza"); one it writes as one word too ("website") stays.
	for w, want := range map[string]bool{"prices": true, "weekend": true, "facebook": false, "haircut": false,
		"taxreturn": false, "website": true} {
		if got := d.EnglishWord(w); got != want {
			t.Errorf("EnglishWord(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestGlosses(t *testing.T) {
	d := Load()
	for hu, want := range map[string]string{"tarol": "store", "fogko": "scale", "frizura": "hairstyl"} {
		if got := d.Glosses(hu); !slices.Contains(got, want) {
			t.Errorf("Glosses(%q) = %v, want %q among them", hu, got, want)
		}
	}
}

func TestFunctionWords(t *testing.T) {
	d := Load()
	for _, w := range []string{"es", "mi", "az", "nem", "szerint"} {
		if !d.Function(w) {
			t.Errorf("%q is no function word", w)
		}
	}
	for _, w := range []string{"szombat", "ar", "garancia"} {
		if d.Function(w) {
			t.Errorf("%q is a function word", w)
		}
	}
	if !d.Prefix("meg") || d.Prefix("szombat") {
		t.Error("verbal prefixes")
	}
}

// TestFunctionWordsBySpelling: a word typed with accents is a function word only as spelled;
// one typed without them, only when no noun, verb or adjective folds to it; a word spelled
// as a function word stays one ("mely", which; "haj" as an interjection), and a lexicon's
// folded word is a function word only when every word folding to it is one.
func TestFunctionWordsBySpelling(t *testing.T) {
	d := Load()
	for w, want := range map[string]bool{"őrá": true, "óra": false, "ora": false, "mely": true, "mély": false,
		"nő": false, "no": true, "elém": true, "elem": false, "után": true, "utan": true, "valami": true} {
		if got := d.Function(w); got != want {
			t.Errorf("Function(%q) = %v, want %v", w, got, want)
		}
	}
	for f, want := range map[string]bool{"utan": true, "es": true, "ora": false, "mely": false, "haj": false,
		"no": false, "elem": false, "szombat": false} {
		if got := d.FunctionOnly(f); got != want {
			t.Errorf("FunctionOnly(%q) = %v, want %v", f, got, want)
		}
	}
}

func TestSuffixChain(t *testing.T) {
	d := Load()
	for s, want := range map[string]bool{"eztetni": true, "ot": true, "oznek": true, "": false, "xqz": false} {
		if got := d.SuffixChain(s); got != want {
			t.Errorf("SuffixChain(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestFold(t *testing.T) {
	if got := Fold("Őszintén Ütött-Kopott don't"); got != "oszinten utott-kopott dont" {
		t.Errorf("Fold = %q", got)
	}
}

// maxHeap bounds the heap the loaded language data takes: the words stay in the binary's
// read-only data, and the process keeps only the tables that find them.
const maxHeap = 3 << 20

func TestLoadHeap(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := load()
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	fmt.Printf("language data: %.2f MiB of heap\n", float64(heap)/(1<<20))
	if heap > maxHeap {
		t.Errorf("the language data takes %d bytes of heap; want at most %d", heap, maxHeap)
	}
	runtime.KeepAlive(d)
}

// words are inflected and derived Hungarian words and English words, as questions hold them.
var words = []string{"szombaton", "foglalast", "rendeltek", "tanfolyamot", "reszletekben", "megrendelnem",
	"fogkoeltavolitasert", "mennyibe", "kerul", "nyitva", "vagytok", "idopontot", "garanciat", "arajanlatot",
	"appointment", "prices", "open", "saturday", "haircut", "invoice", "warranty", "xqzvw"}

// BenchmarkLemmas looks up the words of a question as the matcher does: lemmas, compound
// parts, glosses and English equivalents.
func BenchmarkLemmas(b *testing.B) {
	d := Load()
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range words {
			for _, l := range d.Lemmas(w) {
				d.Glosses(l)
			}
			d.Parts(w)
			d.English(w)
			d.Function(w)
		}
	}
}

// TestEnglishTypo: a word one common typo from a lexicon word is that word; a word the
// lexicon has, or one only a stem less a letter is near, is none.
func TestEnglishTypo(t *testing.T) {
	d := Load()
	for w, want := range map[string]string{"cleen": "clean", "apointment": "appoint", "windoww": "window",
		"adress": "address", "clean": "", "apartmant": ""} {
		_, stem := d.EnglishKey(w)
		if got := d.EnglishTypo(w, stem); got != want {
			t.Errorf("EnglishTypo(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestEnglishKey: one lookup gives a word's lexicon key and its stem: the stem itself, the
// stem of the word an irregular form is of, or none for a word the lexicon lacks.
func TestEnglishKey(t *testing.T) {
	d := Load()
	for w, want := range map[string][2]string{"prices": {"price", "price"}, "paid": {"pay", "paid"},
		"colouring": {"color", "color"}, "facebook": {"", "facebook"}} {
		if key, stem := d.EnglishKey(w); key != want[0] || stem != want[1] {
			t.Errorf("EnglishKey(%q) = %q, %q; want %q, %q", w, key, stem, want[0], want[1])
		}
	}
}

// TestOpposite: the English WordNet's antonyms pair English stems both ways ("fail",
// "succeed"); a stem is no antonym of a word WordNet does not oppose to it.
func TestOpposite(t *testing.T) {
	d := Load()
	if !d.Opposite(EnglishStem("fail"), []string{"pan", EnglishStem("succeed")}) {
		t.Error(`"fail" is not the opposite of "succeed"`)
	}
	if !d.Opposite(EnglishStem("cheap"), []string{EnglishStem("expensive")}) {
		t.Error(`"cheap" is not the opposite of "expensive"`)
	}
	if d.Opposite(EnglishStem("fail"), []string{EnglishStem("open"), EnglishStem("cheap")}) {
		t.Error(`"fail" is the opposite of "open" or "cheap"`)
	}
}

// TestLacking: "-mentes" (free of) and "-talan", "-telen" (-less) are one suffix of lack; a word
// of one is its stem with the others that the rules derive or the dictionary lists, in the
// form vowel harmony gives them; a word of none has none.
func TestLacking(t *testing.T) {
	d := Load()
	for w, want := range map[string]string{
		"dijmentes":   "dijtalan",
		"dijtalan":    "dijmentes",
		"zsirmentes":  "zsirtalan",
		"vizmentes":   "viztelen",
		"cukormentes": "cukortalan",
	} {
		if got := d.Lacking(w); !slices.Contains(got, want) {
			t.Errorf("Lacking(%q) = %v, want %q among them", w, got, want)
		}
	}
	for _, w := range []string{"dij", "mentes", "ingyen", "talan"} {
		if got := d.Lacking(w); got != nil {
			t.Errorf("Lacking(%q) = %v, want none", w, got)
		}
	}
}

// TestLackWord: a form of a word of lack is read as that word and the stem it lacks, though
// the rules strip it to the bare stem ("cukormentes" is "cukor" to Stems); a word that only
// holds the letters of a suffix of lack is none.
func TestLackWord(t *testing.T) {
	d := Load()
	for w, want := range map[string][2]string{
		"cukormentes":   {"cukormentes", "cukor"},
		"cukormenteset": {"cukormentes", "cukor"},
		"hibamentes":    {"hibamentes", "hiba"},
		"hibatlan":      {"hibatlan", "hiba"},
		"dijmentesen":   {"dijmentes", "dij"},
	} {
		if word, stem := d.LackWord(w); word != want[0] || stem != want[1] {
			t.Errorf("LackWord(%q) = %q, %q; want %q, %q", w, word, stem, want[0], want[1])
		}
	}
	for _, w := range []string{"cukor", "cukros", "hotelen", "mentes", "altalanos", "talan"} {
		if word, stem := d.LackWord(w); word != "" {
			t.Errorf("LackWord(%q) = %q, %q; want none", w, word, stem)
		}
	}
}

// TestSplitHeadKeepsThePlainReading: a word the dictionary's rules read as a stem with suffixes
// is no compound of a word and those suffixes ("festést": no "fest" and "est"), nor one cut
// where its stem has no word ("kapcsolók": no "kap" and "cső"), nor one of a part shorter
// than minPart ("gyártói": no "tó"); a compound the dictionary lists whole still is one.
func TestSplitHeadKeepsThePlainReading(t *testing.T) {
	d := Load()
	for _, w := range []string{"festest", "kapcsolok", "gyartoi", "gyarban", "samponokat"} {
		if head, tail := d.SplitHead(w); head != "" {
			t.Errorf("SplitHead(%q) = %q, %v; want none", w, head, tail)
		}
	}
	for w, want := range map[string][2]string{
		"keszpenzzel":    {"kesz", "penz"},
		"felulvizsgalat": {"felul", "vizsgalat"},
	} {
		if head, tail := d.SplitHead(w); head != want[0] || !slices.Contains(tail, want[1]) {
			t.Errorf("SplitHead(%q) = %q, %v; want %q, %q", w, head, tail, want[0], want[1])
		}
	}
}
