package web

import (
	"bytes"
	"html/template"

	"github.com/leadchat/leadchat/internal/user"
)

// The layout around every page (head, menu, the viewer's company and address, the flash) is
// written here, and only each page's own "head" and "content" by its template: the layout's
// template was a good part of what html/template still cost a lead page once the page's own
// content was written in Go (a reflective call per action, a dozen comparisons for the menu).
// A test holds it to the template it was (testdata/layout.html) for every page and viewer.

// writtenContent is a page's data that writes the page's content itself, in place of its
// template's "content", for the viewer.
type writtenContent interface{ writeContent(b pageWriter, v *viewer) }

// writePage writes the page t holds in the layout, for vw; its content is its data's own
// (writtenContent) when the data writes it.
func writePage(buf *bytes.Buffer, t *template.Template, vw *view) error {
	buf.WriteString("<!doctype html>\n<html lang=\"hu\">\n<head>\n<meta charset=\"utf-8\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	writeText(buf, vw.Title)
	buf.WriteString(" – leadchat</title>\n<link rel=\"stylesheet\" href=\"/app/static/app.css\">\n")
	if t.Lookup("head") != nil {
		if err := t.ExecuteTemplate(buf, "head", vw); err != nil {
			return err
		}
	}
	buf.WriteString("\n</head>\n<body class=\"page-")
	writeText(buf, vw.Page)
	buf.WriteString("\">\n")
	if v := vw.Viewer; v != nil {
		writeHeader(buf, vw.Page, v)
	}
	buf.WriteString("\n<main id=\"tartalom\" class=\"")
	if vw.Viewer != nil {
		buf.WriteString("app")
	} else {
		buf.WriteString("narrow")
	}
	buf.WriteString("\">\n")
	if vw.Flash != "" {
		buf.WriteString(`<p class="notice" role="status">`)
		writeText(buf, vw.Flash)
		buf.WriteString("</p>")
	}
	buf.WriteString("\n")
	if c, ok := vw.Data.(writtenContent); ok {
		c.writeContent(pageWriter{buf}, vw.Viewer)
	} else if err := t.ExecuteTemplate(buf, "content", vw); err != nil {
		return err
	}
	buf.WriteString("\n</main>\n</body>\n</html>\n")
	return nil
}

// menuEntry is an entry of the main menu: its path, the pages it is current on, its label.
type menuEntry struct {
	path  string
	pages []string
	label string
}

// The main menu's entries: everyone's, then the settings' (owners'), then the team's.
var (
	menuLeads = []menuEntry{{"/app/", []string{"overview"}, "Áttekintés"}, {"/app/leads", []string{"leads"}, "Érdeklődők"},
		{"/app/conversations", []string{"conversations"}, "Beszélgetések"}}
	menuSettings = []menuEntry{{"/app/embed", []string{"embed"}, "Beágyazás"}, {"/app/widget", []string{"widget"}, "Csevegőablak"},
		{"/app/assistant", []string{"assistant"}, "Asszisztens"},
		{"/app/notifications", []string{"notifications", "deliveries"}, "Értesítések"}, {"/app/usage", []string{"usage"}, "Felhasználás"}}
	menuTeam = []menuEntry{{"/app/team", []string{"team"}, "Csapat"}}
)

// writeMenu writes the entries, page's marked current.
func writeMenu(buf *bytes.Buffer, page string, entries []menuEntry) {
	for _, m := range entries {
		buf.WriteString(`      <li><a href="`)
		buf.WriteString(m.path)
		buf.WriteString(`"`)
		for _, p := range m.pages {
			if p == page {
				buf.WriteString(` aria-current="page"`)
				break
			}
		}
		buf.WriteString(">")
		buf.WriteString(m.label)
		buf.WriteString("</a></li>\n")
	}
}

// writeHeader writes a logged-in viewer's header: the skip link, the menu of what their role
// reaches (page's entry marked current), the company (a switch when they have more than one),
// their address and role, and the logout.
func writeHeader(buf *bytes.Buffer, page string, v *viewer) {
	buf.WriteString("\n<a class=\"skip\" href=\"#tartalom\">Ugrás a tartalomra</a>\n<header class=\"top\">\n" +
		"  <div class=\"brand\"><span class=\"logo\" aria-hidden=\"true\">lc</span> <span>leadchat</span></div>\n" +
		"  <nav aria-label=\"Fő menü\">\n    <ul>\n")
	writeMenu(buf, page, menuLeads)
	buf.WriteString("      ")
	if v.Role.May(user.Settings) {
		buf.WriteString("\n")
		writeMenu(buf, page, menuSettings)
		buf.WriteString("      ")
	}
	buf.WriteString("\n      ")
	if v.Role.May(user.Team) {
		buf.WriteString("\n")
		writeMenu(buf, page, menuTeam)
		buf.WriteString("      ")
	}
	buf.WriteString("\n")
	buf.WriteString("    </ul>\n  </nav>\n  <div class=\"who\">\n    ")
	if len(v.Companies) > 1 {
		buf.WriteString("\n    <form method=\"post\" action=\"/app/company\" class=\"switch\">\n" +
			"      <label for=\"ceg-valto\" class=\"sr\">Cég</label>\n      <select id=\"ceg-valto\" name=\"company\">\n        ")
		for _, c := range v.Companies {
			buf.WriteString(`<option value="`)
			buf.WriteString(c.CompanyID.String())
			buf.WriteString(`"`)
			if c.CompanyID == v.Company.ID {
				buf.WriteString(" selected")
			}
			buf.WriteString(">")
			writeText(buf, c.CompanyName)
			buf.WriteString("</option>")
		}
		buf.WriteString("\n      </select>\n      <button type=\"submit\" class=\"link\">Váltás</button>\n    </form>\n    ")
	} else {
		buf.WriteString("\n    <span class=\"company\" title=\"")
		writeText(buf, v.User.Email)
		buf.WriteString(`">`)
		writeText(buf, v.Company.Name)
		buf.WriteString("</span>\n    ")
	}
	buf.WriteString("\n    <span class=\"email\">")
	writeText(buf, v.User.Email)
	if v.User.Role == user.Owner {
		buf.WriteString(" · tulajdonos</span>")
	} else {
		buf.WriteString(" · munkatárs</span>")
	}
	buf.WriteString("\n    <form method=\"post\" action=\"/app/logout\"><button type=\"submit\" class=\"link\">Kilépés</button></form>\n" +
		"  </div>\n</header>\n")
}
