package httpapi

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
)

// bodyCheck is a request body's schema compiled for the common case: it accepts a body only
// when kin-openapi would accept it too, and says nothing about the rest, which kin-openapi
// then validates, so every error a client sees is still kin-openapi's. A body the schema
// accepts costs one decoding and a walk of the value, instead of kin-openapi's copy of the
// body, its decoder and its general visitor (a tenth of a lead create's CPU in profiles).
// TestBodyCheckAcceptsOnlyWhatKinAccepts holds the two to each other on generated bodies.
//
// Only the keywords the contract's hot bodies use are compiled: type (one of string, boolean,
// object), nullable, enum of strings, minLength, maxLength, format, properties, required,
// additionalProperties, minProperties and maxProperties. A schema with any other keyword
// (a pattern, a composition, readOnly...) compiles to a check that accepts nothing of its
// values, which sends a body holding one to kin-openapi.
type bodyCheck struct {
	typ      openapi3.Types
	nullable bool
	// never is set for a schema with a keyword not compiled: no value is known good.
	never bool

	enum           []string
	minLen, maxLen uint64
	hasMaxLen      bool
	format         string

	props              map[string]*bodyCheck
	required           []string
	noAdditional       bool
	additional         *bodyCheck // nil: any value
	minProps, maxProps uint64
	hasMaxProps        bool
}

// compileBodyCheck compiles s, nil when s is nil.
func compileBodyCheck(s *openapi3.Schema) *bodyCheck {
	if s == nil {
		return nil
	}
	c := &bodyCheck{nullable: s.Nullable}
	if s.Type == nil || len(*s.Type) != 1 || s.Pattern != "" || s.ReadOnly || s.WriteOnly ||
		len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.Not != nil || s.Items != nil ||
		s.Discriminator != nil || s.Always != nil || s.Min != nil || s.Max != nil || s.MultipleOf != nil ||
		s.MinItems != 0 || s.MaxItems != nil || s.UniqueItems || s.Const != nil || len(s.PatternProperties) > 0 ||
		s.PropertyNames != nil || s.If != nil || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 {
		c.never = true
		return c
	}
	c.typ = *s.Type
	switch {
	case c.typ.Is(openapi3.TypeString):
		for _, v := range s.Enum {
			str, ok := v.(string)
			if !ok {
				c.never = true
				return c
			}
			c.enum = append(c.enum, str)
		}
		c.minLen, c.format = s.MinLength, s.Format
		if s.MaxLength != nil {
			c.maxLen, c.hasMaxLen = *s.MaxLength, true
		}
	case c.typ.Is(openapi3.TypeBoolean):
		if len(s.Enum) > 0 {
			c.never = true
		}
	case c.typ.Is(openapi3.TypeObject):
		if len(s.Enum) > 0 {
			c.never = true
			return c
		}
		c.props = map[string]*bodyCheck{}
		for name, ref := range s.Properties {
			if ref == nil || ref.Value == nil {
				c.never = true
				return c
			}
			c.props[name] = compileBodyCheck(ref.Value)
		}
		c.required = s.Required
		c.noAdditional = s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has
		if ref := s.AdditionalProperties.Schema; ref != nil {
			if ref.Value == nil {
				c.never = true
				return c
			}
			c.additional = compileBodyCheck(ref.Value)
		}
		c.minProps = s.MinProps
		if s.MaxProps != nil {
			c.maxProps, c.hasMaxProps = *s.MaxProps, true
		}
	default:
		c.never = true
	}
	return c
}

