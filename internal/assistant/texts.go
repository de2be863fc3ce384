package assistant

import (
	"fmt"
	"slices"
	"strings"
)

// texts are the built-in assistant's sentences in one language. Hungarian ones use the formal
// "Ön" register, as a company addresses a prospective customer.
type texts struct {
	greeting, hello, howHelp, chooseButtons, askAbout, noAnswer   string
	services, servicesGated, prices, noPrices, quoteWelcome       string
	quoteGated, quoteFollows, hours, noHours, noInfo              string
	callback, buying, welcome, reach, phoneAt, emailAt, addressAt string
	thanksName, thanks, noted, notedOne, itemValue, servicePrice  string
	ask, askBecause, askAlso, askFor, complete, completeQuote     string
	and                                                           string
	handover, handoverRest, handoverDone, askHandover             string
	addressIs, phoneIs, emailIs                                   string
	// openThen and closedThen say whether the company is open at the time a question names.
	openThen, closedThen string
	// inHungarian quotes a profile text that has no version in the reply's language.
	inHungarian              string
	name, email, phoneNumber string
	// articles tells whether a name takes the Hungarian article "a" or "az".
	articles bool
}

var hu = texts{
	greeting:      "Jó napot kívánok! %s virtuális asszisztense vagyok.",
	hello:         "Jó napot kívánok!",
	howHelp:       "Miben segíthetek?",
	chooseButtons: "Kérdezzen bátran, vagy válasszon: %s.",
	askAbout:      "Kérdezhet például a szolgáltatásainkról vagy a nyitvatartásunkról.",
	noAnswer:      "Köszönöm a kérdését! Erre most nem tudok pontos választ adni, de kollégánk szívesen segít.",
	services:      "Szolgáltatásaink: %s.",
	servicesGated: "Az árakról személyre szabott ajánlatot küldünk.",
	prices:        "Áraink: %s.",
	noPrices:      "Pontos árat itt nem tudok mondani; kollégánk személyre szabott ajánlatot készít Önnek.",
	quoteWelcome:  "Szívesen készítünk Önnek személyre szabott árajánlatot.",
	quoteGated:    "Az árat személyre szabott ajánlatban küldjük el, amint megkaptam az elérhetőségeit.",
	quoteFollows:  "Kollégánk hamarosan elküldi Önnek a személyre szabott árajánlatot.",
	hours:         "Nyitvatartásunk: %s",
	noHours:       "A nyitvatartásról sajnos nincs információm; kollégánk szívesen tájékoztatja.",
	noInfo:        "Erről sajnos nincs információm, de kollégánk szívesen segít.",
	callback:      "Kollégánk szívesen visszahívja Önt.",
	buying:        "Örülök, hogy érdeklődik!",
	welcome:       "Szívesen! Ha további kérdése van, állok rendelkezésére.",
	reach:         "Elérhetőségeink: %s.",
	phoneAt:       "telefon: %s",
	emailAt:       "e-mail: %s",
	addressAt:     "cím: %s",
	thanksName:    "Köszönöm, %s!",
	thanks:        "Köszönöm!",
	noted:         "Rögzítettem %s.",
	notedOne:      "Rögzítettem %s: %s.",
	itemValue:     "%s (%s)",
	ask:           "Hogy kollégánk felvehesse Önnel a kapcsolatot, kérem, adja meg %s.",
	askBecause:    "Kérem, adja meg %s.",
	askAlso:       "Kérem, adja meg %s is.",
	askFor:        "Ehhez %s kérném.",
	complete:      "Minden adatot megkaptam, kollégánk hamarosan felveszi Önnel a kapcsolatot.",
	completeQuote: "Minden adatot megkaptam, kollégánk hamarosan felveszi Önnel a kapcsolatot, és elküldi a személyre szabott árajánlatot.",
	and:           "és",
	handover:      "Erre a kérdésre sajnos nem tudok pontos választ adni, de kollégánk szívesen segít.",
	handoverRest:  "A kérdése többi részére kollégánk tud pontos választ adni.",
	handoverDone:  "Továbbítom a kérdését, kollégánk hamarosan válaszol Önnek.",
	askHandover:   "Ha megadja %s, kollégánk felveszi Önnel a kapcsolatot.",
	addressIs:     "Címünk: %s",
	phoneIs:       "Telefonszámunk: %s",
	emailIs:       "E-mail címünk: %s",
	openThen:      "Igen, akkor nyitva vagyunk.",
	closedThen:    "Akkor sajnos nem vagyunk nyitva.",
	servicePrice:  "%s ára: %s",
	inHungarian:   "%s",
	name:          "a nevét",
	email:         "az e-mail címét",
	phoneNumber:   "a telefonszámát",
	articles:      true,
}

