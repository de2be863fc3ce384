package assistant

// Intent is what a visitor message shows, found deterministically; the chat package decides
// request_contact from it and the built-in assistant chooses its answer by it.
type Intent struct {
	Greeting, Price, Quote, Callback, Buying, Hours, Services, Thanks bool
}

// The phrases of each intent, as folded words (see fold). Short Hungarian stems are listed
// form by form rather than as prefixes: "ar*" would also match "árvíz", "arany" or "aratás".
var (
	greetingPhrases = phrases("szia", "sziasztok", "szervusz", "szervusztok", "hello", "hallo",
		"helo", "hali", "jo napot*", "jo reggelt*", "jo estet*", "udv", "udvozlom", "udvozlet*",
		"csokolom", "hi", "hey", "hiya", "howdy", "greetings", "good morning", "good afternoon",
		"good evening")
	thanksPhrases = phrases("koszonom", "koszonjuk", "koszi", "kosz", "koszike", "koszonet*",
		"thanks", "thank*", "thx", "cheers")
	pricePhrases = phrases("mennyibe", "mennyibol", "mibe kerul*", "mennyiert", "mennyi egy", "mennyit kell fizet*",
		"mennyit fizet*", "mennyivel kell tobbet fizet*",
		"mennyivel tobbet kell fizet*", "ar", "ara", "arak", "arat", "arai", "araik", "arakat", "arakrol",
		"arrol", "aron", "arban", "araink", "arainkat", "arainkrol", "arlista*", "arazas*",
		"arfekves*", "dij", "dija", "dijak", "dijat", "dijai", "dijakrol", "dijszab*", "dijtetel*",
		"koltseg*", "tarifa*", "how much", "price", "prices", "priced", "pricing", "pricelist",
		"cost", "costs", "costing", "fee", "fees", "tariff*", "you charge", "how expensive", "rates",
		"hourly rate*", "daily rate*", "flat rate*", "your rate",
		"cheapest", "cheaper", "legolcsobb*", "olcsobb*", "dragabb*", "more expensive", "less expensive")
	quotePhrases = phrases("arajanlat*", "ajanlat*", "kalkulacio*", "arkalkulacio*",
		"koltsegbecsles*", "quote", "quotes", "quotation*", "estimate", "estimates", "proposal")
	callbackPhrases = phrases("visszahiv*", "hivjanak", "hivjon", "hivjatok", "hivj", "felhivn*",
		"keressenek", "keressen meg", "vegyek fel velem*", "call me", "call back", "callback",
		"ring me", "phone me", "give me a call", "contact me", "get in touch with me")
	buyingPhrases = phrases("rendelni", "rendelnek", "megrendel*", "rendelest", "rendelesem",
		"vasarolni", "vasarolnek", "megvasarol*", "megvenn*", "megveszem", "szeretnek venni",
		"erdekel", "erdekelne", "erdekelnek", "erdekelnenek", "erdeklod*", "foglalni", "foglalnek",
		"idopont*", "jelentkez*", "megbiznam", "megbiznank", "megbizni", "buy", "buying",
		"purchase*", "to order", "place an order", "sign up", "book", "booking", "interested",
		"hire you", "want to hire", "get started")
	hoursPhrases = phrases("nyitvatart*", "nyitva", "nyitas*", "nyitnak", "zarva", "zarnak",
		"zaras*", "hany orakor", "hanytol", "meddig vannak", "ugyfelfogad*",
		"opening", "open", "hours", "closing", "closed")
	visitPhrases = phrases("be lehet menni", "be lehet jonni", "bemehet*", "bejohet*", "benezhet*",
		"can i come in", "can i drop in", "can i visit", "can i stop by", "can we come in", "can we visit")
	servicesPhrases = phrases("szolgaltatas*", "mit kinal*", "mit csinal*", "mivel foglalkoz*",
		"kinalat*", "termek", "termekek*", "termekeik*", "service", "services", "you offer",
		"offerings", "products", "what do you do", "what you do")
)

// DetectIntent finds the intents of a Hungarian or English message by whole folded words, so
// that accents are optional and "ár" is found in "Mi az ára?" but not in "árvíz" or "kár".
// Buying, quote and callback wishes that are negated ("nem érdekel") do not count.
func DetectIntent(text string) Intent { return intentOf(tokens(text)) }

// intentOf is DetectIntent of a message's tokens.
func intentOf(t []string) Intent {
	return Intent{
		Greeting: matchAny(t, greetingPhrases, false),
		Price:    matchAny(t, pricePhrases, false),
		Quote:    matchAny(t, quotePhrases, true),
		Callback: matchAny(t, callbackPhrases, true),
		Buying:   matchAny(t, buyingPhrases, true),
		Hours:    hoursAsked(t) && !matchAny(t, sincePhrases, false),
		Services: matchAny(t, servicesPhrases, false),
		Thanks:   matchAny(t, thanksPhrases, false),
	}
}

// hoursAsked reports whether a message's tokens ask for the opening hours: a phrase of them,
// other than a unit of time counted ("how many hours", a length or an amount).
func hoursAsked(t []string) bool {
	if matchAny(t, visitPhrases, false) {
		// "Vasárnap be lehet menni?": going in on a day asks whether it is open then.
		for _, w := range t {
			if conceptsOf(w)&dayConcept != 0 {
				return true
			}
		}
	}
	hours := filedAs(hoursPhrases)
	for i := range t {
		for _, p := range hours.at(t[i]) {
			if p.matchAt(t, i) && !countsTime(t, i) && !opensSomething(t, i) {
				return true
			}
		}
	}
	return false
}

// opensSomething reports whether the English word i of folded words is the verb "open" with an
// object after it ("open the door", "open my safe"): opening a thing, not the opening hours.
func opensSomething(folded []string, i int) bool {
	return folded[i] == "open" && i+1 < len(folded) && determiners[folded[i+1]]
}

// determiners begin an English noun phrase: an article, a possessive or a demonstrative.
var determiners = wordSet("the a an my our your his her their this that these those it them")
