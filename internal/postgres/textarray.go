package postgres

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// The lead page's lists (its transcript, history and notes) come as one-dimensional arrays in
// PostgreSQL's text form, parsed here. lib/pq's StringArray made a string of every element;
// here an array is one copy of its text, and its elements substrings of that copy. A lead's own
// texts come as columns (leadColumns), though they cost a string each: as one text[] a row,
// PostgreSQL's building and writing of the array took more CPU than the strings saved.

// textArray is a one-dimensional text[] column (NULL reads as empty), reused from row to row.
type textArray []string

// Scan parses the array; its elements stay valid after the next Scan, which makes a new copy.
func (a *textArray) Scan(src any) error {
	switch src := src.(type) {
	case nil:
		*a = (*a)[:0]
		return nil
	case []byte:
		v, err := parseTextArray((*a)[:0], string(src))
		*a = v
		return err
	case string:
		v, err := parseTextArray((*a)[:0], src)
		*a = v
		return err
	}
	return fmt.Errorf("a text array from %T", src)
}

// parseTextArray appends to dst the elements of the one-dimensional text array s as PostgreSQL's
// array_out writes it: {a,"b c",NULL,"d\"e"}. An element is quoted when it is empty, is NULL
// in any case, or holds a quote, a backslash, a brace, a comma or white space, and then only a
// quote and a backslash are escaped, with a backslash; an unquoted NULL is the null value,
// which reads as "", as a NULL column read into sql.NullString's String does. The elements are
// substrings of s, but for those with an escape.
func parseTextArray(dst []string, s string) ([]string, error) {
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return dst, fmt.Errorf("not a one-dimensional array: %.40q", s)
	}
	body := s[1 : len(s)-1]
	if body == "" {
		return dst, nil
	}
	if n := arrayElements(body); cap(dst)-len(dst) < n { // one allocation, not append's doublings
		dst = append(make([]string, 0, len(dst)+n), dst...)
	}
	for i := 0; ; {
		var elem string
		if body[i] == '"' {
			j := quoteEnd(body[i+1:])
			if j < 0 {
				return dst, fmt.Errorf("an unterminated quote in an array: %.40q", s)
			}
			j += i + 1
			elem, i = body[i+1:j], j+1
			if strings.IndexByte(elem, '\\') >= 0 {
				elem = unescapeArrayElement(elem)
			}
		} else {
			// Unquoted: up to the next comma, and none of what only a quoted element holds
			// (a brace starts a nested array), in one pass: strings.ContainsAny, which builds
			// its set at every call, took most of the parsing's time.
			j := i
			for ; j < len(body) && body[j] != ','; j++ {
				if c := body[j]; c == '"' || c == '\\' || c == '{' || c == '}' {
					return dst, fmt.Errorf("not a one-dimensional text array: %.40q", s)
				}
			}
			if j == i {
				return dst, fmt.Errorf("an empty element in an array: %.40q", s)
			}
			elem, i = body[i:j], j
			if elem == "NULL" {
				elem = ""
			}
		}
		dst = append(dst, elem)
		switch {
		case i == len(body):
			return dst, nil
		case body[i] != ',':
			return dst, fmt.Errorf("no comma after an element of an array: %.40q", s)
		}
		i++
		if i == len(body) {
			return dst, fmt.Errorf("an array ends in a comma: %.40q", s)
		}
	}
}

// arrayElements counts the elements of a one-dimensional array's text between its braces: its
// commas outside quoted elements, plus one. Only a size for parseTextArray's slice: a body that is
// not an array's gets some count, and parseTextArray's error. A page's arrays were some 90
// allocations a page grown by append (a 50-element array took seven), and are one each. It
// jumps from quote to quote and counts commas with strings.Count: a loop over every byte cost
// more than the parse.
func arrayElements(body string) int {
	n := 1
	for {
		q := strings.IndexByte(body, '"')
		if q < 0 {
			return n + strings.Count(body, ",")
		}
		n += strings.Count(body[:q], ",")
		e := quoteEnd(body[q+1:])
		if e < 0 {
			return n
		}
		body = body[q+1+e+1:]
	}
}

