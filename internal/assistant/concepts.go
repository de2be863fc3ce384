package assistant

import "strings"

// concepts group the everyday words, Hungarian and English, that visitors and profiles use for
// the facts every business has (opening days and hours, time spans, where it is, where it
// works, how to reach it, since when, how one pays, booking (and coming without: a walk-in),
// urgency and how soon: today, that very day, at once), so that "weekend" finds "szombaton".
// Words are folded (see fold); a trailing '*' takes any word that begins so. The list holds
// no trade's vocabulary: that comes from the profile and the lexicon.
var concepts = [][]string{
	{"hetvege*", "szombat*", "vasarnap*", "hetfo*", "kedd*", "szerda*", "csutortok*", "pentek*", "unnep*", "hetkoznap*",
		"nyitva*", "nyitvatart*", "weekend*", "saturday*", "sunday*", "monday*", "tuesday*", "wednesday*",
		"thursday*", "friday*", "holiday*", "weekday*", "open", "opening", "hours", "closed", "bent", "benn", "hanytol", "hanyig", "hanykor", "mettol",
		"reggel", "reggelt", "reggelre", "reggeltol", "reggelig", "reggelente", "reggelenkent", "reggeli", "reggelit", "reggelire", "reggelivel", "delelott*", "delutan*", "este", "esti", "estig", "morning*", "afternoon*", "evening*", "early", "earliest",
		"late", "latest"},
	{"ido", "idot", "ideig", "idotartam*", "meddig", "het", "hetet", "hetig", "hetre", "nap", "napig", "napot",
		"perc*", "ora", "oras", "oraig", "honap*", "gyorsan", "hamar", "long", "quickly", "soon", "weeks", "days", "minute*", "hour", "month*"},
	{"cim", "cime", "cimuk", "cimetek", "cimunk", "iroda*", "telephely*", "talal*", "megtalal*",
		"address", "located", "location", "office", "find"},
	{"terulet*", "megye*", "videk*", "orszag*", "kornyek*", "korzet*", "kiszall*", "kijon*", "kijott*",
		"telepules*", "falu", "falun", "falura", "falvak*", "area", "areas", "region", "travel", "nationwide", "countryside", "village", "villages", "town", "towns"},
	{"telefon*", "telszam*", "szamon", "szamot", "szamuk", "szamotok", "phone*", "number", "call", "tel",
		"erhet*", "elerhet*", "elerem", "elerni", "reach"},
	{"email*", "mail*", "emil"},
	{"miota", "alapit*", "ota", "since", "founded", "established"},
	{"kartya*", "bankkartya*", "keszpenz*", "atutal*", "card", "cards", "cash", "transfer"},
	{"reszlet*", "reszletfizet*", "hitel*", "finansz*", "torleszt*", "instalment*", "installment*", "financ*", "loan*"},
	{"idopont*", "foglal*", "bejelentkez*", "appointment*", "book", "booking", "walkin*"},
	{"surgos*", "surgoss*", "emergenc*", "urgent*", "ma", "aznap*", "today", "azonnal*", "immediately", "sameday"},
}

// relativePriceWords are the concepts of a price above another, a surcharge, and of one below
// it, a discount (relativePriceConcepts). Their stems begin words only: a compound that ends
// in one says which discount ("csoportkedvezmény", a group's), and is matched by its parts.
var relativePriceWords = [][]string{
	{"dragabb*", "felar*", "potdij*", "pricier", "surcharge*"},
	{"olcsobb*", "kedvezmeny*", "engedmeny*", "cheaper", "discount*"},
}

// contactConcepts are the bits of the concepts of phone numbers, email and addresses.
var contactConcepts = conceptsOf("telefon") | conceptsOf("email") | conceptsOf("cim")

// surchargeConcept and discountConcept are the bits of the concepts of a price above another
// ("felár", "drágább", "surcharge") and below it ("kedvezmény", "olcsóbb", "discount");
// relativePriceConcepts both.
var (
	surchargeConcept      = conceptsOf("felar")
	discountConcept       = conceptsOf("kedvezmeny")
	relativePriceConcepts = surchargeConcept | discountConcept
)

// durationConcept is the bit of the concept of time spans ("hét", "nap", "weeks").
var durationConcept = conceptsOf("hetig")

// conceptsOf returns the concepts a folded word belongs to, as bits. A stem of five letters
// or more also counts as the later part of a compound ("részletfizetés" is about paying).
func conceptsOf(f string) uint64 {
	bits := leadingConcepts(f)
	for _, c := range conceptIndex.later {
		if bits&c.bit == 0 && len(f) >= len(c.stem)+3 && strings.Index(f, c.stem) >= 3 {
			bits |= c.bit
		}
	}
	return bits
}

// leadingConcepts is conceptsOf without the stems that end a compound: the concepts the word
// is a word of itself.
func leadingConcepts(f string) uint64 {
	if f == "" {
		return 0
	}
	var bits uint64
	for _, c := range conceptIndex.byFirst[f[0]] {
		if c.prefix && strings.HasPrefix(f, c.stem) || !c.prefix && c.stem == f {
			bits |= c.bit
		}
	}
	return bits
}

// conceptWord is a word of concepts: a stem that begins words when prefix is set (a trailing
// '*'), else a whole word; bit is its concept's.
type conceptWord struct {
	stem   string
	prefix bool
	bit    uint64
}

// conceptIndex holds the words of concepts by their first letter, and apart the stems of
// five letters or more that may also end a word: conceptsOf reads the few that may match a
// word, not every word of every concept, for each word of a message.
var conceptIndex = func() (x struct {
	byFirst [256][]conceptWord
	later   []conceptWord
}) {
	add := func(c []string, bit uint64, ending bool) {
		for _, w := range c {
			stem, prefix := strings.CutSuffix(w, "*")
			cw := conceptWord{stem: stem, prefix: prefix, bit: bit}
			x.byFirst[w[0]] = append(x.byFirst[w[0]], cw)
			if ending && prefix && len(stem) >= 5 {
				x.later = append(x.later, cw)
			}
		}
	}
	for i, c := range concepts {
		add(c, 1<<i, true)
	}
	for i, c := range relativePriceWords {
		add(c, 1<<(len(concepts)+i), false) // stems that begin words only
	}
	return x
}()
