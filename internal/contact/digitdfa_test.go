package contact

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// TestDigitDFAIsTheRegexp: the automaton of a pattern answers what the pattern's regular
// expression, matched whole, answers: for the default region's descriptions over every string of
// up to five digits and numbers of the region's shapes up to 17 digits; for every description of
// every region libphonenumber knows over strings the automaton accepts, those strings with a digit
// changed, added or dropped, and random digits. A string with another byte is left to the
// expression.
func TestDigitDFAIsTheRegexp(t *testing.T) {
	t.Parallel()
	if defaultPlan == nil {
		t.Fatal("no numbering plan for the default region")
	}
	rng := rand.New(rand.NewPCG(31, 9))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	check := func(d *digitDFA, re *regexp.Regexp, s string) {
		t.Helper()
		got, ok := d.match(s)
		if !ok {
			t.Errorf("%s: %q of digits refused", re, s)
			return
		}
		if want := re.MatchString(s); got != want {
			t.Errorf("%s matches %q: %v, the automaton says %v", re, s, want, got)
		}
	}
	for _, desc := range append([]numberDesc{defaultPlan.general}, defaultPlan.types...) {
		if desc.dfa == nil {
			t.Errorf("%s: the default region's pattern has no automaton", desc.re)
			continue
		}
		for n := 0; n <= 5; n++ {
			limit := 1
			for range n {
				limit *= 10
			}
			for i := range limit {
				s := strconv.Itoa(i)
				for len(s) < n {
					s = "0" + s
				}
				if n > 0 {
					check(desc.dfa, desc.re, s)
				}
			}
		}
		check(desc.dfa, desc.re, "")
		for range 50000 {
			national := huNational(rng, digits)
			if rng.IntN(4) == 0 {
				national = digits(1 + rng.IntN(17))
			}
			check(desc.dfa, desc.re, national)
		}
		for _, s := range []string{"30 1234567", "+36301234567", "3012345a7", "３０1234567"} {
			if _, ok := desc.dfa.match(s); ok {
				t.Errorf("%s: %q taken, which holds a byte that is not a digit", desc.re, s)
			}
		}
	}

	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		t.Fatal(err)
	}
	patterns, built, matched := 0, 0, 0
	for _, m := range coll.GetMetadata() {
		for _, d := range []*phonenumbers.PhoneNumberDesc{m.GetGeneralDesc(), m.GetFixedLine(), m.GetMobile(), m.GetPremiumRate(),
			m.GetTollFree(), m.GetSharedCost(), m.GetVoip(), m.GetPersonalNumber(), m.GetPager(), m.GetUan(), m.GetVoicemail(), m.GetNoInternationalDialling()} {
			pattern := d.GetNationalNumberPattern()
			if pattern == "" {
				continue
			}
			patterns++
			dfa, ok := compileDigitDFA("(?:" + pattern + ")")
			if !ok {
				continue
			}
			built++
			re := regexp.MustCompile("^(?:" + pattern + ")$")
			for range 200 {
				s := dfa.walk(rng)
				if s != "" {
					matched++
					check(dfa, re, s)
					i := rng.IntN(len(s))
					check(dfa, re, s[:i]+digits(1)+s[i+1:])
					check(dfa, re, s[:i]+digits(1)+s[i:])
					check(dfa, re, s[:i]+s[i+1:])
				}
				check(dfa, re, digits(rng.IntN(18)))
			}
		}
	}
	// Nearly every pattern must have an automaton, and the walks must find matches, for the
	// comparison to mean something.
	if built < patterns*9/10 || matched < built*50 {
		t.Errorf("%d patterns, %d automata, %d matching strings", patterns, built, matched)
	}
	t.Logf("%d patterns, %d automata, %d matching strings", patterns, built, matched)
}

// walk is a random string of digits the automaton accepts, "" when the walk finds none.
func (d *digitDFA) walk(rng *rand.Rand) string {
	var b []byte
	state := int32(0)
	for range 24 {
		if d.accept[state] && rng.IntN(3) == 0 {
			return string(b)
		}
		var live []int
		for digit, next := range d.next[state] {
			if next != dead {
				live = append(live, digit)
			}
		}
		if len(live) == 0 {
			break
		}
		digit := live[rng.IntN(len(live))]
		b = append(b, byte('0'+digit))
		state = d.next[state][digit]
	}
	if d.accept[state] {
		return string(b)
	}
	return ""
}
