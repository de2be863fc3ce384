package assistant

import "strings"

// concepts group the everyday words, Hungarian and English, that visitors and profiles use for
// the facts every business has (opening days and hours, time spans, where it is, where it
// works, how to reach it, since when, how one pays, booking (and coming without: a walk-in),
// urgency and how soon: today, that very day, at once), so that "weekend" finds "szombaton".
// Words are folded (see fold); a trailing '*' takes any word that begins so. The list holds
// no trade's vocabulary: that comes from the profile and the lexicon.
var concepts = [][]string{
	{"hetvege*", "szombat*", "vasarnap*", "hetfo*", "kedd*", "szerda*", "csutortok*", "pentek*", "unnep*",
		"nyitva*", "nyitvatart*", "weekend*", "saturday*", "sunday*", "monday*", "tuesday*", "wednesday*",
		"thursday*", "friday*", "holiday*", "open", "opening", "hours", "closed", "bent", "benn", "hanytol", "hanyig", "hanykor",
		"reggel*", "delelott*", "delutan*", "este", "esti", "estig", "morning*", "afternoon*", "evening*", "early", "earliest",
		"late", "latest"},
	{"ido", "idot", "ideig", "idotartam*", "meddig", "het", "hetet", "hetig", "hetre", "nap", "napig", "napot",
		"perc*", "ora", "oras", "oraig", "honap*", "gyorsan", "hamar", "long", "quickly", "soon", "weeks", "days", "minute*", "hour", "month*"},
	{"cim", "cime", "cimuk", "cimetek", "cimunk", "iroda*", "telephely*", "talal*", "megtalal*",
		"address", "located", "location", "office", "find"},
	{"terulet*", "megye*", "videk*", "orszag*", "kornyek*", "korzet*", "kiszall*", "kijon*", "kijott*",
		"area", "areas", "region", "travel", "nationwide", "countryside"},
	{"telefon*", "telszam*", "szamon", "szamot", "szamuk", "szamotok", "phone*", "number", "call", "tel",
		"erhet*", "elerhet*", "elerem", "elerni", "reach"},
	{"email*", "mail*", "emil"},
	{"miota", "alapit*", "ota", "since", "founded", "established"},
	{"kartya*", "bankkartya*", "keszpenz*", "atutal*", "card", "cards", "cash", "transfer"},
	{"reszlet*", "reszletfizet*", "hitel*", "finansz*", "torleszt*", "instalment*", "installment*", "financ*", "loan*"},
	{"idopont*", "foglal*", "bejelentkez*", "appointment*", "book", "booking", "walkin*"},
	{"surgos*", "surgoss*", "emergenc*", "urgent*", "ma", "aznap*", "today", "azonnal*", "immediately", "sameday"},
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
