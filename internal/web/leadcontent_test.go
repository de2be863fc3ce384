package web

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// The lead page's content written in Go must be the page that its template (testdata/lead.html,
// the page's template before it was written in Go) makes of the same lead: byte for byte for
// an ordinary lead (but for "+", which html/template writes as "&#43;" and the writers as it
// is), and as the same tree for leads whose every text is hostile (writers_test.go), with and
// without each optional part, for an owner and a member.

// referenceLead is the content template, with the page's functions.
var referenceLead = template.Must(template.New("lead.html").Funcs(funcs).ParseFiles("testdata/lead.html"))

// referenceContent is what the template writes for d and v; the lists come from their writers,
// held to their own templates by TestWrittenListsParseAsTheTemplatesWould.
func referenceContent(t *testing.T, d *leadData, v *viewer) string {
	t.Helper()
	type sections struct{ Related, Transcript, Notes, Timeline, StatusOptions, UserOptions template.HTML }
	data := struct {
		*leadData
		Sections sections
	}{d, sections{
		Related:       written(func(b pageWriter) { b.relatedRows(d.Related) }),
		Transcript:    written(func(b pageWriter) { b.transcriptItems(d.Messages) }),
		Notes:         written(func(b pageWriter) { b.noteItems(d.Notes) }),
		Timeline:      written(func(b pageWriter) { b.timelineRows(d.Timeline, d.Names) }),
		StatusOptions: written(func(b pageWriter) { b.statusOptions(lifecycleNames(), d.Lead.Status) }),
		UserOptions:   written(func(b pageWriter) { b.userOptions(d.Users, d.Lead.AssigneeID, v.ID) }),
	}}
	var out bytes.Buffer
	if err := referenceLead.ExecuteTemplate(&out, "content", struct {
		Viewer *viewer
		Data   any
	}{v, data}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// pageLead is a lead as the page shows it, with texts from text (its i-th for the i-th field).
func pageLead(text func(i int) string, v *viewer, withParts bool) *leadData {
	at := time.Date(2026, 11, 27, 14, 5, 0, 0, time.UTC)
	owner, other := v.User, user.User{ID: uuid.New(), Email: text(20)}
	users := []user.User{owner, other}
	names := namesOf(users)
	l := lead.Stored{Lead: lead.Lead{ID: uuid.New(), FirstName: text(0), LastName: text(1), Email: text(2), Phone: text(3),
		PhoneE164: "+36309991234", Service: text(4), Note: text(5), Source: lead.Source(text(6))},
		Status: lead.Status(text(7)), OverLimit: true, AssigneeID: other.ID, CreatedAt: at, UpdatedAt: at.Add(time.Hour)}
	d := &leadData{Lead: l, Users: users, Names: names, NoteMax: 5000}
	if !withParts {
		d.Lead.PhoneE164, d.Lead.AssigneeID, d.Lead.OverLimit = "", uuid.Nil, false
		return d
	}
	consentText, privacy := text(8), text(9)
	d.Lead.Consent = &lead.Consent{Marketing: true, Text: &consentText, PrivacyURL: &privacy, GivenAt: at, Source: lead.SourceChat}
	d.Lead.ReferralData = map[string]string{text(10): text(11), "utm_source": text(12), "a": ""}
	d.Lead.Unanswered = []string{text(13), text(14)}
	d.Related = []lead.Stored{{Lead: lead.Lead{ID: uuid.New(), FirstName: text(0), Email: text(2), Source: lead.SourceForm},
		Status: lead.StatusNew, CreatedAt: at}}
	d.Messages = []lead.Message{{Visitor: true, Text: text(15), At: at}, {Text: text(16), At: at}}
	d.Notes = []lead.InternalNote{{Author: text(17), Text: text(18), At: at}}
	d.History = []lead.HistoryEntry{{Field: lead.FieldStatus, Old: "new", New: "contacted", Origin: lead.OriginDashboard, At: at}}
	d.Timeline = timeline(d.History, d.Notes)
	d.NoteText, d.NoteError = text(19), text(21)
	return d
}

func TestLeadContentIsItsTemplates(t *testing.T) {
	t.Parallel()
	c := company.Company{ID: uuid.New(), Name: "Mérés Kft."}
	owner := &viewer{User: user.User{ID: uuid.New(), Email: "tulaj@meres.hu", Role: user.Owner, CompanyID: c.ID}, Company: c}
	member := &viewer{User: user.User{ID: uuid.New(), Email: "munkatars@meres.hu", Role: user.Member, CompanyID: c.ID}, Company: c}
	ordinary := []string{"Eszter", "Kovács", "visszatero.ugyfel@example.hu", "+36 30 999 1234", "Hőszivattyú",
		"Visszatérő érdeklődő, 3. kérés.", "form", "contacted", "Kérek ajánlatokat e-mailben.", "https://pelda.hu/adatvedelem",
		"gclid", "Cj0KCQ", "google", "Mennyibe kerül?", "Van garancia?", "Jó napot!", "Üdvözlöm!", "tulaj@meres.hu",
		"1. jegyzet: felhívtam.", "Új jegyzet", "kolléga@meres.hu", "A jegyzet túl hosszú."}
	t.Run("an ordinary lead, byte for byte", func(t *testing.T) {
		for _, v := range []*viewer{owner, member} {
			for _, parts := range []bool{true, false} {
				d := pageLead(func(i int) string { return ordinary[i] }, v, parts)
				want := strings.ReplaceAll(referenceContent(t, d, v), "&#43;", "+")
				if got := leadContent(d, v); got != want {
					t.Errorf("%s, parts %v: written:\n%s\nhtml/template:\n%s", v.Role, parts, got, want)
				}
			}
		}
	})
	awkward := append([]string{"", "a b", "ékezet", "100%", "x%zz", "a+b@example.hu?cc=x#y", "mailto:x@y", "HTTPS://pelda.hu",
		"/ut/vonal:x", "javascript:alert(1)", "vbscript:x", "tel:+3612"}, hostile...)
	for i := range awkward {
		text := func(j int) string { return awkward[(i+j)%len(awkward)] }
		for _, v := range []*viewer{owner, member} {
			for _, parts := range []bool{true, false} {
				d := pageLead(text, v, parts)
				got, want := parsed(t, "main", leadContent(d, v)), parsed(t, "main", referenceContent(t, d, v))
				if got != want {
					t.Errorf("texts from %q, %s, parts %v: written:\n%s\nhtml/template:\n%s", awkward[i], v.Role, parts, got, want)
				}
			}
		}
	}
}

// writeURL writes what html/template writes for a URL in an attribute (filterURL first when the
// URL is all of the attribute).
func TestWriteURLIsHTMLTemplates(t *testing.T) {
	ref := template.Must(template.New("").Parse(`<a href="{{.}}"></a><a href="mailto:{{.}}"></a>`))
	var tests []string
	for c := 0; c < 256; c++ {
		tests = append(tests, string(rune(c)), "a"+string([]byte{byte(c)})+"b")
	}
	tests = append(tests, awkwardURLs...)
	tests = append(tests, hostile...)
	for _, s := range tests {
		var want bytes.Buffer
		if err := ref.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		b := pageWriter{new(bytes.Buffer)}
		b.WriteString(`<a href="`)
		b.writeURL(filterURL(s))
		b.WriteString(`"></a><a href="mailto:`)
		b.writeURL(s)
		b.WriteString(`"></a>`)
		if got, want := b.String(), strings.ReplaceAll(want.String(), "&#43;", "+"); got != want {
			t.Errorf("%q: written %s, html/template %s", s, got, want)
		}
	}
}

var awkwardURLs = []string{"", "https://pelda.hu/a b?c=d&e=é#f", "HTTP://x", "Mailto:x@y", "javascript:alert(1)",
	" javascript:x", "java\tscript:x", "/a:b", "a/b:c", "x%2", "%zz%41", "data:text/html,<b>"}
