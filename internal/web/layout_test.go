package web

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"github.com/google/uuid"
	xhtml "golang.org/x/net/html"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/user"
)

// The layout written in Go must be the page that its template (testdata/layout.html, the
// layout's template before it was written in Go) makes around the same page: byte for byte for
// ordinary texts (but for "+", which html/template writes as "&#43;"), and as the same tree for
// hostile ones, on every page (the menu marks it), for no viewer, an owner and a member, with
// one company and with several, with and without a flash, and with and without the page's own
// head.
func TestLayoutIsItsTemplate(t *testing.T) {
	t.Parallel()
	const content = `{{define "content"}}<p>Tartalom: {{.Data}}</p>{{end}}`
	const head = `{{define "head"}}<script src="/app/static/x.js" defer></script>{{end}}`
	pageOf := func(withHead bool) *template.Template {
		src := content
		if withHead {
			src += head
		}
		return template.Must(template.New("page").Funcs(funcs).Parse(src))
	}
	referenceOf := func(withHead bool) *template.Template {
		ref := template.Must(template.New("layout.html").Funcs(funcs).ParseFiles("testdata/layout.html"))
		src := content
		if withHead {
			src += head
		}
		return template.Must(ref.Parse(src))
	}
	viewersOf := func(text func(i int) string) []*viewer {
		c := company.Company{ID: uuid.New(), Name: text(0)}
		other := user.Membership{CompanyID: uuid.New(), CompanyName: text(1), Role: user.Member}
		mine := user.Membership{CompanyID: c.ID, CompanyName: text(0), Role: user.Owner}
		owner := &viewer{User: user.User{ID: uuid.New(), Email: text(2), Role: user.Owner, CompanyID: c.ID}, Company: c,
			Companies: []user.Membership{mine}}
		member := &viewer{User: user.User{ID: uuid.New(), Email: text(3), Role: user.Member, CompanyID: c.ID}, Company: c,
			Companies: []user.Membership{other, mine}}
		both := *owner
		both.Companies = []user.Membership{mine, other}
		return []*viewer{nil, owner, member, &both}
	}
	ordinary := []string{"Mérés Kft.", "Másik Bt.", "tulaj@meres.hu", "munkatars+1@meres.hu", "Érdeklődő", "A jegyzet mentve."}
	texts := []func(i int) string{func(i int) string { return ordinary[i] }}
	for i := range hostile {
		texts = append(texts, func(j int) string { return hostile[(i+j)%len(hostile)] })
	}
	for n, text := range texts {
		for _, withHead := range []bool{false, true} {
			page, ref := pageOf(withHead), referenceOf(withHead)
			for _, v := range viewersOf(text) {
				for name := range titles {
					for _, flash := range []string{"", text(5)} {
						vw := view{Page: name, Title: text(4), Viewer: v, Flash: flash, Data: text(1)}
						var got, want bytes.Buffer
						if err := writePage(&got, page, &vw); err != nil {
							t.Fatal(err)
						}
						if err := ref.Execute(&want, vw); err != nil {
							t.Fatal(err)
						}
						if n == 0 {
							if w := strings.ReplaceAll(want.String(), "&#43;", "+"); got.String() != w {
								t.Fatalf("page %s, viewer %v, head %v, flash %q: written:\n%s\nhtml/template:\n%s", name, v != nil, withHead, flash, got.String(), w)
							}
							continue
						}
						if g, w := parsedDocument(t, got.String()), parsedDocument(t, want.String()); g != w {
							t.Fatalf("page %s, viewer %v, head %v, flash %q: written:\n%s\nhtml/template:\n%s", name, v != nil, withHead, flash, g, w)
						}
					}
				}
			}
		}
	}
}

// parsedDocument is the page as a browser parses it, written out canonically, without the
// whitespace between elements.
func parsedDocument(t *testing.T, page string) string {
	t.Helper()
	doc, err := xhtml.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	dropSpace(doc)
	var b strings.Builder
	if err := xhtml.Render(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
