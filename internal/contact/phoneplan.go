package contact

import (
	"regexp"
	"slices"

	"github.com/nyaruka/phonenumbers"
)

// numberPlan is one region's numbering plan from libphonenumber's own metadata, its patterns
// compiled once. libphonenumber's IsValidNumber builds each pattern's text anew and looks the
// compiled expression up in a locked map, for the general description and every number type
// in turn: a score of allocations and hashes of long strings, per number, which profiles of a
// lead create showed as the larger part of its phone check. valid answers what IsValidNumber
// answers for the region's numbers (TestNumberPlanAgreesWithTheLibrary).
type numberPlan struct {
	general numberDesc
	// types are the number types whose match makes a number valid (fixed line, mobile,
	// premium rate, toll free, shared cost, VoIP, personal, pager, UAN, voicemail), those
	// with a pattern.
	types []numberDesc
}

// numberDesc is one description of the plan: the national number lengths it allows (any, when
// none are listed) and the pattern a number must match whole.
type numberDesc struct {
	lengths []int32
	re      *regexp.Regexp
	// dfa is re as a table over digits (digitDFA); nil when the pattern does not compile to one.
	dfa *digitDFA
}

// compileNumberPlan compiles region's plan; nil when libphonenumber has no metadata for it.
func compileNumberPlan(region string) *numberPlan {
	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		return nil
	}
	for _, m := range coll.GetMetadata() {
		if m.GetId() != region {
			continue
		}
		p := &numberPlan{general: compileDesc(m.GetGeneralDesc())}
		// Any type's match makes a number valid, so the order is free: the types nearly every
		// lead's number is of come first, and a description without a pattern, which matches
		// no number, is left out. libphonenumber tries premium rate, toll free, ... first,
		// each a pattern run for a mobile number.
		descs := []*phonenumbers.PhoneNumberDesc{m.GetFixedLine()}
		// With the same pattern for both, libphonenumber does not try mobile after fixed line.
		if !m.GetSameMobileAndFixedLinePattern() {
			descs = append(descs, m.GetMobile())
		}
		descs = append(descs, m.GetPremiumRate(), m.GetTollFree(), m.GetSharedCost(), m.GetVoip(),
			m.GetPersonalNumber(), m.GetPager(), m.GetUan(), m.GetVoicemail())
		for _, d := range descs {
			if d.GetNationalNumberPattern() != "" {
				p.types = append(p.types, compileDesc(d))
			}
		}
		return p
	}
	return nil
}

// compileDesc compiles d as libphonenumber matches it: the whole national number against the
// pattern (an absent description has the empty pattern, which no number matches).
func compileDesc(d *phonenumbers.PhoneNumberDesc) numberDesc {
	pattern := d.GetNationalNumberPattern()
	dfa, _ := compileDigitDFA("(?:" + pattern + ")")
	return numberDesc{lengths: d.GetPossibleLength(), re: regexp.MustCompile("^(?:" + pattern + ")$"), dfa: dfa}
}

func (d numberDesc) matches(national string) bool {
	if len(d.lengths) > 0 && !slices.Contains(d.lengths, int32(len(national))) {
		return false
	}
	if d.dfa != nil {
		if matched, ok := d.dfa.match(national); ok {
			return matched
		}
	}
	return d.re.MatchString(national)
}

// valid reports whether national, a national significant number of the region (digits, no
// leading zero), is a valid number of it.
func (p *numberPlan) valid(national string) bool {
	if !p.general.matches(national) {
		return false
	}
	for _, d := range p.types {
		if d.matches(national) {
			return true
		}
	}
	return false
}
