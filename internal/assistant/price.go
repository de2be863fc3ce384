package assistant

import "regexp"

// The parts of an amount of money in folded text (see fold).
const (
	// amountRE is digits with optional thousands separators and decimals: "1 900 000", "1,9".
	amountRE = `\d+(?:[ \x{a0}\x{202f}.,]\d{3})*(?:[.,]\d+)?`
	// numberWordRE is a number written in words, Hungarian or English: "tízezer", "másfél", "twenty".
	numberWordRE = `(?:masfel|fel|egy|ket|harom|negy|ot|hat|het|nyolc|kilenc|tiz|husz|harminc|negyven|` +
		`otven|hatvan|hetven|nyolcvan|kilencven|szaz|ezer|one|two|three|four|five|six|seven|eight|` +
		`nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|` +
		`hundred|thousand)\p{L}*`
	// magnitudeRE multiplies an amount: "500 e Ft", "5k HUF", "1,9 M Ft", "2 ezer forint".
	magnitudeRE = `(?:ezer|szaz|millio\p{L}*|milliard\p{L}*|mrd|mio|hundred|thousand|million|billion|bn|e|k|m)`
	// millionsRE is a magnitude that states money even without a currency: "1,9 millió".
	millionsRE = `(?:millio|milliard|million|billion)\p{L}*`
	// currencyRE lists "euro" by its suffixed forms only: "euro\p{L}*" would take "európai".
	currencyRE = `(?:ft|huf|forint\p{L}*|eur|euro(?:s|t|ba|ert|tol|ig|val|nyi|nak)?|usd|dollar\p{L}*|gbp|pound\p{L}*|chf|€|\$|£)`
	startRE    = `(?:^|[^\p{L}\d])`
	endRE      = `(?:[^\p{L}]|$)`
)

// priceRE matches an amount with a currency after it ("1 900 000 Ft-tól", "5k HUF", "100€");
// a currency before an amount ("€1.900", "EUR 100"); millions ("1,9 millió", "másfél millió");
// and a number in words with a currency ("ezer forint", "twenty dollars").
var priceRE = regexp.MustCompile(
	amountRE + `\s*(?:` + magnitudeRE + `\s*)?-?\s*` + currencyRE + endRE +
		`|` + startRE + `(?:€|\$|£|eur|usd|huf|gbp|chf)\s*` + amountRE +
		`|` + amountRE + `\s*(?:` + millionsRE + `|mrd` + endRE + `)` +
		`|` + startRE + numberWordRE + `\s*` + millionsRE +
		`|` + startRE + numberWordRE + `\s*(?:` + magnitudeRE + `\s*)?` + currencyRE + endRE)

// ContainsPrice reports whether a text states a price or an amount of money; it holds back
// prices while gate_quote is on, in the built-in assistant's replies and in a model's. Numbers
// that are not money ("8:00–17:00", "+36 30 123 4567", "25 év", "1 000 kWh") are not prices.
func ContainsPrice(text string) bool {
	return priceRE.MatchString(fold(text))
}
