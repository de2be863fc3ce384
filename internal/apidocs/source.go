package apidocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// source is the spec's YAML tree, read only for what kin-openapi's maps forget: the order in
// which the spec lists its paths, methods, responses, properties and the keys of its examples.
// A reader follows the order the authors chose; alphabetical order would scatter it.
type source struct{ root *yaml.Node }

func parseSource(spec []byte) (source, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(spec, &doc); err != nil {
		return source{}, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return source{}, errors.New("the spec is empty")
	}
	return source{root: doc.Content[0]}, nil
}

// at finds the node at a JSON pointer ("" is the root), following aliases and local $refs on
// the way; nil when there is none.
func (s source) at(pointer string) *yaml.Node { return s.walk(pointer, 0) }

// walk is at, with depth counting the $refs followed so far so that a cycle ends.
func (s source) walk(pointer string, depth int) *yaml.Node {
	if depth > 16 {
		return nil
	}
	n := s.resolve(s.root, depth)
	if pointer == "" {
		return n
	}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if n = s.resolve(child(n, tok), depth); n == nil {
			return nil
		}
	}
	return n
}

// resolve follows an alias, or a mapping that is a local {$ref: "#/..."}, to what it stands for.
func (s source) resolve(n *yaml.Node, depth int) *yaml.Node {
	if n == nil || depth > 16 {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		return s.resolve(n.Alias, depth+1)
	}
	if n.Kind == yaml.MappingNode {
		if ref := child(n, "$ref"); ref != nil {
			if target, ok := strings.CutPrefix(ref.Value, "#"); ok {
				return s.walk(target, depth+1)
			}
		}
	}
	return n
}

// child is the value under one JSON-pointer token of a mapping or a sequence, unresolved.
func child(n *yaml.Node, tok string) *yaml.Node {
	if n == nil {
		return nil
	}
	tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == tok {
				return n.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}

// keys lists the keys of the mapping at pointer in the order of the file.
func (s source) keys(pointer string) []string {
	n := s.at(pointer)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	keys := make([]string, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
	}
	return keys
}

// json renders the node at pointer as indented JSON with its keys in the order of the file.
func (s source) json(pointer string) (string, bool) {
	n := s.at(pointer)
	if n == nil {
		return "", false
	}
	var b bytes.Buffer
	if err := s.writeJSON(&b, n, "", 0); err != nil {
		return "", false
	}
	return b.String(), true
}

// writeJSON follows aliases but not $refs: inside an example value a "$ref" key is data.
func (s source) writeJSON(b *bytes.Buffer, n *yaml.Node, indent string, depth int) error {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || depth > 64 {
		return errors.New("an alias to nothing, or nested too deep")
	}
	inner := indent + "  "
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{\n")
		for i := 0; i+1 < len(n.Content); i += 2 {
			b.WriteString(inner + literalJSON(n.Content[i].Value) + ": ")
			if err := s.writeJSON(b, n.Content[i+1], inner, depth+1); err != nil {
				return err
			}
			if i+2 < len(n.Content) {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[\n")
		for i, item := range n.Content {
			b.WriteString(inner)
			if err := s.writeJSON(b, item, inner, depth+1); err != nil {
				return err
			}
			if i+1 < len(n.Content) {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return err
		}
		b.WriteString(literalJSON(v))
	default:
		return fmt.Errorf("unexpected YAML node kind %d", n.Kind)
	}
	return nil
}

// literalJSON is v as compact JSON, with <, > and & left as they are: the template escapes the
// page, and an example should read as the client would send it.
func literalJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ordered returns the keys of m, first in the order of the file, then any the file did not
// list (there should be none) sorted.
func ordered[V any](fileOrder []string, m map[string]V) []string {
	out := make([]string, 0, len(m))
	seen := make(map[string]bool, len(m))
	for _, k := range fileOrder {
		if _, ok := m[k]; ok && !seen[k] {
			out = append(out, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// pointer joins JSON-pointer tokens, escaping each.
func pointer(base string, tokens ...string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, t := range tokens {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
