package apidocs

import (
	"html"
	"html/template"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// page is what the template shows: the spec turned into display-ready strings, with every piece
// of HTML built here already escaped.
type page struct {
	Title, Version, SpecURL string
	Intro                   template.HTML
	IntroHeadings           []heading
	Servers                 []server
	Auth                    []scheme
	Groups                  []group
	Schemas                 []schema
}

type server struct {
	URL         string
	Description template.HTML
}

type scheme struct {
	ID, Name    string
	Kind        template.HTML
	Description template.HTML
}

type group struct {
	ID, Name    string
	Description template.HTML
	Operations  []operation
}

type operation struct {
	ID, OperationID, Method, Path, Summary string
	Description                            template.HTML
	Auth                                   []authRef
	Parameters                             []field
	Body                                   *body
	Responses                              []response

	tag string // the first tag, which places the operation in a group
}

// authRef is one way to authenticate an operation; an empty Name means none.
type authRef struct{ ID, Name string }

type body struct {
	Required    bool
	Description template.HTML
	Contents    []content
}

type content struct {
	MediaType string
	Type      template.HTML
	Fields    []field
	Examples  []example
}

type example struct{ Name, Summary, JSON string }

type response struct {
	Status, Class string
	Open          bool
	Description   template.HTML
	Headers       []field
	Contents      []content
}

// field is a row of a table of parameters, headers or properties.
type field struct {
	Name, In    string
	Type        template.HTML
	Required    bool
	Constraints []template.HTML
	Description template.HTML
	Example     string
}

type schema struct {
	ID, Name    string
	Type        template.HTML
	Description template.HTML
	Constraints []template.HTML
	Fields      []field
	Example     string
}

// builder turns the spec, loaded with its origins, into a page.
type builder struct {
	doc *openapi3.T
}

func (b builder) page(specURL string) page {
	doc := b.doc
	p := page{Title: doc.Info.Title, Version: doc.Info.Version, SpecURL: specURL}
	p.Intro, p.IntroHeadings = markdown(doc.Info.Description, "", 0)
	for _, s := range doc.Servers {
		p.Servers = append(p.Servers, server{URL: s.URL, Description: inline(s.Description)})
	}
	if doc.Components != nil {
		for _, name := range inFileOrder(doc.Components.SecuritySchemes) {
			if ref := doc.Components.SecuritySchemes[name]; ref != nil && ref.Value != nil {
				p.Auth = append(p.Auth, scheme{ID: "auth-" + slug(name), Name: name, Kind: schemeKind(ref.Value),
					Description: b.text(ref.Value.Description, "")})
			}
		}
		for _, name := range inFileOrder(doc.Components.Schemas) {
			p.Schemas = append(p.Schemas, b.schema(name, doc.Components.Schemas[name]))
		}
	}
	p.Groups = b.groups(b.operations())
	return p
}

// operations lists every operation in the order of the file.
func (b builder) operations() []operation {
	var ops []operation
	for _, path := range inFileOrder(b.doc.Paths.Map()) {
		item := b.doc.Paths.Value(path)
		byMethod := item.Operations()
		for _, method := range inFileOrder(byMethod) {
			ops = append(ops, b.operation(path, method, item, byMethod[method]))
		}
	}
	return ops
}

// groups puts each operation under its first tag, in the order of the spec's tags; the rest
// go last, under "Other".
func (b builder) groups(ops []operation) []group {
	var groups []group
	index := map[string]int{}
	for _, t := range b.doc.Tags {
		index[t.Name] = len(groups)
		groups = append(groups, group{ID: "tag-" + slug(t.Name), Name: t.Name, Description: b.text(t.Description, "")})
	}
	other := group{ID: "tag-other", Name: "Other"}
	for _, op := range ops {
		if i, ok := index[op.tag]; ok {
			groups[i].Operations = append(groups[i].Operations, op)
		} else {
			other.Operations = append(other.Operations, op)
		}
	}
	groups = append(groups, other)
	var out []group
	for _, g := range groups {
		if len(g.Operations) > 0 {
			out = append(out, g)
		}
	}
	return out
}

func (b builder) operation(path, method string, item *openapi3.PathItem, op *openapi3.Operation) operation {
	id := op.OperationID
	if id == "" {
		id = strings.ToLower(method) + "-" + slug(path)
	}
	o := operation{ID: "op-" + id, OperationID: op.OperationID, Method: method, Path: path, Summary: op.Summary,
		Description: b.text(op.Description, "op-"+id+"-")}
	if len(op.Tags) > 0 {
		o.tag = op.Tags[0]
	}

	security := b.doc.Security
	if op.Security != nil {
		security = *op.Security
	}
	for _, req := range security {
		names := slices.Sorted(maps.Keys(req))
		if len(names) == 0 {
			o.Auth = append(o.Auth, authRef{})
		} else {
			o.Auth = append(o.Auth, authRef{ID: "auth-" + slug(names[0]), Name: strings.Join(names, " + ")})
		}
	}
	if len(o.Auth) == 0 {
		o.Auth = []authRef{{}}
	}

	// Path-level parameters apply unless the operation redefines one of the same name and place.
	params := map[string]bool{}
	for _, ref := range op.Parameters {
		if ref != nil && ref.Value != nil {
			params[ref.Value.In+" "+ref.Value.Name] = true
			o.Parameters = append(o.Parameters, b.parameter(ref.Value))
		}
	}
	for _, ref := range item.Parameters {
		if ref != nil && ref.Value != nil && !params[ref.Value.In+" "+ref.Value.Name] {
			o.Parameters = append(o.Parameters, b.parameter(ref.Value))
		}
	}

	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		o.Body = &body{Required: rb.Value.Required, Description: b.text(rb.Value.Description, ""),
			Contents: b.contents(rb.Value.Content)}
	}

	responses := op.Responses.Map()
	for _, status := range inFileOrder(responses) {
		ref := responses[status]
		if ref == nil || ref.Value == nil {
			continue
		}
		r := response{Status: status, Class: statusClass(status), Contents: b.contents(ref.Value.Content)}
		r.Open = r.Class == "ok" || r.Class == "redirect"
		if ref.Value.Description != nil {
			r.Description = b.text(*ref.Value.Description, "")
		}
		for _, name := range inFileOrder(ref.Value.Headers) {
			if h := ref.Value.Headers[name]; h != nil && h.Value != nil {
				f := b.parameter(&h.Value.Parameter)
				f.Name, f.In = name, ""
				r.Headers = append(r.Headers, f)
			}
		}
		o.Responses = append(o.Responses, r)
	}
	return o
}

