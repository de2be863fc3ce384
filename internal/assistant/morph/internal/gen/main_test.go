package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// writeDictd writes a made-up dictd dictionary, base.index and base.dict.dz, of the entries
// given as a headword line and its sense lines, in the order given.
func writeDictd(t *testing.T, base string, entries [][]string) {
	t.Helper()
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	enc := func(n int) string {
		s := string(digits[n%64])
		for n /= 64; n > 0; n /= 64 {
			s = string(digits[n%64]) + s
		}
		return s
	}
	var body, index bytes.Buffer
	for _, e := range entries {
		text := strings.Join(e, "\n") + "\n"
		// The index drops the line's pronunciation and its commas: "to hurt, hurt /tə
		// hˈɜːt hˈɜːt/" is "to hurt hurt".
		head, _, _ := strings.Cut(e[0], " /")
		head = strings.ReplaceAll(head, ",", "")
		index.WriteString(head + "\t" + enc(body.Len()) + "\t" + enc(len(text)) + "\n")
		body.WriteString(text)
	}
	var dz bytes.Buffer
	zw := gzip.NewWriter(&dz)
	if _, err := zw.Write(body.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".index", index.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".dict.dz", dz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lexiconOf builds the lexicon of made-up dictionaries, one line an English stem.
func lexiconOf(t *testing.T, engHun, hunEng [][]string) map[string]string {
	t.Helper()
	stems, _ := lexiconAndForms(t, engHun, hunEng)
	return stems
}

// lexiconAndForms builds the lexicon of made-up dictionaries: its lines by English stem and
// its lines by English word as written.
func lexiconAndForms(t *testing.T, engHun, hunEng [][]string) (stems, forms map[string]string) {
	t.Helper()
	dir := t.TempDir()
	writeDictd(t, filepath.Join(dir, "freedict-eng-hun"), engHun)
	writeDictd(t, filepath.Join(dir, "freedict-hun-eng"), hunEng)
	stemLines, formLines, _, err := readLexicon(dir, morph.Load(), nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	byKey := func(lines []string) map[string]string {
		out := map[string]string{}
		for _, l := range lines {
			en, hu, _ := strings.Cut(l, "\t")
			out[en] = hu
		}
		return out
	}
	return byKey(stemLines), byKey(formLines)
}

func TestLexiconKeepsTheWordAsWritten(t *testing.T) {
	// "cancel" and "cancellation" share the stem "cancel"; the verb's words come first on the
	// stem's line, "lemondás" after them. Both dictionaries give "lemondás" for the noun, which
	// has a line of its own with it first; the verb is its own stem and needs none.
	stems, forms := lexiconAndForms(t, [][]string{
		{"cancel", "1. töröl", "2. érvénytelenít"},
		{"cancellation", "1. törlés", "2. lemondás"},
	}, [][]string{
		{"töröl", "cancel"},
		{"érvénytelenít", "cancel"},
		{"lemondás", "cancellation"},
	})
	if got, want := stems["cancel"], "torol ervenytelenit lemondas torles"; got != want {
		t.Errorf("stem cancel: %q, want %q", got, want)
	}
	if got, want := forms["cancellation"], "lemondas torol ervenytelenit torles"; got != want {
		t.Errorf("cancellation: %q, want %q", got, want)
	}
	if got, ok := forms["cancel"]; ok {
		t.Errorf("cancel has a line of its own %q, though it is its stem", got)
	}
}

func TestLexiconStemRanksNearestWord(t *testing.T) {
	// "comely" and "come" share the stem "come"; one dictionary each gives their words, the
	// comely one first.
	lex := lexiconOf(t, nil, [][]string{
		{"csinos", "comely"},
		{"jön", "come"},
	})
	if got, want := lex["come"], "jon csinos"; got != want {
		t.Errorf("come: %q, want %q", got, want)
	}
}

func TestLexiconNoMisreadPrefixedVerb(t *testing.T) {
	// "megsért" is no dictionary word; its loosest stripping reads it as "meg", a bare
	// verbal prefix, and "megsebesít" as "mégse". Hunspell reads both as a prefix and a
	// verb, so they are kept whole.
	lex := lexiconOf(t, [][]string{
		{"to hurt", "1. megsért", "2. megsebesít", "3. árt"},
	}, nil)
	if got, want := lex["hurt"], "megsert megsebesit art"; got != want {
		t.Errorf("hurt: %q, want %q", got, want)
	}
}

func TestLexiconIrregularVerbHead(t *testing.T) {
	// The dictionary files an irregular verb with its past forms: "to come, came, come".
	lex := lexiconOf(t, [][]string{
		{"to come, came, come /tə kˈʌm/", "1. jön", "2. érkezik"},
	}, nil)
	if got, want := lex["come"], "jon erkezik"; got != want {
		t.Errorf("come: %q, want %q", got, want)
	}
}
