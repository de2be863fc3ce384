package apidocs

import (
	"bytes"
	"html/template"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// The spec's descriptions are CommonMark with GitHub's tables, the dialect the spec's linter and
// OpenAPI tools read; goldmark renders them. Its HTML renderer leaves raw HTML out and drops
// dangerous link targets unless told otherwise (html.WithUnsafe, never set here), so no text in
// the spec reaches the page as markup.
var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// heading is a Markdown heading of a description, kept for the table of contents.
type heading struct {
	Level int
	ID    string
	HTML  template.HTML
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// markdown renders src as HTML. A heading of n hashes becomes <h(n+shift)>, at most <h6>, with an
// id made of idPrefix and its text; the headings are returned too.
func markdown(src, idPrefix string, shift int) (template.HTML, []heading) {
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	var heads []heading
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		h.Level = min(h.Level+shift, 6)
		id := idPrefix + slug(plainText(h, source))
		if id == idPrefix {
			id += "section-" + strconv.Itoa(len(heads)+1)
		}
		h.SetAttributeString("id", id)
		heads = append(heads, heading{Level: h.Level, ID: id, HTML: renderChildren(h, source)})
		return ast.WalkSkipChildren, nil
	})
	var b bytes.Buffer
	if err := md.Renderer().Render(&b, source, doc); err != nil {
		return template.HTML(template.HTMLEscapeString(src)), nil
	}
	return template.HTML(b.String()), heads
}

// inline renders src for a place inside a line of the page: a single paragraph without its <p>.
func inline(src string) template.HTML {
	source := []byte(src)
	doc := md.Parser().Parse(text.NewReader(source))
	if p, ok := doc.FirstChild().(*ast.Paragraph); ok && doc.ChildCount() == 1 {
		return renderChildren(p, source)
	}
	h, _ := markdown(src, "", 0)
	return h
}

// renderChildren renders what is inside n, without n's own tags.
func renderChildren(n ast.Node, source []byte) template.HTML {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if err := md.Renderer().Render(&b, source, c); err != nil {
			return template.HTML(template.HTMLEscapeString(plainText(n, source)))
		}
	}
	return template.HTML(b.String())
}

// plainText is the text inside n without its markup.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(source))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug makes an HTML id of a heading: lower-case letters and digits joined by dashes.
func slug(s string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
}
