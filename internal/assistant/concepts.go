package assistant

import "strings"

// concepts group the everyday words, Hungarian and English, that visitors and profiles use for
// one idea, so that "hitel" finds "részletfizetés" and "weekend" finds "szombaton". Words are
// folded (see fold); a trailing '*' takes any word that begins so. The list is deliberately of
// general words that any small business's visitors use, not of one trade's vocabulary.
var concepts = [][]string{
	{"garanci*", "jotall*", "szavatoss*", "warrant*", "guarant*"},
	{"reszlet*", "reszletfizet*", "hitel*", "kolcson*", "finansz*", "torleszt*", "instalment*", "installment*",
		"financ*", "loan*", "credit", "plan", "plans"},
	{"palyaz*", "tamogatas*", "grant", "grants", "subsid*"},
	{"hetvege*", "szombat*", "vasarnap*", "hetfo*", "kedd*", "szerda*", "csutortok*", "pentek*", "unnep*",
		"nyitva*", "nyitvatart*", "weekend*", "saturday*", "sunday*", "monday*", "tuesday*", "wednesday*",
		"thursday*", "friday*", "holiday*", "open", "opening", "hours", "closed", "bent", "benn", "hanytol", "hanyig", "hanykor"},
	{"ido", "idot", "ideig", "idotartam*", "meddig", "het", "hetet", "hetig", "hetre", "nap", "napig", "napot",
		"perc*", "long", "quickly", "soon", "weeks", "days", "minute*", "session"},
	{"cim", "cime", "cimuk", "cimetek", "cimunk", "iroda*", "bemutatoterem*", "telephely*", "talal*", "megtalal*",
		"address", "located", "location", "office", "find"},
	{"terulet*", "megye*", "videk*", "orszag*", "kornyek*", "kiszall*", "kijon*", "kijott*", "dolgoznak",
		"area", "areas", "region", "travel", "nationwide", "countryside"},
	{"telefon*", "telszam*", "szamon", "szamot", "szamuk", "szamotok", "phone*", "number", "call", "tel",
		"erhet*", "elerhet*", "elerem", "elerni", "reach"},
	{"email*", "mail*", "emil"},
	{"gyerek*", "gyermek*", "kid", "kids", "child*"},
	{"weboldal*", "honlap*", "oldal", "oldalt", "oldalam", "website*", "webpage*", "site"},
	{"szerkeszt*", "tartalomkezel*", "cms", "edit", "editing"},
	{"felek", "felelem*", "ijed*", "izgul*", "scared", "afraid", "anxious", "nervous", "fear*"},
	{"faj", "fajdalm*", "fajni", "hurt*", "pain*", "painful"},
	{"gumi*", "abroncs*", "tire*", "tyre*", "wheel*"},
	{"parkol*", "parking", "park"},
	{"biztosit*", "insur*"},
	{"miota", "alapit*", "ota", "since", "founded", "established", "been"},
	{"kartya*", "bankkartya*", "keszpenz*", "atutal*", "card", "cash", "transfer"},
	{"fizet*", "pay", "paying", "payment*", "paid"},
	{"angol*", "english"},
	{"idopont*", "foglal*", "bejelentkez*", "appointment*", "book", "booking"},
	{"surgos*", "surgoss*", "emergenc*", "urgent*"},
}

// contactConcepts are the bits of the concepts of phone numbers, email and addresses.
var contactConcepts = conceptsOf("telefon") | conceptsOf("email") | conceptsOf("cim")

// durationConcept is the bit of the concept of time spans ("hét", "nap", "weeks").
var durationConcept = conceptsOf("hetig")

// conceptsOf returns the concepts a folded word belongs to, as bits. A stem of five letters
// or more also counts as the later part of a compound ("részletfizetés" is about paying).
func conceptsOf(f string) uint64 {
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
