package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/lead"
)

// A page opened without a session goes to the login, and the login back to that page: a page
// of the dashboard only, whatever the link or the form says.
func TestLoginReturnsToThePage(t *testing.T) {
	f := start(t)
	l := lead.Lead{ID: lead.NewID(), FirstName: "Péter", LastName: "Kovács", Email: "kovacs.peter@pelda.hu", Source: lead.SourceForm}
	if _, err := f.store.CreateLead(t.Context(), f.a.ID, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	page := "/app/leads/" + l.ID.String() + "?from=mail"

	t.Run("the e-mail's link through the login to the lead", func(t *testing.T) {
		c := f.client(t)
		r := c.get(page)
		if r.status != http.StatusSeeOther || r.location != "/app/login?next="+url.QueryEscape(page) {
			t.Fatalf("anonymous GET %s: %d %s", page, r.status, r.location)
		}
		form := c.get(r.location)
		if !strings.Contains(form.body, `name="next" value="`+strings.ReplaceAll(page, "&", "&amp;")+`"`) {
			t.Fatalf("the login form does not carry the page back:\n%s", form.body)
		}
		r = c.post("/app/login", url.Values{"email": {f.member}, "password": {password}, "next": {page}})
		if r.status != http.StatusSeeOther || r.location != page {
			t.Fatalf("login: %d %s, want %s", r.status, r.location, page)
		}
		if r := c.get(page); r.status != http.StatusOK || !strings.Contains(r.body, "Kovács Péter") {
			t.Fatalf("the lead after the login: %d", r.status)
		}
	})

	t.Run("a wrong password keeps the page to return to", func(t *testing.T) {
		c := f.client(t)
		r := c.post("/app/login", url.Values{"email": {f.owner}, "password": {"rossz jelszó 123"}, "next": {page}})
		if r.status != http.StatusUnauthorized || !strings.Contains(r.body, `name="next"`) {
			t.Fatalf("a wrong password: %d", r.status)
		}
	})

	t.Run("a form sent without a session is not returned to", func(t *testing.T) {
		r := f.client(t).post("/app/leads/"+l.ID.String()+"/status", url.Values{"status": {"won"}})
		if r.status != http.StatusSeeOther || r.location != "/app/login" {
			t.Fatalf("anonymous POST: %d %s", r.status, r.location)
		}
	})

	attacks := []string{
		"//evil.example/app/", "https://evil.example/app/leads", "/\\evil.example/app/", "/app/\\..\\evil",
		"http:/app/leads", "javascript:alert(1)", "/app/login", "/app/logout", "/app/../login", "/app/..",
		"/apps", "app/leads", "/app/\r\nSet-Cookie: x=1", "/app/%2F%2Fevil.example", " /app/leads", "",
	}
	for _, next := range attacks {
		t.Run("next "+next, func(t *testing.T) {
			c := f.client(t)
			r := c.post("/app/login", url.Values{"email": {f.owner}, "password": {password}, "next": {next}})
			if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/") ||
				strings.HasPrefix(r.location, "/app/login") || strings.ContainsAny(r.location, "\\\r\n") {
				t.Fatalf("login with next %q: %d %q", next, r.status, r.location)
			}
			if u, err := url.Parse(r.location); err != nil || u.Host != "" || u.Scheme != "" {
				t.Fatalf("login with next %q went to %q", next, r.location)
			}
			// Logged in, the login page sends on at once, as carefully.
			if r := c.get("/app/login?next=" + url.QueryEscape(next)); r.status != http.StatusSeeOther ||
				!strings.HasPrefix(r.location, "/app/") || strings.HasPrefix(r.location, "//") {
				t.Fatalf("logged in, GET /app/login?next=%q: %d %q", next, r.status, r.location)
			}
		})
	}
}
