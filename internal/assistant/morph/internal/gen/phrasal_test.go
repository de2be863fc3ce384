package main

import "testing"

// TestPhrasalVerb: FreeDict's heads of phrasal verbs ("to pick up") give the verb and its
// particle; a verb with a preposition ("to come to", "to pay in") or a noun ("pick up" without
// "to") does not.
func TestPhrasalVerb(t *testing.T) {
	for head, want := range map[string]string{
		"to pick up": "pick up", "to take away": "take away", "to find out": "find out",
		"to come to": "", "to pay in": "", "pick up": "", "to pick": "", "to get used to": "",
	} {
		if got, ok := phrasalVerb(head); got != want || ok != (want != "") {
			t.Errorf("phrasalVerb(%q) = %q, %v; want %q", head, got, ok, want)
		}
	}
}
