package web

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// The lead page's content is written here, whole, rather than by a template: after its lists
// were written in Go (leadpage.go), html/template's execution of the rest (some 60 actions, each
// a reflective call of its escaper) was still the largest part of the page's server CPU, and
// every list was built apart and then copied into the page. The layout around it stays a
// template. Texts are escaped as the lists' are; URLs as html/template escapes them in an
// attribute (writeURL). A test holds the content to the template it was (testdata).

// leadContentSize is about the length of a lead page's content, so that a page buffer new to
// the pool is grown once rather than doubled on the way: the fixed text and each list's items.
func leadContentSize(d *leadData) int {
	return 5<<10 + 350*len(d.Related) + 250*len(d.Messages) + 250*len(d.Notes) + 200*len(d.Timeline)
}

// writeContent writes the lead page's content for the viewer v into b.
func (d *leadData) writeContent(b pageWriter, v *viewer) {
	b.Grow(leadContentSize(d))
	l := &d.Lead
	p := &l.Lead
	b.WriteString("\n\n<p><a href=\"/app/leads\">← Vissza az érdeklődőkhöz</a></p>\n<h1>")
	b.displayName(p, "Név nélküli érdeklődő")
	b.WriteString("</h1>\n<div class=\"leadgrid\">\n<section class=\"card\" aria-labelledby=\"fields-title\">\n" +
		"  <h2 id=\"fields-title\">Adatok</h2>\n  <dl class=\"fields\">\n    <dt>Családnév</dt><dd>")
	b.textOr(p.LastName, "–")
	b.WriteString("</dd>\n    <dt>Utónév</dt><dd>")
	b.textOr(p.FirstName, "–")
	b.WriteString("</dd>\n    <dt>E-mail</dt><dd>")
	if p.Email != "" {
		b.WriteString(`<a class="mono" href="mailto:`)
		b.writeURL(p.Email)
		b.WriteString(`">`)
		b.text(p.Email)
		b.WriteString("</a>")
	} else {
		b.WriteString("–")
	}
	b.WriteString("</dd>\n    <dt>Telefon</dt><dd>")
	switch tel := telURL(p.PhoneE164); {
	case p.Phone == "":
		b.WriteString("–")
	case tel != "":
		b.WriteString(`<a href="`)
		b.writeURL(string(tel))
		b.WriteString(`">`)
		b.text(p.Phone)
		b.WriteString("</a>")
	default:
		b.text(p.Phone)
	}
	if p.PhoneE164 != "" {
		b.WriteString(` <span class="hint">(`)
		b.text(p.PhoneE164)
		b.WriteString(")</span>")
	}
	b.WriteString("</dd>\n    <dt>Szolgáltatás</dt><dd>")
	b.textOr(p.Service, "–")
	b.WriteString("</dd>\n    <dt>Megjegyzés</dt><dd class=\"note\">")
	b.textOr(p.Note, "–")
	b.WriteString("</dd>\n    ")
	if len(p.Unanswered) > 0 {
		b.WriteString("<dt>Megválaszolatlan kérdések</dt><dd><p class=\"hint\">A csevegő nem tudott rájuk válaszolni; kollégára várnak.</p>\n" +
			"      <ul class=\"unanswered\">")
		for _, q := range p.Unanswered {
			b.WriteString("<li>")
			b.text(q)
			b.WriteString("</li>")
		}
		b.WriteString("</ul></dd>")
	}
	b.WriteString("\n    <dt>Forrás</dt><dd>")
	b.text(p.Source.Name())
	b.WriteString("</dd>\n    <dt>Állapot</dt><dd><span class=\"badge status-")
	b.text(string(l.Status))
	b.WriteString(`">`)
	b.text(l.Status.Name())
	b.WriteString("</span>")
	if l.OverLimit && l.Status != lead.StatusOverLimit {
		b.WriteString(` <span class="badge status-over_limit">kereten felül érkezett</span>`)
	}
	b.WriteString("</dd>\n    <dt>Felelős</dt><dd data-assignee>")
	b.textOr(d.Names[l.AssigneeID], "senki")
	b.WriteString("</dd>\n    <dt>Érkezett</dt><dd>")
	b.date(l.CreatedAt)
	b.WriteString("</dd>\n    <dt>Módosítva</dt><dd>")
	b.date(l.UpdatedAt)
	b.WriteString("</dd>\n    <dt>Hozzájárulás</dt><dd>")
	if c := p.Consent; c != nil {
		b.WriteString("\n      <span data-consent=\"")
		b.WriteString(strconv.FormatBool(c.Marketing))
		if c.Marketing {
			b.WriteString("\">Marketinghez hozzájárult</span>")
		} else {
			b.WriteString("\">Marketinghez nem járult hozzá</span>")
		}
		b.WriteString("\n      <span class=\"hint\">(")
		b.date(c.GivenAt)
		b.WriteString(", ")
		b.text(c.Source.Name())
		b.WriteString(")</span>\n      ")
		if c.Text != nil {
			b.WriteString("<br>A látott szöveg: „")
			b.text(*c.Text)
			b.WriteString("”")
		}
		b.WriteString("\n      ")
		if c.PrivacyURL != nil {
			b.WriteString(`<br>Tájékoztató: <a class="mono" href="`)
			b.writeURL(filterURL(*c.PrivacyURL))
			b.WriteString(`" rel="noopener noreferrer">`)
			b.text(*c.PrivacyURL)
			b.WriteString("</a>")
		}
		b.WriteString("\n    ")
	} else {
		b.WriteString("nincs rögzítve")
	}
	id := p.ID.String()
	b.WriteString("</dd>\n  </dl>\n</section>\n<section class=\"card\" aria-labelledby=\"status-title\">\n" +
		"  <h2 id=\"status-title\">Állapot módosítása</h2>\n  <form method=\"post\" action=\"/app/leads/")
	b.WriteString(id) // a UUID's text needs no escaping, in a URL or anywhere
	b.WriteString("/status\">\n    <label for=\"new-status\">Új állapot</label>\n    <select id=\"new-status\" name=\"status\">\n    ")
	b.statusOptions(lifecycleNames(), l.Status)
	b.WriteString("\n    </select>\n    <button type=\"submit\" class=\"primary\">Mentés</button>\n  </form>\n</section>\n" +
		"<section class=\"card\" aria-labelledby=\"assignee-title\">\n  <h2 id=\"assignee-title\">Felelős</h2>\n" +
		"  <form method=\"post\" action=\"/app/leads/")
	b.WriteString(id)
	b.WriteString("/assignee\">\n    <label for=\"assignee\">Kihez kerüljön?</label>\n    <select id=\"assignee\" name=\"assignee\">\n" +
		"    <option value=\"\">senki</option>\n    ")
	b.userOptions(d.Users, l.AssigneeID, v.ID)
	b.WriteString("\n    </select>\n    <button type=\"submit\" class=\"primary\">Kiosztás</button>\n  </form>\n</section>\n" +
		"<section class=\"card\" aria-labelledby=\"ref-title\">\n  <h2 id=\"ref-title\">Hivatkozási adatok</h2>\n  ")
	if len(p.ReferralData) > 0 {
		b.WriteString("\n  <dl class=\"fields\">\n  ")
		for _, k := range slices.Sorted(maps.Keys(p.ReferralData)) {
			b.WriteString(`<dt class="mono">`)
			b.text(k)
			b.WriteString(`</dt><dd class="mono">`)
			b.text(p.ReferralData[k])
			b.WriteString("</dd>")
		}
		b.WriteString("\n  </dl>\n  ")
	} else {
		b.WriteString("<p>Nincs hivatkozási adat.</p>")
	}
	b.WriteString("\n</section>\n</div>\n<section class=\"card\" aria-labelledby=\"related-title\">\n" +
		"  <h2 id=\"related-title\">Ugyanettől a személytől</h2>\n  ")
	if len(d.Related) > 0 {
		b.WriteString("\n  <p class=\"hint\">Az érdeklődő további megkeresései (azonos e-mail-cím vagy telefonszám), a legújabb elöl.</p>\n" +
			"  <div class=\"tablewrap\">\n  <table>\n    <thead><tr><th scope=\"col\">Név</th><th scope=\"col\">Elérhetőség</th>" +
			"<th scope=\"col\">Forrás</th><th scope=\"col\">Állapot</th><th scope=\"col\">Érkezett</th></tr></thead>\n    <tbody>\n    ")
		b.relatedRows(d.Related)
		b.WriteString("\n    </tbody>\n  </table>\n  </div>\n  ")
	} else {
		b.WriteString("<p>Ettől a személytől nincs más érdeklődés.</p>")
	}
	b.WriteString("\n</section>\n<section class=\"card\" aria-labelledby=\"chat-title\">\n  <h2 id=\"chat-title\">Beszélgetés</h2>\n  ")
	if len(d.Messages) > 0 {
		b.WriteString("\n  <ol class=\"transcript\">\n  ")
		b.transcriptItems(d.Messages)
		b.WriteString("\n  </ol>\n  ")
	} else {
		b.WriteString("<p>Ez az érdeklődő nem csevegésből érkezett, vagy nincs mentett üzenete.</p>")
	}
	b.WriteString("\n</section>\n<section class=\"card\" aria-labelledby=\"notes-title\">\n  <h2 id=\"notes-title\">Belső jegyzetek</h2>\n" +
		"  <p class=\"hint\">Csak a cég munkatársai látják; az érdeklődő és a webhookok nem kapják meg.</p>\n  ")
	if len(d.Notes) > 0 {
		b.WriteString("\n  <ol class=\"notes\">\n  ")
		b.noteItems(d.Notes)
		b.WriteString("\n  </ol>\n  ")
	} else {
		b.WriteString("<p>Még nincs jegyzet.</p>")
	}
	b.WriteString("\n  ")
	if d.NoteError != "" {
		b.WriteString(`<p class="error" role="alert" id="note-error">`)
		b.text(d.NoteError)
		b.WriteString("</p>")
	}
	b.WriteString("\n  <form method=\"post\" action=\"/app/leads/")
	b.WriteString(id)
	b.WriteString("/notes\">\n    <label for=\"note\">Új jegyzet</label>\n    <textarea id=\"note\" name=\"note\" rows=\"3\" required maxlength=\"")
	b.WriteString(strconv.Itoa(d.NoteMax))
	b.WriteString(`"`)
	if d.NoteError != "" {
		b.WriteString(` aria-invalid="true" aria-describedby="note-error"`)
	}
	b.WriteString(">")
	b.text(d.NoteText)
	b.WriteString("</textarea>\n    <button type=\"submit\" class=\"primary\">Jegyzet mentése</button>\n  </form>\n</section>\n" +
		"<section class=\"card\" aria-labelledby=\"history-title\">\n  <h2 id=\"history-title\">Előzmények</h2>\n  ")
	if len(d.Timeline) > 0 {
		b.WriteString("\n  <div class=\"tablewrap\">\n  <table>\n    <thead><tr><th scope=\"col\">Mikor</th><th scope=\"col\">Mező</th>" +
			"<th scope=\"col\">Régi érték</th><th scope=\"col\">Új érték</th><th scope=\"col\">Honnan</th></tr></thead>\n    <tbody>\n    ")
		b.timelineRows(d.Timeline, d.Names)
		b.WriteString("\n    </tbody>\n  </table>\n  </div>\n  ")
	} else {
		b.WriteString("<p>A beérkezése óta nem változott.</p>")
	}
	b.WriteString("\n</section>\n")
	if v.Role.May(user.Settings) {
		b.WriteString("\n<section class=\"card\" aria-labelledby=\"erase-title\">\n  <h2 id=\"erase-title\">Törlés az érintett kérésére</h2>\n" +
			"  <p>Ha az érdeklődő kéri adatai törlését, itt véglegesen törölheti az érdeklődőt, a beszélgetését és az előzményeit. " +
			"A webhookok <span class=\"mono\">lead.erased</span> eseményt kapnak, személyes adat nélkül. A törlés nem vonható vissza.</p>\n" +
			"  <form method=\"post\" action=\"/app/leads/")
		b.WriteString(id)
		b.WriteString("/erase\">\n    <label class=\"check\"><input type=\"checkbox\" name=\"confirm\" required> " +
			"Értem, hogy az érdeklődő minden adata véglegesen törlődik</label>\n    <button type=\"submit\" class=\"danger\">Végleges törlés</button>\n" +
			"  </form>\n</section>\n")
	}
	b.WriteString("\n")
}