// parameter is the row of a parameter, or of a header, which OpenAPI describes the same way.
func (b builder) parameter(p *openapi3.Parameter) field {
	f := field{Name: p.Name, In: p.In, Required: p.Required, Type: typeOf(p.Schema), Description: b.text(p.Description, "")}
	if p.Schema != nil && p.Schema.Value != nil {
		f.Constraints = constraints(p.Schema.Value)
		if p.Example == nil && p.Schema.Value.Example != nil {
			f.Example = literal(p.Schema.Value.Example)
		}
	}
	if p.Example != nil {
		f.Example = literal(p.Example)
	}
	return f
}

// contents describes each media type of a body: its schema's fields and its examples.
func (b builder) contents(c openapi3.Content) []content {
	var out []content
	for _, mt := range inFileOrder(c) {
		m := c[mt]
		if m == nil {
			continue
		}
		cv := content{MediaType: mt, Type: typeOf(m.Schema), Fields: b.fields(m.Schema, "", 0)}
		if m.Example != nil {
			cv.Examples = append(cv.Examples, example{Name: "example", JSON: exampleJSON(m.Example, m.Schema)})
		}
		for _, name := range inFileOrder(m.Examples) {
			if ex := m.Examples[name]; ex != nil && ex.Value != nil {
				cv.Examples = append(cv.Examples, example{Name: name, Summary: ex.Value.Summary,
					JSON: exampleJSON(ex.Value.Value, m.Schema)})
			}
		}
		out = append(out, cv)
	}
	return out
}

// text renders a description's Markdown; headings in it sit below the page's own.
func (b builder) text(s, idPrefix string) template.HTML {
	h, _ := markdown(s, idPrefix, 2)
	return h
}

func schemeKind(s *openapi3.SecurityScheme) template.HTML {
	switch s.Type {
	case "apiKey":
		return template.HTML("API key in the " + html.EscapeString(s.In) + " <code>" + html.EscapeString(s.Name) + "</code>")
	case "http":
		name := s.Scheme
		if name != "" {
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		return template.HTML("HTTP <code>Authorization: " + html.EscapeString(name) + " …</code>")
	default:
		return template.HTML(html.EscapeString(s.Type))
	}
}

func statusClass(status string) string {
	switch {
	case strings.HasPrefix(status, "2"):
		return "ok"
	case strings.HasPrefix(status, "3"):
		return "redirect"
	case strings.HasPrefix(status, "1"):
		return "info"
	default:
		return "error"
	}
}
