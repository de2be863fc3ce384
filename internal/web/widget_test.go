package web_test

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/leadchat/leadchat/internal/widget"
)

// Saving the widget page as it is shown keeps the language that is set, each of auto, magyar
// and angol: the page offers all three and selects the stored one.
func TestWidgetPageKeepsLanguage(t *testing.T) {
	t.Parallel()
	f := start(t)
	c := f.client(t)
	c.login(f.owner)
	for _, step := range []struct{ name, lang string }{
		{"auto kept", widget.LanguageAuto}, {"hu kept", "hu"}, {"en kept", "en"}, {"auto kept after en", widget.LanguageAuto},
	} {
		lang := step.lang
		t.Run(step.name, func(t *testing.T) {
			s, err := f.store.WidgetSettings(t.Context(), f.a.ID)
			if err != nil {
				t.Fatal(err)
			}
			s.Language = lang
			if err := f.store.SetWidgetSettings(t.Context(), f.a.ID, s); err != nil {
				t.Fatal(err)
			}
			page := c.get("/app/widget")
			if page.status != http.StatusOK {
				t.Fatalf("GET the widget page: %d", page.status)
			}
			values := submitted(t, page.body, "/app/widget")
			if got := values["language"]; !slices.Equal(got, []string{lang}) {
				t.Fatalf("the page submits language %q, want %q", got, lang)
			}
			if r := c.post("/app/widget", values); r.status != http.StatusSeeOther {
				t.Fatalf("saving the page unchanged: %d", r.status)
			}
			if s, err := f.store.WidgetSettings(t.Context(), f.a.ID); err != nil || s.Language != lang {
				t.Errorf("stored language after saving %q, %v; want %q", s.Language, err, lang)
			}
		})
	}
	// The page offers each language the settings allow, and no other.
	var offered []string
	doc, err := xhtml.Parse(strings.NewReader(c.get("/app/widget").body))
	if err != nil {
		t.Fatal(err)
	}
	for n := range doc.Descendants() {
		if n.Type == xhtml.ElementNode && n.Data == "option" && n.Parent != nil && attr(n.Parent, "name") == "language" {
			offered = append(offered, attr(n, "value"))
		}
	}
	if want := []string{widget.LanguageAuto, "hu", "en"}; !slices.Equal(offered, want) {
		t.Errorf("languages offered %q, want %q", offered, want)
	}
}

// submitted is what a browser sends when the form posting to action is submitted untouched:
// each named input's value (checkboxes only when checked), each textarea's text, and each
// select's selected option, else its first.
func submitted(t *testing.T, body, action string) url.Values {
	t.Helper()
	doc, err := xhtml.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var form *xhtml.Node
	for n := range doc.Descendants() {
		if n.Type == xhtml.ElementNode && n.Data == "form" && attr(n, "action") == action {
			form = n
			break
		}
	}
	if form == nil {
		t.Fatalf("no form posts to %s", action)
	}
	has := func(n *xhtml.Node, key string) bool {
		return slices.ContainsFunc(n.Attr, func(a xhtml.Attribute) bool { return a.Key == key })
	}
	values := url.Values{}
	for n := range form.Descendants() {
		name := attr(n, "name")
		if n.Type != xhtml.ElementNode || name == "" {
			continue
		}
		switch n.Data {
		case "input":
			switch attr(n, "type") {
			case "checkbox", "radio":
				if has(n, "checked") {
					values.Add(name, cmp.Or(attr(n, "value"), "on"))
				}
			case "submit", "button":
			default:
				values.Add(name, attr(n, "value"))
			}
		case "textarea":
			var text strings.Builder
			for c := range n.Descendants() {
				if c.Type == xhtml.TextNode {
					text.WriteString(c.Data)
				}
			}
			values.Add(name, text.String())
		case "select":
			var first, selected *xhtml.Node
			for o := range n.Descendants() {
				if o.Type == xhtml.ElementNode && o.Data == "option" {
					if first == nil {
						first = o
					}
					if selected == nil && has(o, "selected") {
						selected = o
					}
				}
			}
			if selected == nil {
				selected = first
			}
			if selected != nil {
				values.Add(name, attr(selected, "value"))
			}
		}
	}
	return values
}
