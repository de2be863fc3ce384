package apidocs

import (
	"html"
	"html/template"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// How a schema reads on the page: the rows of its properties, its type in words, and the
// constraints on its values.

// fields lists the properties of an object schema; inline objects nested in it add their own
// properties as parent.child (parent[].child for arrays of them).
func (b builder) fields(ref *openapi3.SchemaRef, prefix string, depth int) []field {
	if ref == nil || ref.Value == nil || depth > 4 {
		return nil
	}
	s := ref.Value
	var out []field
	for _, name := range inFileOrder(s.Properties) {
		prop := s.Properties[name]
		if prop == nil || prop.Value == nil {
			continue
		}
		f := field{Name: prefix + name, Type: typeOf(prop), Constraints: constraints(prop.Value),
			Description: b.text(prop.Value.Description, "")}
		for _, r := range s.Required {
			f.Required = f.Required || r == name
		}
		if prop.Ref == "" && prop.Value.Example != nil {
			f.Example = literal(prop.Value.Example)
		}
		out = append(out, f)
		if prop.Ref == "" {
			out = append(out, b.fields(prop, prefix+name+".", depth+1)...)
			if items := prop.Value.Items; items != nil && items.Ref == "" {
				out = append(out, b.fields(items, prefix+name+"[].", depth+1)...)
			}
		}
	}
	return out
}

func (b builder) schema(name string, ref *openapi3.SchemaRef) schema {
	s := schema{ID: "schema-" + name, Name: name}
	if ref == nil || ref.Value == nil {
		return s
	}
	s.Type = typeOfValue(ref.Value)
	s.Description = b.text(ref.Value.Description, "")
	s.Constraints = constraints(ref.Value)
	s.Fields = b.fields(ref, "", 0)
	if ref.Value.Example != nil {
		s.Example = exampleJSON(ref.Value.Example, ref)
	}
	return s
}

// typeOf names a schema's type; a named component is a link to its section.
func typeOf(ref *openapi3.SchemaRef) template.HTML {
	if ref == nil || ref.Value == nil {
		return "any"
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		t := `<a href="#schema-` + html.EscapeString(name) + `">` + html.EscapeString(name) + `</a>`
		if ref.Value.Nullable {
			t += " or null"
		}
		return template.HTML(t)
	}
	return typeOfValue(ref.Value)
}

func typeOfValue(s *openapi3.Schema) template.HTML {
	join := func(word string, refs openapi3.SchemaRefs) template.HTML {
		parts := make([]string, len(refs))
		for i, r := range refs {
			parts[i] = string(typeOf(r))
		}
		return template.HTML(word + " " + strings.Join(parts, ", "))
	}
	switch {
	case len(s.OneOf) > 0:
		return join("one of", s.OneOf)
	case len(s.AnyOf) > 0:
		return join("any of", s.AnyOf)
	case len(s.AllOf) > 0:
		return join("all of", s.AllOf)
	}
	var t string
	switch {
	case s.Type.IsEmpty():
		t = "any"
	case s.Type.Is("array"):
		t = "array of " + string(typeOf(s.Items))
	case s.Type.Is("object") && len(s.Properties) == 0 && s.AdditionalProperties.Schema != nil:
		t = "map of " + string(typeOf(s.AdditionalProperties.Schema))
	default:
		t = html.EscapeString(strings.Join(s.Type.Slice(), " or "))
	}
	if s.Format != "" {
		t += " (" + html.EscapeString(s.Format) + ")"
	}
	if s.Nullable && !s.Type.Includes("null") {
		t += " or null"
	}
	return template.HTML(t)
}

// constraints lists what a value must satisfy beyond its type.
func constraints(s *openapi3.Schema) []template.HTML {
	var out []template.HTML
	add := func(label string, v any) {
		out = append(out, template.HTML(html.EscapeString(label)+" <code>"+html.EscapeString(literal(v))+"</code>"))
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = "<code>" + html.EscapeString(literal(v)) + "</code>"
		}
		out = append(out, template.HTML("one of "+strings.Join(vals, ", ")))
	}
	if s.Default != nil {
		add("default", s.Default)
	}
	if s.MinLength > 0 {
		add("min length", s.MinLength)
	}
	if s.MaxLength != nil {
		add("max length", *s.MaxLength)
	}
	if s.Pattern != "" {
		add("pattern", s.Pattern)
	}
	if s.Min != nil {
		add(bound("minimum", "above", s.ExclusiveMin), *s.Min)
	}
	if s.Max != nil {
		add(bound("maximum", "below", s.ExclusiveMax), *s.Max)
	}
	if s.MinItems > 0 {
		add("min items", s.MinItems)
	}
	if s.MaxItems != nil {
		add("max items", *s.MaxItems)
	}
	if s.UniqueItems {
		out = append(out, "unique items")
	}
	if s.MinProps > 0 {
		add("min keys", s.MinProps)
	}
	if s.MaxProps != nil {
		add("max keys", *s.MaxProps)
	}
	if s.ReadOnly {
		out = append(out, "read-only")
	}
	if s.WriteOnly {
		out = append(out, "write-only")
	}
	if s.Deprecated {
		out = append(out, "deprecated")
	}
	return out
}

// bound names a minimum or maximum, which OpenAPI 3.0 can make exclusive.
func bound(inclusive, exclusive string, b openapi3.ExclusiveBound) string {
	if b.Bool != nil && *b.Bool {
		return exclusive
	}
	return inclusive
}
