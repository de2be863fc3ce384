package contact

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"github.com/leadchat/leadchat/internal/limits"
)

// phoneRun matches a stretch of digits joined by what people put between phone digits. It is
// deliberately greedy, so one run may hold a date and a number, or two numbers; findPhone
// splits it. Newlines and commas end a run: nobody writes one number across them.
var phoneRun = regexp.MustCompile(`[(+]*\d[\d ()./\-\x{a0}]*\d`)

// startsWithDate spots 2024-05-12, 2024.05.12., 2023. 11. 05. and 12/08/2024.
var startsWithDate = regexp.MustCompile(`^(?:(?:19|20)\d\d ?[./-] ?[01]?\d ?[./-] ?[0-3]?\d|[0-3]?\d ?[./] ?[01]?\d ?[./] ?(?:19|20)\d\d)`)

// Work limits per message. Parsing with libphonenumber costs microseconds, so the cheap
// checks run first and the number of parses is capped: a visitor gives one or two numbers,
// and text with more candidates than this is not worth the time.
const (
	maxPhoneRuns   = 32
	maxPhoneChecks = 64
	maxPhoneParses = 6
)

// Hungarian mobile network codes: a nine-digit number starting with one of them is a mobile
// number written without the 06 or +36 prefix ("30 123 4567").
var huMobileCodes = [...]string{"20", "30", "31", "50", "70"}

// phoneSearch is the state of one findPhone call.
type phoneSearch struct {
	text           string
	checks, parses int
	// regions are the countries, besides Hungary, whose national numbers the conversation's
	// language points to ("07700 900123" in an English one).
	regions []string
}

// identifier matches the Hungarian identifiers that look like phone numbers: tax numbers
// (12345678-2-43), company registration numbers (01-09-123456), statistical numbers
// (12345678-1234-113-01) and bank accounts (11773016-11111111[-00000000], also with spaces).
var identifier = regexp.MustCompile(`\d{8}-\d-\d{2}\b|\b\d{2}-\d{2}-\d{6}\b|\d{8}-\d{4}-\d{3}-\d{2}|\d{8}[- ]\d{8}(?:[- ]\d{8})?`)

// maskIdentifiers replaces the digits of identifiers with letters, keeping every byte offset,
// so that no part of one can be read as a phone number.
func maskIdentifiers(text string) string {
	if !strings.ContainsAny(text, "0123456789") {
		return text
	}
	return identifier.ReplaceAllStringFunc(text, func(m string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return 'x'
			}
			return r
		}, m)
	})
}

// findPhone returns the first valid phone number in text, as typed and in E.164.
func findPhone(text string, regions []string) (typed, e164 string) {
	ps := phoneSearch{text: maskIdentifiers(text), regions: regions}
	text = ps.text
	for _, r := range phoneRun.FindAllStringIndex(text, maxPhoneRuns) {
		if !ps.runBounded(r[0], r[1]) {
			continue
		}
		if typed, e164 = ps.inRun(r[0], r[1]); e164 != "" || ps.parses >= maxPhoneParses {
			return typed, e164
		}
	}
	return "", ""
}

// runBounded rejects a run glued to a word, an address or a path: "ABC123456", "x/1234567",
// "36301234567@sms.hu" are identifiers, not numbers to call.
func (ps *phoneSearch) runBounded(start, end int) bool {
	if before, _ := utf8.DecodeLastRuneInString(ps.text[:start]); start > 0 &&
		(unicode.IsLetter(before) || strings.ContainsRune("@/#_\\", before)) {
		return false
	}
	after, _ := utf8.DecodeRuneInString(ps.text[end:])
	return end == len(ps.text) || !(unicode.IsLetter(after) || after == '@' || after == '_')
}

// digitGroup is a maximal stretch of digits inside a run.
type digitGroup struct{ start, end int }

// inRun tries the longest spans of whole digit groups first, each starting where a new number
// could start (the run's start, or after a space or slash), so that "2024.05.12. 06 30 123 4567"
// yields the phone and "06 30 123 4567 / 06 1 234 5678" the first of two.
func (ps *phoneSearch) inRun(start, end int) (typed, e164 string) {
	var groups []digitGroup
	for i := start; i < end; {
		if !isDigit(ps.text[i]) {
			i++
			continue
		}
		j := i
		for j < end && isDigit(ps.text[j]) {
			j++
		}
		groups = append(groups, digitGroup{i, j})
		i = j
	}
	for i := range groups {
		if i > 0 && !strings.ContainsAny(ps.text[groups[i-1].end:groups[i].start], " /\u00a0") {
			continue
		}
		from := groups[i].start
		if i == 0 {
			from = start
		}
		for from > start && (ps.text[from-1] == '+' || ps.text[from-1] == '(') {
			from--
		}
		digits := 0
		last := i
		for last < len(groups) && digits+groups[last].end-groups[last].start <= limits.PhoneMaxDigits {
			digits += groups[last].end - groups[last].start
			last++
		}
		for j := last - 1; j >= i; j-- {
			if ps.checks >= maxPhoneChecks || ps.parses >= maxPhoneParses {
				return "", ""
			}
			if typed, e164 = ps.check(start, from, groups[j].end, end); e164 != "" {
				return typed, e164
			}
		}
	}
	return "", ""
}

