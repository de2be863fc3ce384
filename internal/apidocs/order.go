package apidocs

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A reader follows the order the spec's authors chose; alphabetical order would scatter it.
// kin-openapi keeps the spec's objects as Go maps, so the order comes from where its loader found
// each entry (Loader.IncludeOrigin). A $ref entry's origin is where it is used, not its target.

// inFileOrder returns the keys of m in the order the spec lists them; keys without an origin
// (there should be none) go last, sorted.
func inFileOrder[V any](m map[string]V) []string {
	at := func(k string) (line, column int) {
		if o := originOf(m[k]); o != nil && o.Key != nil {
			return o.Key.Line, o.Key.Column
		}
		return math.MaxInt, 0
	}
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		la, ca := at(a)
		lb, cb := at(b)
		return cmp.Or(cmp.Compare(la, lb), cmp.Compare(ca, cb), strings.Compare(a, b))
	})
}

// originOf is the origin of the kinds of entries the page lists.
func originOf(v any) *openapi3.Origin {
	switch v := v.(type) {
	case *openapi3.PathItem:
		if v != nil {
			return v.Origin
		}
	case *openapi3.Operation:
		if v != nil {
			return v.Origin
		}
	case *openapi3.ResponseRef:
		if v != nil {
			return v.Origin
		}
	case *openapi3.HeaderRef:
		if v != nil {
			return v.Origin
		}
	case *openapi3.MediaType:
		if v != nil {
			return v.Origin
		}
	case *openapi3.ExampleRef:
		if v != nil {
			return v.Origin
		}
	case *openapi3.SchemaRef:
		if v != nil {
			return v.Origin
		}
	case *openapi3.SecuritySchemeRef:
		if v != nil {
			return v.Origin
		}
	}
	return nil
}

// exampleJSON shows an example as indented JSON. kin-openapi hands its objects over as maps, so an
// object's keys follow its schema's properties, in the order the spec lists them; keys the schema
// does not name follow, sorted.
func exampleJSON(v any, schema *openapi3.SchemaRef) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(inSchemaOrder(v, schema, 0)); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// object is a JSON object that keeps the order of its members.
type object []member

type member struct {
	key   string
	value any
}

func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := compactJSON(m.key)
		if err != nil {
			return nil, err
		}
		v, err := compactJSON(m.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// inSchemaOrder turns the objects in v into objects ordered by schema.
func inSchemaOrder(v any, ref *openapi3.SchemaRef, depth int) any {
	var s *openapi3.Schema
	if ref != nil && depth < 32 {
		s = ref.Value
	}
	switch v := v.(type) {
	case map[string]any:
		var props openapi3.Schemas
		var extra *openapi3.SchemaRef
		if s != nil {
			props, extra = s.Properties, s.AdditionalProperties.Schema
		}
		o := make(object, 0, len(v))
		for _, k := range inFileOrder(props) {
			if val, ok := v[k]; ok {
				o = append(o, member{k, inSchemaOrder(val, props[k], depth+1)})
			}
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if _, named := props[k]; !named {
				o = append(o, member{k, inSchemaOrder(v[k], extra, depth+1)})
			}
		}
		return o
	case []any:
		var items *openapi3.SchemaRef
		if s != nil {
			items = s.Items
		}
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = inSchemaOrder(item, items, depth+1)
		}
		return out
	default:
		return v
	}
}

// compactJSON is v as compact JSON, with <, > and & left as they are: the template escapes the
// page, and an example should read as the client would send it.
func compactJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// literal shows a value as a client writes it: a string bare, anything else as JSON.
func literal(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := compactJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
