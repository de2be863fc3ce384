package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAdjectivesOfTheirOwn: a word the dictionary lists as an adjective by a description of
// its own (no "st:" or "ds:" field) is one, unless an entry spelled alike (once folded) is a
// noun or a verb of its own; a derived adjective, and one that is also a noun, are not; and
// the stem's line carries "*" after its flag set's number.
func TestAdjectivesOfTheirOwn(t *testing.T) {
	dir := t.TempDir()
	aff := "SET UTF-8\nAM 5\nAM po:adj ts:NOM\nAM po:noun ts:NOM\nAM st:fut po:vrb ds:Ó_PRESPART_adj\nAM po:vrb ts:NOM\nAM po:adj_num ts:NOM\n"
	dic := "7\nsima\t1\nplusz\t1\nplusz\t2\nfutó\t3\nír\t4\nír\t1\nnyolc\t5\n"
	for name, text := range map[string]string{"x.aff": aff, "x.dic": dic} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := readAffixes(filepath.Join(dir, "x.aff"))
	if err != nil {
		t.Fatal(err)
	}
	adj, err := readAdjectives(filepath.Join(dir, "x.dic"), a)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for w := range adj {
		got = append(got, w)
	}
	slices.Sort(got)
	if want := []string{"sima"}; !slices.Equal(got, want) {
		t.Errorf("adjectives %v, want %v", got, want)
	}
	stems, lemmas, _, err := readStems(filepath.Join(dir, "x.dic"), a)
	if err != nil {
		t.Fatal(err)
	}
	lines, _, _, _ := encodeMorphology(a, stems, lemmas, adj)
	if !slices.Contains(lines, "sima\t0*") || !slices.Contains(lines, "plusz\t0") {
		t.Errorf("stem lines %q, want sima marked, plusz not", lines)
	}
}
