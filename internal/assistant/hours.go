package assistant

import (
	"regexp"
	"strconv"
	"strings"
)

// dayNames are the days of the week as folded word beginnings, Hungarian and English, by
// their number (Sunday 0), and shortDays the English abbreviations as whole words.
var (
	dayNames = []struct {
		stem string
		day  int
	}{{"hetfo", 1}, {"kedd", 2}, {"szerd", 3}, {"csutortok", 4}, {"pentek", 5}, {"szombat", 6}, {"vasarnap", 0},
		{"monday", 1}, {"tuesday", 2}, {"wednesday", 3}, {"thursday", 4}, {"friday", 5}, {"saturday", 6}, {"sunday", 0}}
	shortDays = map[string]int{"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 0}
	// timeSpan is a span of the clock in an hours text: "9:00–17:00", "10.00-14.00".
	timeSpan = regexp.MustCompile(`(\d{1,2})[:.](\d{2})\s*[–—-]\s*(\d{1,2})[:.](\d{2})`)
)

// dayOf returns the day of the week a folded word names, -1 for none.
func dayOf(f string) int {
	if d, ok := shortDays[f]; ok {
		return d
	}
	for _, n := range dayNames {
		if strings.HasPrefix(f, n.stem) {
			return n.day
		}
	}
	return -1
}

// openAt tells whether an opening-hours text ("Hétfő–péntek 9:00–17:00, szombat 10:00–14:00,
// vasárnap zárva") has the company open at the time of day a question's folded words name,
// on the day they name or, when they name none, on every day; known is false when the text
// or the question does not say it plainly: a day the text leaves out, two days asked, or
// "7-kor" open at seven but not at nineteen.
func openAt(hours string, folded []string) (open, known bool) {
	times := clockAsked(folded)
	if len(times) == 0 {
		return false, false
	}
	asked := -1
	for _, f := range folded {
		if d := dayOf(f); d >= 0 {
			if asked >= 0 && asked != d {
				return false, false
			}
			asked = d
		}
	}
	week, ok := weekOf(hours)
	if !ok {
		return false, false
	}
	days := []int{0, 1, 2, 3, 4, 5, 6}
	if asked >= 0 {
		days = []int{asked}
	}
	first := true
	for _, d := range days {
		if !week[d].known {
			return false, false
		}
		for _, t := range times {
			in := false
			for _, s := range week[d].spans {
				in = in || s[0] <= t && t < s[1]
			}
			if !first && in != open {
				return false, false
			}
			open, first = in, false
		}
	}
	return open, true
}

// clockAsked returns the times of day, in minutes, the first time a question's folded words
// name can be: "8am" one, "7-kor" both seven and nineteen.
func clockAsked(folded []string) []int {
	i := 0
	for i < len(folded) && !clockTime(folded, i) {
		i++
	}
	if i == len(folded) {
		return nil
	}
	if h, ok := hourWords[folded[i]]; ok {
		// "kettőkor" is two at night or in the afternoon, "fél hétkor" half past six
		m := 0
		if i > 0 && folded[i-1] == "fel" {
			h, m = (h+11)%12, 30
		}
		if folded[i] == "ejfelkor" || folded[i] == "delkor" {
			return []int{h*60 + m}
		}
		return []int{h%12*60 + m, (h%12+12)*60 + m}
	}
	j := i // the hour: "at 7"
	if !isNumber(folded[i]) {
		j = i - 1 // "7-kor", "8 am"
		if j >= 2 && folded[j-1] == "" && numeral(folded[j-2]) {
			j -= 2 // "20:00-kor"
		}
	}
	suffix := ""
	if j < 0 || folded[j] == "" {
		// "8am" as one word
		f := folded[i]
		if len(f) <= 2 {
			return nil
		}
		suffix, folded, j = f[len(f)-2:], []string{f[:len(f)-2]}, 0
	}
	h, err := strconv.Atoi(folded[j])
	m := 0
	k := j + 1
	if k+1 < len(folded) && folded[k] == "" && numeral(folded[k+1]) {
		m, _ = strconv.Atoi(folded[k+1])
		k += 2
	}
	if suffix == "" && k < len(folded) && (folded[k] == "am" || folded[k] == "pm") {
		suffix = folded[k]
	}
	if err != nil || h > 24 || m > 59 {
		return nil
	}
	switch {
	case suffix == "am" && h <= 12:
		return []int{h%12*60 + m}
	case suffix == "pm" && h <= 12:
		return []int{(h%12+12)*60 + m}
	case h >= 1 && h < 12 && k == j+1:
		// "7-kor" may be seven in the evening; "7:30-kor" is written on the 24-hour clock
		return []int{h*60 + m, (h+12)*60 + m}
	}
	return []int{h*60 + m}
}

// openDay is what an hours text says of one day: whether it says anything, and the spans of
// the clock, in minutes, the company is open then (none: closed).
type openDay struct {
	known bool
	spans [][2]int
}

// weekOf reads an hours text of parts split by commas, semicolons or lines, each of a day,
// a range of days ("Hétfő–péntek", "hétfőtől péntekig") or a list of them, and its spans of
// the clock or none (closed); a text of one part without days is every day's. ok is false
// for a part it cannot read.
func weekOf(hours string) (week [7]openDay, ok bool) {
	parts := strings.FieldsFunc(hours, func(r rune) bool { return r == ',' || r == ';' || r == '\n' })
	for _, p := range parts {
		var days []int
		for _, f := range tokens(p) {
			if d := dayOf(f); d >= 0 {
				days = append(days, d)
			}
		}
		rest := timeSpan.ReplaceAllString(p, " ")
		if len(days) == 2 && (strings.ContainsAny(rest, "–—-") || strings.Contains(fold(rest), "tol ")) {
			from, to := days[0], days[1]
			days = nil
			for d := from; ; d = (d + 1) % 7 {
				days = append(days, d)
				if d == to {
					break
				}
			}
		}
		if len(days) == 0 {
			if len(parts) > 1 {
				return week, false
			}
			days = []int{0, 1, 2, 3, 4, 5, 6}
		}
		var spans [][2]int
		for _, s := range timeSpan.FindAllStringSubmatch(p, -1) {
			n := make([]int, 4)
			for k := range n {
				n[k], _ = strconv.Atoi(s[k+1])
			}
			spans = append(spans, [2]int{n[0]*60 + n[1], n[2]*60 + n[3]})
		}
		if len(spans) == 0 && !strings.Contains(fold(p), "zarva") && !strings.Contains(fold(p), "closed") {
			return week, false
		}
		for _, d := range days {
			week[d].known = true
			week[d].spans = append(week[d].spans, spans...)
		}
	}
	return week, len(parts) > 0
}
