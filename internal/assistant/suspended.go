package assistant

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// suspendedJoins are the Hungarian words that coordinate a suspended compound with a whole
// one: "fa- és cserjemetszés", "fa- vagy cserjemetszés", "kis-, illetve nagykereskedelem".
var suspendedJoins = wordSet(`es s vagy illetve valamint meg`)

// expandSuspended writes out Hungarian suspended-hyphen coordination, which the orthography
// uses for compounds that share a part: "Fa- és cserjemetszés" is "fametszés és
// cserjemetszés", "be- és kivétel" "bevétel és kivétel", "bútorszétszerelés és
// -összeszerelés" "bútorszétszerelés és bútorösszeszerelés". It returns s with each suspended
// part replaced by its whole compound, and the whole compounds it made.
func expandSuspended(s string) (string, []string) {
	// A suspended part has a hyphen at a word's edge: "fa- ", "fa-,", " -összeszerelés";
	// "e-mail" or "IKEA-s" costs no look.
	if !strings.Contains(s, "- ") && !strings.Contains(s, "-,") && !strings.Contains(s, " -") {
		return s, nil
	}
	type field struct {
		start, end int    // bytes of s, the field's letters and hyphen without punctuation after
		core       string // the letters
		lead, tail bool   // a hyphen before ("-összeszerelés") or after ("fa-")
		comma      bool   // punctuation after the field
	}
	var fs []field
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		j := len(s)
		if n := strings.IndexFunc(s[i:], unicode.IsSpace); n >= 0 {
			j = i + n
		}
		f := field{start: i, end: j}
		w := s[i:j]
		if t := strings.TrimRight(w, ",;"); t != w {
			f.comma, f.end, w = true, i+len(t), t
		}
		f.lead = strings.HasPrefix(w, "-")
		f.tail = strings.HasSuffix(w, "-")
		f.core = strings.Trim(w, "-")
		if strings.IndexFunc(f.core, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			f.core = ""
		}
		fs = append(fs, f)
		i = j
	}
	var b strings.Builder
	var made []string
	last := 0
	replace := func(f field, whole string) {
		b.WriteString(s[last:f.start])
		b.WriteString(whole)
		last = f.end
		made = append(made, whole)
	}
	for k := 0; k < len(fs); k++ {
		f := fs[k]
		if f.core == "" || f.lead == f.tail {
			continue
		}
		if f.tail {
			// "fa-, cserje- és sövénymetszés": the whole compound after the chain lends
			// its last part to each suspended one.
			m := k + 1
			for m < len(fs) && fs[m].core != "" && fs[m].tail && !fs[m].lead {
				m++
			}
			if m+1 >= len(fs) || !suspendedJoins[fold(fs[m].core)] || fs[m].lead || fs[m].tail {
				continue
			}
			w := fs[m+1]
			if w.core == "" || w.lead || w.tail {
				continue
			}
			cut := compoundCut(w.core)
			if cut == 0 {
				k = m
				continue
			}
			for ; k < m; k++ {
				replace(fs[k], fs[k].core+strings.ToLower(w.core[cut:]))
			}
			continue
		}
		// "bútorszétszerelés és -összeszerelés": the whole compound before lends its first
		// part to each suspended one after.
		m := k - 1
		for m >= 0 && (suspendedJoins[fold(fs[m].core)] && !fs[m].lead && !fs[m].tail || fs[m].lead && !fs[m].tail && fs[m].core != "") {
			m--
		}
		if m < 0 || m == k-1 || fs[m].core == "" || fs[m].lead || fs[m].tail || !(fs[m+1].core != "" && suspendedJoins[fold(fs[m+1].core)] || fs[m].comma) {
			continue
		}
		if cut := compoundCut(fs[m].core); cut > 0 {
			replace(f, fs[m].core[:cut]+f.core)
		}
	}
	if made == nil {
		return s, nil
	}
	b.WriteString(s[last:])
	return b.String(), made
}

// compoundCut is the byte where the last part of the compound w begins (0 when w is no
// compound): the shortest first part that is a dictionary word or a verbal prefix, whose rest
// is a word ("cserje|metszés", "ki|vétel", "bútor|szétszerelés").
func compoundCut(w string) int {
	lang := morph.Load()
	f := fold(w)
	if utf8.RuneCountInString(f) != utf8.RuneCountInString(w) {
		return 0
	}
	runes := 0
	for i := range f {
		if runes >= 2 && len(f)-i >= 3 {
			first, rest := f[:i], f[i:]
			if (lang.Known(first) || lang.Prefix(first)) && len(lang.Lemmas(rest)) > 0 {
				return byteAtRune(w, runes)
			}
		}
		runes++
	}
	return 0
}

// byteAtRune is the byte offset of rune n of s.
func byteAtRune(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}