// quoteEnd returns the index in s, a quoted element's text after its opening quote, of the
// quote that ends it: the first quote after an even run of backslashes (each backslash escapes
// the character after it); -1 if there is none. It jumps from quote to quote (IndexByte):
// a loop over every byte of the notes' texts was most of their parse.
func quoteEnd(s string) int {
	for i := 0; ; {
		e := strings.IndexByte(s[i:], '"')
		if e < 0 {
			return -1
		}
		e += i
		k := e
		for k > i && s[k-1] == '\\' {
			k--
		}
		if (e-k)%2 == 0 {
			return e
		}
		i = e + 1
	}
}

// unescapeArrayElement drops the backslash before each escaped character of a quoted element.
func unescapeArrayElement(e string) string {
	var b strings.Builder
	b.Grow(len(e))
	for i := 0; i < len(e); i++ {
		if e[i] == '\\' && i+1 < len(e) {
			i++
		}
		b.WriteByte(e[i])
	}
	return b.String()
}

// timeArray is a one-dimensional timestamptz[] as array_send writes it (NULL reads as empty),
// each time in microseconds since 1970: PostgreSQL copies each time's eight bytes where the
// text of an int8 array of microseconds took extract's numeric arithmetic, three operations a
// time, and the server parses no digits.
type timeArray []int64

func (a *timeArray) Scan(src any) error {
	if src == nil {
		*a = (*a)[:0]
		return nil
	}
	b, ok := src.([]byte)
	if !ok {
		return fmt.Errorf("a timestamptz array from %T", src)
	}
	// The header: dimensions, whether any element is NULL, the elements' type; then each
	// dimension's length and lower bound; then each element's length and bytes.
	const timestamptzOID = 1184
	if len(b) < 12 {
		return fmt.Errorf("a timestamptz array of %d bytes", len(b))
	}
	dims, nulls, typ := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:]), binary.BigEndian.Uint32(b[8:])
	if dims == 0 { // an empty array
		*a = (*a)[:0]
		return nil
	}
	if dims != 1 || nulls != 0 || typ != timestamptzOID || len(b) < 20 {
		return fmt.Errorf("not a one-dimensional timestamptz array without NULLs (%d, %d, %d)", dims, nulls, typ)
	}
	n, rest := int(binary.BigEndian.Uint32(b[12:])), b[20:]
	if len(rest) != n*12 {
		return fmt.Errorf("a timestamptz array of %d elements in %d bytes", n, len(rest))
	}
	v := (*a)[:0]
	if cap(v) < n { // one allocation, not append's doublings
		v = make([]int64, 0, n)
	}
	for i := range n {
		e := rest[i*12:]
		if binary.BigEndian.Uint32(e) != 8 {
			return fmt.Errorf("a timestamptz of %d bytes", binary.BigEndian.Uint32(e))
		}
		v = append(v, sentMicros(e[4:12]))
	}
	*a = v
	return nil
}

// boolArray is a one-dimensional bool[] column (NULL reads as empty).
type boolArray []bool

func (a *boolArray) Scan(src any) error {
	return scanArray((*[]bool)(a), src, "a bool", func(e []byte) (bool, error) {
		switch string(e) {
		case "t":
			return true, nil
		case "f":
			return false, nil
		}
		return false, fmt.Errorf("%q in a bool array", e)
	})
}

// scanArray reads into *a, reused, the one-dimensional array src (NULL reads as empty) of a
// type whose elements are never quoted (numbers, booleans) and never NULL, each parsed by
// parse; kind names the type in an error.
func scanArray[T any](a *[]T, src any, kind string, parse func([]byte) (T, error)) error {
	if src == nil {
		*a = (*a)[:0]
		return nil
	}
	b, ok := src.([]byte)
	if !ok {
		return fmt.Errorf("%s array from %T", kind, src)
	}
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return fmt.Errorf("not a one-dimensional array: %.40q", b)
	}
	v := (*a)[:0]
	if len(b) > 2 {
		for e := range bytes.SplitSeq(b[1:len(b)-1], []byte{','}) {
			x, err := parse(e)
			if err != nil {
				return err
			}
			v = append(v, x)
		}
	}
	*a = v
	return nil
}