// accepts reports whether v, a value decoded by encoding/json, certainly meets the schema.
func (c *bodyCheck) accepts(v any) bool {
	if c.never {
		return false
	}
	switch v := v.(type) {
	case nil:
		return c.nullable
	case string:
		if !c.typ.Is(openapi3.TypeString) {
			return false
		}
		if len(c.enum) > 0 && !slices.Contains(c.enum, v) {
			return false
		}
		if c.minLen != 0 || c.hasMaxLen {
			// kin-openapi's length: a rune each, two for a surrogate (which decoded JSON never holds).
			n := uint64(0)
			for _, r := range v {
				if utf16.IsSurrogate(r) {
					n += 2
				} else {
					n++
				}
			}
			if n < c.minLen || c.hasMaxLen && n > c.maxLen {
				return false
			}
		}
		if c.format != "" {
			// kin-openapi checks a format only when one is defined for it, in its own table.
			if f, ok := openapi3.SchemaStringFormats[c.format]; ok && f.Validate(v) != nil {
				return false
			}
		}
		return true
	case bool:
		return c.typ.Is(openapi3.TypeBoolean)
	case map[string]any:
		if !c.typ.Is(openapi3.TypeObject) {
			return false
		}
		n := uint64(len(v))
		if n < c.minProps || c.hasMaxProps && n > c.maxProps {
			return false
		}
		for k, pv := range v {
			if p, ok := c.props[k]; ok {
				if !p.accepts(pv) {
					return false
				}
				continue
			}
			if c.noAdditional || c.additional != nil && !c.additional.accepts(pv) {
				return false
			}
		}
		for _, k := range c.required {
			if _, ok := v[k]; !ok {
				return false
			}
		}
		return true
	}
	return false // numbers and arrays: no compiled schema takes them
}

// fastBody decodes body and returns it when check accepts it, for the strict handler to bind
// as it binds kin-openapi's validated value; ok is false when kin-openapi must judge the body.
// plain is body as plainObject decoded it (readBody did), nil when it is not a plain object.
// Numbers decode as float64, not kin-openapi's json.Number: no compiled schema accepts a
// number, so one can only sit in a property nobody binds.
func fastBody(check *bodyCheck, body []byte, plain map[string]any) (value any, ok bool) {
	if check == nil {
		return nil, false
	}
	if plain != nil {
		value = plain
	} else {
		var v any // only here: a value Unmarshal decodes into is on the heap
		if err := json.Unmarshal(body, &v); err != nil || v == nil {
			return nil, false
		}
		value = v
	}
	if !check.accepts(value) {
		return nil, false
	}
	return value, true
}