// displayName writes l's DisplayName, or orElse when it is empty, without making its string:
// the lead page shows 21 names.
func (b pageWriter) displayName(l *lead.Lead, orElse string) {
	first, second := l.DisplayNameParts()
	b.textOr(first, orElse)
	if second != "" {
		b.WriteString(" ")
		b.text(second)
	}
}

// textOr writes s as text, or else (plain text) when s is empty.
func (b pageWriter) textOr(s, orElse string) {
	if s == "" {
		b.WriteString(orElse)
		return
	}
	b.text(s)
}

// writeURL writes s as html/template writes a URL, or the part of one after its scheme, in a
// quoted attribute: every byte but the letters, digits and the characters RFC 3986 reserves or
// leaves unreserved percent-encoded (a % that starts a %XX is kept), then escaped for the
// attribute.
func (b pageWriter) writeURL(s string) {
	var out strings.Builder
	written := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case strings.IndexByte("!#$&*+,/:;=?@[]-._~", c) >= 0:
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			continue
		default:
			out.WriteString(s[written:i])
			out.WriteByte('%')
			out.WriteString(strconv.FormatUint(uint64(c)>>4, 16))
			out.WriteString(strconv.FormatUint(uint64(c)&15, 16))
			written = i + 1
		}
	}
	if written == 0 {
		b.text(s)
		return
	}
	out.WriteString(s[written:])
	b.text(out.String())
}

// filterURL is s when it is a link a page may hold (http, https, mailto, or no scheme),
// else html/template's harmless stand-in.
func filterURL(s string) string {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") &&
		!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
		return "#ZgotmplZ"
	}
	return s
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
