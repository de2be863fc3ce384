package morph

import "testing"

// TestActionVerb: a verb's action noun in "-ás"/"-és" is read back to the verb by the
// dictionary's rules, a short verb ("fáj", ache; "vág", cut) and an "-ik" verb ("úszik") too;
// a folded "-as"/"-es" of another rule (the adjective "kertes", with a garden, of "kert") or a
// word that only ends so ("kaszas") is none.
func TestActionVerb(t *testing.T) {
	d := Load()
	for w, want := range map[string]string{
		"fajas":  "faj",
		"vagas":  "vag",
		"uszas":  "uszik",
		"festes": "fest",
		"kertes": "",
		"hazas":  "",
		"fajt":   "",
	} {
		if got := d.ActionVerb(w); got != want {
			t.Errorf("ActionVerb(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestVerb: a dictionary word is a verb when it takes a suffix only verbs take by the rules;
// nouns and adjectives are none. Irregular verbs, whose forms the dictionary lists ("visz",
// carry: "vinni"), are not found so.
func TestVerb(t *testing.T) {
	d := Load()
	for w, want := range map[string]bool{
		"hoz": true, "fest": true, "faj": true, "uszik": true,
		"kert": false, "haz": false, "asztal": false, "piros": false,
	} {
		if got := d.Verb(w); got != want {
			t.Errorf("Verb(%q) = %v, want %v", w, got, want)
		}
	}
}