var en = texts{
	greeting:      "Hello! I am the virtual assistant of %s.",
	hello:         "Hello!",
	howHelp:       "How can I help you?",
	chooseButtons: "Feel free to ask, or choose: %s.",
	askAbout:      "You can ask me, for example, about our services or opening hours.",
	noAnswer:      "Thank you for your question! I can't give you an exact answer here, but a colleague will be glad to help.",
	services:      "Our services: %s.",
	servicesGated: "We send a personal quote for prices.",
	prices:        "Our prices: %s.",
	noPrices:      "I can't give an exact price here; a colleague will prepare a personal quote for you.",
	quoteWelcome:  "We will be glad to prepare a personal quote for you.",
	quoteGated:    "We will send you a personal quote as soon as I have your contact details.",
	quoteFollows:  "A colleague will send you your personal quote shortly.",
	hours:         "Our opening hours: %s",
	noHours:       "I'm afraid I have no information about opening hours; a colleague will be glad to help.",
	noInfo:        "I'm afraid I have no information about that, but a colleague will be glad to help.",
	callback:      "A colleague will be glad to call you back.",
	buying:        "Glad to hear you are interested!",
	welcome:       "You're welcome! Let me know if you have any other questions.",
	reach:         "You can reach us at %s.",
	phoneAt:       "phone: %s",
	emailAt:       "email: %s",
	addressAt:     "address: %s",
	thanksName:    "Thank you, %s!",
	thanks:        "Thank you!",
	noted:         "I have noted %s.",
	notedOne:      "I have noted %s: %s.",
	itemValue:     "%s (%s)",
	ask:           "So that a colleague can get in touch with you, could you please share %s?",
	askBecause:    "Could you please share %s?",
	askAlso:       "Could you please also share %s?",
	askFor:        "For this I need %s.",
	complete:      "I have everything I need; a colleague will be in touch with you shortly.",
	completeQuote: "I have everything I need; a colleague will be in touch with you shortly and send your personal quote.",
	and:           "and",
	handover:      "I'm afraid I can't answer that exactly here, but a colleague will be glad to help.",
	handoverRest:  "A colleague can answer the rest of your question exactly.",
	handoverDone:  "I'll pass your question on; a colleague will get back to you shortly.",
	askHandover:   "If you share %s, a colleague will get in touch with you.",
	addressIs:     "Our address: %s",
	phoneIs:       "Our phone number: %s",
	emailIs:       "Our email address: %s",
	openThen:      "Yes, we are open then.",
	closedThen:    "I'm afraid we are not open then.",
	servicePrice:  "Price of %s: %s",
	inHungarian:   "„%s” (in Hungarian)",
	name:          "your name",
	email:         "your email address",
	phoneNumber:   "your phone number",
}

// textsFor returns the sentences of a language, Hungarian unless it is English.
func textsFor(l Language) texts {
	if l == English {
		return en
	}
	return hu
}

// list joins items as a sentence would: "a, b és c".
func (tx texts) list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + tx.and + " " + items[len(items)-1]
}

// fieldList names the contact fields to ask for, in a fixed order whatever order Missing has.
func (tx texts) fieldList(missing []string) string {
	var items []string
	for _, f := range []string{"name", "email", "phone"} {
		if slices.Contains(missing, f) {
			items = append(items, tx.field(f))
		}
	}
	return tx.list(items)
}

// field names a contact field as the object of "please give me".
func (tx texts) field(f string) string {
	switch f {
	case "name":
		return tx.name
	case "email":
		return tx.email
	}
	return tx.phoneNumber
}

// named is a name as a sentence begins with it: in Hungarian with the article its first sound
// asks for ("A Napfény Kft.", "Az Alfa Kft.").
func (tx texts) named(name string) string {
	if !tx.articles {
		return name
	}
	if f := fold(name); f != "" && strings.ContainsRune("aeiou", rune(f[0])) {
		return "Az " + name
	}
	return "A " + name
}

// confirm thanks the visitor for the details this message captured and repeats them, so that
// a typo can be noticed at once.
func (tx texts) confirm(captured Contact) string {
	name := captured.Name
	out := tx.thanks
	if name != "" {
		out = fmt.Sprintf(tx.thanksName, name)
	}
	type detail struct{ label, value string }
	var ds []detail
	if captured.Name != "" && captured.Email == "" && captured.Phone == "" {
		ds = append(ds, detail{tx.name, ""})
	}
	if captured.Email != "" {
		ds = append(ds, detail{tx.email, captured.Email})
	}
	if captured.Phone != "" {
		ds = append(ds, detail{tx.phoneNumber, captured.Phone})
	}
	switch {
	case len(ds) == 1 && ds[0].value != "":
		return out + " " + fmt.Sprintf(tx.notedOne, ds[0].label, ds[0].value)
	case len(ds) == 1:
		return out + " " + fmt.Sprintf(tx.noted, ds[0].label)
	}
	items := make([]string, len(ds))
	for i, d := range ds {
		items[i] = fmt.Sprintf(tx.itemValue, d.label, d.value)
	}
	return out + " " + fmt.Sprintf(tx.noted, tx.list(items))
}
