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