// plainObject decodes body as json.Unmarshal decodes it into a map[string]any, when body is an
// object of the plain kind a lead or an event is sent as: its values strings, booleans, null
// and objects of the same, its strings valid UTF-8 without an escape. ok is false for anything
// else (a number, an array, an escape, a document that is not JSON), which json.Unmarshal then
// decodes: this takes only what it decodes exactly so, and it costs a fraction of
// encoding/json's reflection and its second pass over the document. The body is copied once,
// and every name and string value is a part of that copy, not an allocation of its own.
func plainObject(body []byte) (map[string]any, bool) {
	doc := string(body)
	v, i, ok := plainValue(doc, skipSpace(doc, 0), 0)
	if !ok || skipSpace(doc, i) != len(doc) {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// plainValue decodes the plain value at doc[i:], and returns the index after it.
func plainValue(doc string, i, depth int) (any, int, bool) {
	if i >= len(doc) {
		return nil, i, false
	}
	switch doc[i] {
	case '"':
		s, j, ok := plainString(doc, i)
		if !ok {
			return nil, j, false
		}
		return s, j, true
	case 't':
		return true, i + 4, strings.HasPrefix(doc[i:], "true")
	case 'f':
		return false, i + 5, strings.HasPrefix(doc[i:], "false")
	case 'n':
		return nil, i + 4, strings.HasPrefix(doc[i:], "null")
	case '{':
		if depth >= maxJSONDepth {
			return nil, i, false
		}
		m := map[string]any{}
		i = skipSpace(doc, i+1)
		if i < len(doc) && doc[i] == '}' {
			return m, i + 1, true
		}
		for {
			k, j, ok := plainString(doc, i)
			if !ok {
				return nil, j, false
			}
			j = skipSpace(doc, j)
			if j >= len(doc) || doc[j] != ':' {
				return nil, j, false
			}
			v, j, ok := plainValue(doc, skipSpace(doc, j+1), depth+1)
			if !ok {
				return nil, j, false
			}
			m[k] = v // a repeated name keeps its last value, as in encoding/json
			i = skipSpace(doc, j)
			if i >= len(doc) {
				return nil, i, false
			}
			switch doc[i] {
			case ',':
				i = skipSpace(doc, i+1)
			case '}':
				return m, i + 1, true
			default:
				return nil, i, false
			}
		}
	}
	return nil, i, false
}

// plainString decodes the string at doc[i:] when it holds no escape, no control character
// and only valid UTF-8.
func plainString(doc string, i int) (string, int, bool) {
	if i >= len(doc) || doc[i] != '"' {
		return "", i, false
	}
	ascii := true
	for j := i + 1; j < len(doc); j++ {
		switch c := doc[j]; {
		case c == '"':
			if !ascii && !utf8.ValidString(doc[i+1:j]) {
				return "", j, false
			}
			return doc[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return "", j, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", len(doc), false
}

// skipSpace returns the index of the first byte at or after i that is not JSON whitespace.
func skipSpace(doc string, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
		i++
	}
	return i
}

// validatedBody is the request body with its validated value, which the generated strict
// handler binds instead of decoding the body again (as with kin-openapi's KeepValidatedValue).
type validatedBody struct {
	io.ReadCloser
	value any
}

// ValidatedValue returns the value the body was validated as.
func (b validatedBody) ValidatedValue() any { return b.value }

// paramCheck is a query or header parameter compiled as bodyCheck compiles a body: it accepts
// a request's parameter only when kin-openapi would accept it too. Only a string schema or an
// integer one (intCheck) with the default style is compiled, and only an absent optional
// parameter or exactly one non-empty value its check accepts is known good (a schema with a
// keyword not compiled accepts no value, so a request that sends one goes to kin-openapi).
type paramCheck struct {
	name     string
	header   bool
	required bool
	check    *bodyCheck // a string schema's; nil for an integer's
	integer  *intCheck
}

// accepts reports whether value, one non-empty value of the parameter, is certainly valid.
func (p *paramCheck) accepts(value string) bool {
	if p.integer != nil {
		return p.integer.accepts(value)
	}
	return p.check.accepts(value)
}

// intCheck is an integer parameter's schema with no keyword but its bounds (and a format that
// names the integer's size). kin-openapi reads such a value with strconv.ParseInt, which takes
// a sign, leading zeros and up to 19 digits, then checks the bounds; the compiled check takes
// less: 1 to 15 ASCII digits without a leading zero (exact as kin-openapi's float64 bounds)
// within the bounds. Anything else, a negative number among it, goes to kin-openapi.
type intCheck struct{ min, max int64 }

// compileIntCheck compiles s when it is an integer schema of that shape; ok is false otherwise.
func compileIntCheck(s *openapi3.Schema) (c *intCheck, ok bool) {
	if s.Type == nil || len(*s.Type) != 1 || !s.Type.Is(openapi3.TypeInteger) {
		return nil, false
	}
	c = &intCheck{min: math.MinInt64, max: math.MaxInt64}
	switch s.Format {
	case "", "int64":
	case "int32":
		c.min, c.max = math.MinInt32, math.MaxInt32
	default:
		return nil, false
	}
	// Every keyword but these leaves the parameter to kin-openapi: the schema without them
	// must be the empty one.
	rest := *s
	rest.Type, rest.Format, rest.Min, rest.Max = nil, "", nil, nil
	rest.Title, rest.Description, rest.Default, rest.Example, rest.Extensions, rest.Origin, rest.Deprecated = "", "", nil, nil, nil, nil, false
	if !reflect.DeepEqual(rest, openapi3.Schema{}) {
		return nil, false
	}
	// A bound is exact as an integer only up to 1e15 (a float64); it narrows the format's.
	for _, b := range []*float64{s.Min, s.Max} {
		if b != nil && (*b != math.Trunc(*b) || math.Abs(*b) > 1e15) {
			return nil, false
		}
	}
	if s.Min != nil {
		c.min = max(c.min, int64(*s.Min))
	}
	if s.Max != nil {
		c.max = min(c.max, int64(*s.Max))
	}
	return c, true
}

// accepts reports whether value is 1 to 15 digits without a leading zero, within the bounds.
func (c *intCheck) accepts(value string) bool {
	if len(value) == 0 || len(value) > 15 || value[0] == '0' && len(value) > 1 {
		return false
	}
	n := int64(0)
	for i := 0; i < len(value); i++ {
		d := value[i] - '0'
		if d > 9 {
			return false
		}
		n = n*10 + int64(d)
	}
	return c.min <= n && n <= c.max
}

// compileParamChecks compiles the parameters of an operation (its path item's among them);
// ok is false when one of them is not compiled, which leaves the operation to kin-openapi.
func compileParamChecks(item *openapi3.PathItem, op *openapi3.Operation) (checks []paramCheck, ok bool) {
	var params []*openapi3.Parameter
	for _, ref := range item.Parameters {
		if ref.Value != nil && op.Parameters.GetByInAndName(ref.Value.In, ref.Value.Name) == nil {
			params = append(params, ref.Value)
		}
	}
	for _, ref := range op.Parameters {
		params = append(params, ref.Value)
	}
	for _, p := range params {
		if p == nil || p.Content != nil || p.Schema == nil || p.Schema.Value == nil || p.Style != "" || p.Explode != nil ||
			p.AllowEmptyValue || p.In != openapi3.ParameterInQuery && p.In != openapi3.ParameterInHeader {
			return nil, false
		}
		pc := paramCheck{name: p.Name, header: p.In == openapi3.ParameterInHeader, required: p.Required}
		if ic, ok := compileIntCheck(p.Schema.Value); ok {
			pc.integer = ic
		} else {
			c := compileBodyCheck(p.Schema.Value)
			if !c.never && !c.typ.Is(openapi3.TypeString) {
				return nil, false
			}
			pc.check = c
		}
		checks = append(checks, pc)
	}
	return checks, true
}

// paramsAccepted reports whether every parameter of r is certainly valid; query is r's parsed
// query, nil when nobody parsed it: then a plain query (plainQuery) is read in place, which
// spares url.ParseQuery's map and slices, and any other is parsed here.
func paramsAccepted(checks []paramCheck, r *http.Request, query url.Values) bool {
	raw := ""
	if query == nil && r.URL.RawQuery != "" {
		raw = r.URL.RawQuery
		if !plainQuery(raw) {
			query = r.URL.Query()
		}
	}
	for _, p := range checks {
		var value string
		n := 0
		switch {
		case p.header:
			values := r.Header.Values(p.name)
			if n = len(values); n == 1 {
				value = values[0]
			}
		case query != nil:
			values := query[p.name]
			if n = len(values); n == 1 {
				value = values[0]
			}
		default:
			value, n = rawValue(raw, p.name)
		}
		switch {
		case n == 0 && !p.required:
		case n != 1 || value == "" || !p.accepts(value):
			return false
		}
	}
	return true
}

// plainQuery reports whether raw holds only bytes url.ParseQuery keeps as they are: no escape
// (%), no + (a space), no ; (which makes ParseQuery drop the pair).
func plainQuery(raw string) bool {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-' || c == '_' || c == '.' || c == '~' || c == ':' || c == '=' || c == '&':
		default:
			return false
		}
	}
	return true
}

// rawValue is the value of name in a plain query, as url.ParseQuery reads it (pairs split at
// &, empty ones skipped, a pair's name before its first =), and how many values name has; the
// value is the last one's, which matters only when n is 1.
func rawValue(raw, name string) (value string, n int) {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		if k, v, _ := strings.Cut(pair, "="); k == name {
			value = v
			n++
		}
	}
	return value, n
}