// check decides whether text[start:end], part of a run ending at runEnd, is a phone number;
// cheap tests come first.
func (ps *phoneSearch) check(runStart, start, end, runEnd int) (typed, e164 string) {
	ps.checks++
	cand := ps.text[start:end]
	var b [limits.PhoneMaxDigits]byte
	digits := b[:0]
	for i := 0; i < len(cand); i++ {
		if isDigit(cand[i]) {
			if len(digits) == limits.PhoneMaxDigits {
				return "", ""
			}
			digits = append(digits, cand[i])
		}
	}
	if len(digits) < limits.PhoneMinDigits || startsWithDate.MatchString(cand) || ps.isAmount(start, end) {
		return "", ""
	}
	// The words around the whole run judge a part of it: "Az ügyszám 36 20 123 4567" holds
	// "20 123 4567", which is no phone either.
	neg, id, pos := ps.keywords(runStart, end)
	if len(ps.regions) > 0 && cand[0] != '+' && !(digits[0] == '0' && digits[1] == '6') {
		if e164 := ps.foreign(neg, cand, string(digits)); e164 != "" {
			return ps.typed(cand, e164)
		}
	}
	// A plus, 00 or the Hungarian trunk prefix 06 says "phone number" by itself; anything
	// else needs a Hungarian shape or a word nearby that asks for a number.
	strong := cand[0] == '+' || strings.HasPrefix(cand, "(+") ||
		digits[0] == '0' && (digits[1] == '0' || digits[1] == '6')
	if strong && id && !pos {
		return "", "" // "Reference: 06-30-1234567": an identifier, whatever its shape
	}
	if !strong {
		// "200 000 - 300 000 Ft": part of a run that is an amount is part of an amount.
		if runEnd != end && ps.isAmount(start, runEnd) {
			return "", ""
		}
		if neg || !(pos || isHUWithoutPrefix(cand, string(digits))) {
			return "", ""
		}
	}
	ps.parses++
	if e164 = toE164(cand); e164 == "" {
		return "", ""
	}
	return ps.typed(cand, e164)
}

// typed is the candidate as the visitor typed it, without an unclosed parenthesis.
func (ps *phoneSearch) typed(cand, e164 string) (string, string) {
	if strings.HasPrefix(cand, "(") && !strings.Contains(cand, ")") {
		cand = strings.TrimLeft(cand, "(")
	}
	return cand, e164
}

// usShape is a North American number as people write it: (415) 555-2671, 415-555-2671,
// 415.555.2671, 415 555 2671.
var usShape = regexp.MustCompile(`^(?:\(\d{3}\) ?|\d{3}[-. ])\d{3}[-. ]\d{4}$`)

// foreign reads a number in the national format of one of the conversation's regions: one
// that starts with that country's trunk prefix 0 (Britain, Ireland, Germany, Austria), or a
// North American number in its usual shape. A word nearby that makes it an identifier or an
// amount still wins.
func (ps *phoneSearch) foreign(neg bool, cand, digits string) string {
	if neg {
		return ""
	}
	for _, region := range ps.regions {
		nanp := phonenumbers.GetCountryCodeForRegion(region) == 1
		if nanp && !usShape.MatchString(cand) || !nanp && digits[0] != '0' {
			continue
		}
		ps.parses++
		num, err := phonenumbers.Parse(digits, region)
		// IsValidNumber, not ...ForRegion: a British mobile may belong to Guernsey's plan.
		if err == nil && phonenumbers.IsValidNumber(num) && int(num.GetCountryCode()) == phonenumbers.GetCountryCodeForRegion(region) {
			return phonenumbers.Format(num, phonenumbers.E164)
		}
	}
	return ""
}

// isHUWithoutPrefix accepts the two shapes a Hungarian number takes without 06 or +: a
// mobile number ("30 123 4567") and the country code without its plus ("36 30 123 4567").
// Its digits d must be written in one piece or with the leading code apart, as people do;
// "200 000 300" is not a mobile number.
func isHUWithoutPrefix(cand, d string) bool {
	lead := len(strings.TrimLeft(cand, "("))
	lead -= len(strings.TrimLeft(strings.TrimLeft(cand, "("), "0123456789"))
	if lead != 2 && lead != len(d) {
		return false
	}
	if strings.HasPrefix(d, "36") && (len(d) == 10 || len(d) == 11) {
		return true
	}
	if len(d) != 9 {
		return false
	}
	for _, c := range huMobileCodes {
		if strings.HasPrefix(d, c) {
			return true
		}
	}
	return false
}

// isAmount reports a currency next to the candidate: "150 000 Ft", "45.000.000,- Ft", "$ 1500000".
func (ps *phoneSearch) isAmount(start, end int) bool {
	before := strings.TrimRight(ps.text[:start], " \u00a0")
	if strings.HasSuffix(before, "$") || strings.HasSuffix(before, "€") || strings.HasSuffix(before, "£") {
		return true
	}
	after := ps.text[end:]
	if strings.HasPrefix(after, ",") {
		after = strings.TrimLeft(after[1:], "0123456789-")
	}
	after = strings.TrimLeft(after, " \u00a0")
	if len(after) > 8 {
		after = after[:8]
	}
	after = strings.ToLower(after)
	for _, c := range currencies {
		if strings.HasPrefix(after, c) {
			return true
		}
	}
	return false
}

// currencies are the lower-cased beginnings of what follows an amount.
var currencies = []string{"ft", "forint", "huf", "eur", "€", "$", "£", "usd", "gbp", "e ft", "eft", "ezer", "millió", "millio", "mio"}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
