package contact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Keyword windows around a phone candidate, in bytes.
const (
	keywordsBefore = 40
	keywordsAfter  = 24
)

// keywords reports words near text[start:end] that make it an identifier (neg, id) or an
// amount (neg) or a phone number (pos). The window before stops at the previous digit or line, so that
// "order 123456789, my number 30 123 4567" judges each number by its own words.
func (ps *phoneSearch) keywords(start, end int) (neg, id, pos bool) {
	lo := max(0, start-keywordsBefore)
	for lo < start && !utf8.RuneStart(ps.text[lo]) {
		lo++
	}
	before := ps.text[lo:start]
	if i := strings.LastIndexAny(before, "0123456789\n"); i >= 0 {
		before = before[i+1:]
	}
	if strings.HasSuffix(strings.TrimRight(before, " :\u00a0"), "#") {
		return true, true, false
	}
	hi := min(len(ps.text), end+keywordsAfter)
	after := ps.text[end:hi]
	if i := strings.IndexAny(after, "0123456789\n"); i >= 0 {
		after = after[:i]
	}
	for _, part := range [2]string{before, after} {
		for _, w := range strings.FieldsFunc(part, isNotLetter) {
			switch w = strings.ToLower(w); {
			case isNegativeWord(w):
				neg = true
				id = id || !amountWords[w]
			case isPositiveWord(w):
				pos = true
			}
		}
	}
	return neg, id, pos
}

func isNotLetter(r rune) bool { return !unicode.IsLetter(r) }

// Words (lower case) that announce a phone number: whole words, then beginnings of words.
var (
	phoneWords = map[string]bool{
		"tel": true, "szám": true, "száma": true, "mob": true, "ph": true, "sms": true, "cell": true,
	}
	phoneWordPrefixes = []string{
		"telefon", "telszám", "mobil", "hív", "hiv", "visszahív", "visszahiv", "számom", "számon",
		"számra", "számot", "számunk", "elér", "phone", "call", "mobile", "whatsapp", "viber",
		"signal", "number", "reach", "text", "contact", "kontakt", "ring", "vezetékes", "landline",
	}
)

// Words (lower case) that announce an identifier or an amount rather than a phone number.
var (
	notPhoneWords = map[string]bool{
		"id": true, "ref": true, "pin": true, "vin": true, "sku": true, "otp": true, "zip": true,
		"ár": true, "ára": true, "áron": true, "árat": true, "price": true, "budget": true,
		"hrsz": true, "irsz": true, "taj": true, "isbn": true, "iban": true, "nr": true,
	}
	notPhoneWordPrefixes = []string{
		"rendelés", "order", "számla", "invoice", "azonosító", "adószám", "adóaz", "cikkszám",
		"bank", "account", "helyrajzi", "irányítószám", "postcode", "postal", "ügyszám",
		"sorszám", "tracking", "csomag", "kód", "code", "ticket", "rendszám", "igazolvány",
		"alvázszám", "serial", "gyári", "termék", "item", "jelszó", "password", "keret", "összeg",
		"cost", "reference", "ügyfélszám", "customer", "szerződés", "contract", "fuvar",
		"szállítólevél", "nyugta", "receipt", "transaction", "tranzakció", "ügyfélazon", "cégjegyzék",
		"statisztikai", "számlaszám", "ügyiratszám", "iktatószám", "vat", "tax", "registration",
	}
)

// amountWords are the negative words that speak of money, not of an identifier: "Áron" is
// also a given name, so they do not outweigh a number's own +36 or 06.
var amountWords = map[string]bool{"ár": true, "ára": true, "áron": true, "árat": true, "price": true, "budget": true}

func isPositiveWord(w string) bool { return phoneWords[w] || hasAnyPrefix(w, phoneWordPrefixes) }

func isNegativeWord(w string) bool {
	return notPhoneWords[w] || hasAnyPrefix(w, notPhoneWordPrefixes)
}

func hasAnyPrefix(w string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}
