package assistant

import "slices"

// dayAsked reports whether folded words ask on which days: "milyen napokon", "melyik
// napon", "hány napon", "which days", "what day". The answer names a day, as the opening hours
// or an entry that says "kedden és csütörtökön" do.
func dayAsked(folded []string) bool {
	for i := 1; i < len(folded); i++ {
		switch prev, f := folded[i-1], folded[i]; {
		case (prev == "milyen" || prev == "melyik" || prev == "mely") && (f == "napokon" || f == "napon" || f == "napokra" || f == "napra"):
			return true
		case (prev == "which" || prev == "what") && (f == "day" || f == "days"):
			return true
		}
	}
	return false
}

// namesADay reports whether an entry answers on which days: the opening hours, or an entry
// the question names (keyCover) whose name or text says a day of the week, the weekend or a
// holiday. Another entry's days ("Salsa: kedden") are not the days of the one asked about.
func namesADay(s scored) bool {
	if s.kind == factHours {
		return true
	}
	day := func(t term) bool { return isDay(&t) }
	return s.keyCover > 0 && (slices.ContainsFunc(s.keys, day) || slices.ContainsFunc(s.body, day))
}
