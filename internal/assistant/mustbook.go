package assistant

// bookingConcept is the bit of the concept of booking ("foglal", "időpont", "book").
var bookingConcept = conceptsOf("foglal")

// mustBook reports whether folded words ask whether one must book: a word of booking and a
// word of need ("Hétvégére kell asztalt foglalni?", "Do I need to book?"). That asks a rule
// of the company, which the opening hours do not state, whatever day the question names.
func mustBook(folded []string) bool {
	must := false
	for i, f := range folded {
		must = must || needWords[f] || (f == "have" || f == "has") && i+1 < len(folded) && folded[i+1] == "to"
	}
	if !must {
		return false // most questions: the concepts are not looked up
	}
	for _, f := range folded {
		if conceptsOf(f)&bookingConcept != 0 {
			return true
		}
	}
	return false
}

// needWords say that something must be done, folded.
var needWords = wordSet(`kell kellene kene muszaj szukseges need needs needed must required`)
