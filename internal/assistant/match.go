package assistant

import (
	"strings"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// isStop reports whether a lower-case word w, accents kept as written (or folded), whose
// folded form is f, carries no topic: a word of stopWords, or a Hungarian function word of the
// dictionary (a pronoun, a conjunction, a postposition...) that names no concept ("óta" does:
// "Mióta?" asks about the company's history). The accents tell "óra" (hour) from "őrá" (onto
// him).
func isStop(w, f string) bool {
	lang := morph.Load()
	return stopWords[f] || (lang.Function(w) || lang.Prefix(f)) && conceptsOf(f) == 0
}

// stopWords carry no topic: question words, articles, pronouns, auxiliaries, interjections,
// adverbs of how often ("általában", usually: no "general" anaesthesia),
// the suffixes a hyphen splits off ("kW-os"), and the words of a price question, which the
// price intent answers (otherwise "Mennyibe kerül a webshop?" would match the FAQ "Mennyibe
// kerül a szállítás?" on two words of three).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a az ez egy es is hogy nem de meg mi mit mik mivel miert mikor hol hova honnan hogyan milyen
		melyik mennyi mennyit mennyibe mibe kerul kerulne van vannak volt lesz lehet lehetne kell
		kellene ezt azt ezek azok itt ott nekem onnek onok maguk hogy vagy mint csak mar sem
		mert igen nincs tud tudok tudnak tudna tudnanak szeretnek szeretne kerem kerek koszonom
		valami ami aki amit akkor ilyen olyan nagyon kb stb van-e egyaltalan valamilyen
		vagy vagyok vagyunk vagytok vagyon vannak voltak volna lenne lennetek lesz lesztek
		ki kik kit kinek kiknek kivel hany hanyan hanyat mikor mire mirol miben mennyire melyiket
		titeket titek nektek naluk nalatok tolunk toletek onoket onoknek onok onoktol minket nekunk engem
		teged maga magatok magukat azt ezt ide oda itt ott majd aztan pedig hanem illetve meg se
		os es as ot et at ra re ba be ig tol rol bol nal nel val vel ert nak nek on en ban ben
		what whats wheres hows who whom whose its it is am are be being to of in on at by or an as if so
		up we us me my mine im ive id ill i u ur yours yourself yourselves they them their do does did
		dont doesnt can cant could would should will shall may might must pls plz please thx ty hi
		very just really quite also too any anything something somebody one ones
		someone anyone anybody everyone everybody everything guys somewhere anywhere everywhere without
		ok oke okay okey rendben hmm hm aha persze ertem alright cool jo bocs bocsi bocsanat elnezest
		elirtam elgepeltem sorry typo oops
		altalaban rendszerint tobbnyire nemelykor neha gyakran usually generally normally typically often sometimes
		isnt arent wasnt werent didnt couldnt wont wouldnt shouldnt havent hasnt hadnt youre youve theyre
		thats theres lets myself ourselves themselves itself himself herself
		the and for with are was can could would will you your our have has does did how what
		when where which who why much many there any some please this that about from`) {
		m[w] = true
	}
	return m
}()

// closedWords are English prepositions and the adverbs of place they make, a closed class of
// the language: "within", "outside", "during". Such a word tells where or when of what is
// asked, so it keeps its Hungarian function words, which a profile may say the question's
// point with ("Do you work outside the city?" of "a városon kívül is"), but alone it names no
// entry.
var closedWords = wordSet(`
	above across after against along amid among amongst around before behind below beneath
	beside besides between beyond during except inside into near onto outside over past since
	through throughout till toward towards under underneath unlike until upon via within without`)

// Questions about the company itself and about how to reach it, which Intent leaves out.
var (
	aboutPhrases = phrases("mivel foglalkoz*", "kik vagy*", "kik maguk", "kik onok",
		"rolatok", "onokrol", "cegrol", "cegukrol", "about you", "about your*",
		"about the company", "who are you", "what do you do")
	reachPhrases = phrases("kapcsolat", "kapcsolatfelvetel", "elerhetoseg", "elerhetosegek", "elerhetosegeik*", "elerhetoseguk*",
		"elerhetosegeitek*", "telefonszamuk*", "telefonszamotok*", "email cimuk*", "mail cimuk*",
		"cimuk*", "cimetek", "hol talalhato*", "hol talalom", "hol vannak", "hol van az iroda*",
		"where are you", "your address", "your phone*", "your email", "contact you", "contact us", "contact details", "reach you")
)
