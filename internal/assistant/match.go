package assistant

import (
	"strings"
	"unicode/utf8"
)

// stopWords carry no topic: question words, articles, pronouns, auxiliaries, and the words of
// a price question, which the price intent answers (otherwise "Mennyibe kerül a webshop?"
// would match the FAQ "Mennyibe kerül a szállítás?" on two words of three).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		egy es is hogy nem de meg mi mit mik mivel miert mikor hol hova honnan hogyan milyen
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
		the and for with are was can could would will you your our have has does did how what
		when where which who why much many there any some please this that about from`) {
		m[w] = true
	}
	return m
}()

// contentWords are the distinct folded words of s that can carry its topic.
func contentWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range tokens(s) {
		if utf8.RuneCountInString(w) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// overlap counts the words of want that have a similar word in have.
func overlap(want, have []string) int {
	n := 0
	for _, w := range want {
		for _, h := range have {
			if similar(w, h) {
				n++
				break
			}
		}
	}
	return n
}

// fits reports whether n of the want words found make a match: at least half of them and,
// unless loose (a quick button's label is short and deliberate), at least two when there
// are two or more.
func fits(n, want int, loose bool) bool {
	if n == 0 || 2*n < want {
		return false
	}
	return loose || n >= min(2, want)
}

// bestFAQ finds the FAQ pair whose question shares the most words with the message.
func bestFAQ(faq []QA, msg []string, loose bool) (QA, bool) {
	var best QA
	bestN, bestLen := 0, 0
	for _, qa := range faq {
		q := contentWords(qa.Question)
		n := overlap(q, msg)
		if fits(n, len(q), loose) && (n > bestN || n == bestN && len(q) < bestLen) {
			best, bestN, bestLen = qa, n, len(q)
		}
	}
	return best, bestN > 0
}

// bestService finds the service the message names.
func bestService(services []Service, msg []string) (Service, bool) {
	var best Service
	bestN := 0
	for _, s := range services {
		name := contentWords(s.Name)
		if n := overlap(name, msg); fits(n, len(name), true) && n > bestN {
			best, bestN = s, n
		}
	}
	return best, bestN > 0
}

// isButton reports whether the message is one of the quick buttons' labels.
func isButton(message string, buttons []string) bool {
	m := strings.Join(tokens(message), " ")
	for _, b := range buttons {
		if m != "" && m == strings.Join(tokens(b), " ") {
			return true
		}
	}
	return false
}

// Questions about the company itself and about how to reach it, which Intent leaves out.
var (
	aboutPhrases = phrases("mivel foglalkoz*", "kik vagy*", "kik maguk", "kik onok",
		"bemutatkoz*", "rolatok", "onokrol", "cegrol", "cegukrol", "about you", "about your*",
		"about the company", "who are you", "what do you do")
	reachPhrases = phrases("kapcsolat", "kapcsolatfelvetel", "elerhetoseg", "elerhetosegek", "elerhetosegeik*", "elerhetoseguk*",
		"elerhetosegeitek*", "telefonszamuk*", "telefonszamotok*", "email cimuk*", "mail cimuk*",
		"cimuk*", "cimetek", "hol talalhato*", "hol talalom", "hol vannak", "hol van az iroda*",
		"where are you", "your address", "your phone*", "your email", "contact you", "contact us", "contact details", "reach you")
)
