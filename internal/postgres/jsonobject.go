package postgres

import "unicode/utf8"

// stringObject reads an object of strings as PostgreSQL writes a jsonb ({"k": "v", "k2": "v2"},
// that spacing, no escapes), which is how a lead's referral data comes, into a map; ok is false
// for any other text, which the caller leaves to json/v2. json/v2's decoding of these small
// objects was a visible part of a list page's server CPU (a third of a page's leads carry
// one); FuzzStringObject holds the loop here to it. The keys and values are substrings of one
// copy of b (b is the driver's buffer): a string each was a tenth of a list page's allocations.
func stringObject(b []byte) (m map[string]string, ok bool) {
	if len(b) < 2 || b[0] != '{' || !utf8.Valid(b) {
		return nil, false
	}
	if len(b) == 2 && b[1] == '}' {
		return map[string]string{}, true
	}
	m = make(map[string]string, 2)
	text := string(b)
	for i := 1; ; {
		k, j, ok := plainString(text, i)
		if !ok || j+2 > len(b) || b[j] != ':' || b[j+1] != ' ' {
			return nil, false
		}
		v, j, ok := plainString(text, j+2)
		if _, dup := m[k]; !ok || dup {
			return nil, false
		}
		m[k] = v
		switch {
		case j+1 == len(b) && b[j] == '}':
			return m, true
		case j+2 < len(b) && b[j] == ',' && b[j+1] == ' ':
			i = j + 2
		default:
			return nil, false
		}
	}
}

// plainString reads the JSON string that starts at b[i], a substring of b, and where it ends;
// ok is false when there is none there, or it holds an escape or a control character.
func plainString(b string, i int) (s string, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return "", 0, false
		}
	}
	return "", 0, false
}
