package contact

import (
	"strings"
	"testing"
)

// oldIsHungarianName is IsHungarianName as it was, with strings.ToLower, strings.Split and the
// names joined: what the version without strings must answer.
func oldIsHungarianName(first, last string) bool {
	for _, part := range strings.Split(strings.ToLower(last), "-") {
		if familyNames[part] {
			return true
		}
	}
	return strings.ContainsAny(strings.ToLower(first+last), "áéíóöőúüű")
}

// IsHungarianName answers as strings.ToLower and the joined names did, for capitals, hyphens,
// letters that lower to ASCII (the Kelvin sign), bytes that are not UTF-8 (one rune split
// between the two names included), and long names; and makes no string.
func TestIsHungarianNameWithoutStrings(t *testing.T) {
	names := []string{"", "Anna", "Kovács", "KOVÁCS", "kovács", "Nagy", "NAGY", "nAgY", "Nagy-Kovács", "Smith-Nagy",
		"Smith-", "-Nagy", "-", "--", "Smith", "John", "Éva", "ÉVA", "Őz", "ŰR", "Ü", "Ö", "ö", "ő", "Zsófiána",
		"\u212Aovács", "\u212AOVÁCS", "İ", "Szabóné", "ÁRVÍZTŰRŐ", "Müller", "\xc3", "\xa1", "\xc3\xa1", "\xff",
		"Nagy\xff", "\xffNagy", strings.Repeat("x", 100) + "-Nagy", strings.Repeat("Á", 40), "emoji 😀"}
	for _, first := range names {
		for _, last := range names {
			if got, want := IsHungarianName(first, last), oldIsHungarianName(first, last); got != want {
				t.Errorf("IsHungarianName(%q, %q) = %v, want %v", first, last, got, want)
			}
		}
	}
	for _, n := range [][2]string{{"Péter", "Kovács"}, {"John", "Smith"}, {"Anna", "Nagy-Kovács"}, {"Éva", "Smith"}} {
		if allocs := testing.AllocsPerRun(20, func() { IsHungarianName(n[0], n[1]) }); allocs != 0 {
			t.Errorf("IsHungarianName(%q, %q): %.0f allocations, want 0", n[0], n[1], allocs)
		}
	}
}
