package contact

import (
	"regexp/syntax"
	"slices"
)

// digitDFA is a numbering plan's pattern, which speaks of digits only, turned into a
// deterministic automaton over the ten digits: a national number is checked by one table step a
// digit, where regexp runs its general machine (a backtracker with its own allocations and
// bookkeeping) for every pattern of the plan. It answers what the pattern's regular expression
// answers for a whole string of digits (TestDigitDFAIsTheRegexp); a string with any other byte
// is left to the expression.
type digitDFA struct {
	// next[s][d] is the state after digit d in state s; dead (-1) when no match can follow.
	next   [][10]int32
	accept []bool
}

const dead = -1

// maxDFAStates bounds an automaton's size; a pattern that needs more keeps its expression.
const maxDFAStates = 4096

// compileDigitDFA builds the automaton of pattern matched whole; ok is false when pattern does
// not parse, or holds an assertion (^, $, \b...) or needs more than maxDFAStates states.
func compileDigitDFA(pattern string) (d *digitDFA, ok bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, false
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, false
	}
	// closure adds pc and every instruction reached from it without reading a digit; it
	// reports false for an assertion, which this automaton does not model.
	var closure func(set []uint32, seen []bool, pc uint32) ([]uint32, bool)
	closure = func(set []uint32, seen []bool, pc uint32) ([]uint32, bool) {
		if seen[pc] {
			return set, true
		}
		seen[pc] = true
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			var ok bool
			if set, ok = closure(set, seen, in.Out); !ok {
				return set, false
			}
			return closure(set, seen, in.Arg)
		case syntax.InstNop, syntax.InstCapture:
			return closure(set, seen, in.Out)
		case syntax.InstEmptyWidth:
			return set, false
		case syntax.InstFail:
			return set, true
		}
		return append(set, pc), true // a rune or the match
	}
	d = &digitDFA{}
	index := map[string]int32{}
	var sets [][]uint32
	// add returns the state of set (sorted), making it when new.
	add := func(set []uint32) int32 {
		slices.Sort(set)
		key := make([]byte, 0, 4*len(set))
		for _, pc := range set {
			key = append(key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
		}
		if s, ok := index[string(key)]; ok {
			return s
		}
		s := int32(len(sets))
		index[string(key)] = s
		sets = append(sets, set)
		accept := false
		for _, pc := range set {
			if prog.Inst[pc].Op == syntax.InstMatch {
				accept = true
			}
		}
		d.accept = append(d.accept, accept)
		d.next = append(d.next, [10]int32{})
		return s
	}
	start, ok := closure(nil, make([]bool, len(prog.Inst)), uint32(prog.Start))
	if !ok {
		return nil, false
	}
	add(start)
	for s := 0; s < len(sets); s++ {
		for digit := range 10 {
			var set []uint32
			seen := make([]bool, len(prog.Inst))
			for _, pc := range sets[s] {
				in := &prog.Inst[pc]
				switch in.Op {
				case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				case syntax.InstRune, syntax.InstRune1:
					if !in.MatchRune('0' + rune(digit)) {
						continue
					}
				default:
					continue // the match
				}
				if set, ok = closure(set, seen, in.Out); !ok {
					return nil, false
				}
			}
			if len(set) == 0 {
				d.next[s][digit] = dead
				continue
			}
			d.next[s][digit] = add(set)
			if len(sets) > maxDFAStates {
				return nil, false
			}
		}
	}
	return d, true
}

// match reports whether the pattern matches s whole; ok is false when s holds a byte that is
// not a digit.
func (d *digitDFA) match(s string) (matched, ok bool) {
	state := int32(0)
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return false, false
		}
		if state != dead {
			state = d.next[state][c]
		}
	}
	return state != dead && d.accept[state], true
}
