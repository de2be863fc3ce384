package web

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/leadchat/leadchat/internal/insight"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// The lists that the lead page, the leads page and the overview write in Go must read as the
// same page that html/template's contextual escaping makes of the same data. Each writer is
// held to a template written the way html/template would write its list, every text field
// (names, addresses, notes, statuses, sources, history values, user names) set to hostile text:
// markup, quotes that would close an attribute, an attribute of its own, a javascript: URL,
// entities and a broken-off comment. Both outputs are parsed as the browser would (in the
// element the list sits in) and must give the same tree: the same elements, attributes and
// texts, and so no element, attribute or link that the data brought in.

// hostile are texts that would change a page written without escaping.
var hostile = []string{
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(1)>`,
	`' onmouseover='alert(1)`,
	`javascript:alert(1)`,
	`&amp; &lt;b&gt; &#34;`,
	`</td></tr></tbody></table><a href="javascript:alert(1)">x</a>`,
	`<!-- `,
	"Kovács \u00e9s T\u00e1rsa {{.}} `x` =y",
}

// reference are the lists as html/template would write them, with the page's functions.
var reference = template.Must(template.New("").Funcs(funcs).Parse(`
{{define "related"}}{{range .}}<tr data-related="{{.ID}}"><td><a href="/app/leads/{{.ID}}">{{with .DisplayName}}{{.}}{{else}}(név nélkül){{end}}</a></td>
      <td>{{with .Email}}<span class="mono">{{.}}</span>{{end}}{{if and .Email .Phone}}<br>{{end}}{{.Phone}}</td>
      <td>{{source .Source}}</td><td><span class="badge status-{{.Status}}">{{status .Status}}</span></td><td>{{date .CreatedAt}}</td></tr>
{{end}}{{end}}
{{define "transcript"}}{{range .}}<li class="{{.Role}}"><span class="who-said">{{if .Visitor}}Látogató{{else if .AgentName}}{{.AgentName}} (munkatárs){{else}}Asszisztens{{end}} · {{date .At}}</span>
      <p>{{.Text}}</p></li>
{{end}}{{end}}
{{define "notes"}}{{range .}}<li data-note><span class="who-said">{{.Author}} · {{date .At}}</span>
      <p class="note">{{.Text}}</p></li>
{{end}}{{end}}
{{define "timeline"}}{{range .Timeline}}{{if .Note}}<tr data-history-note><td>{{date .At}}</td><td>belső jegyzet</td><td>–</td><td class="note">{{.Note.Text}}</td><td>{{.Note.Author}}</td></tr>
{{else}}<tr><td>{{date .At}}</td><td>{{field .Field}}</td>
      <td>{{if eq .Field "status"}}{{status .Old}}{{else if eq .Field "consent"}}{{consentSummary .Old}}{{else if eq .Field "assignee"}}{{userName $.Names .Old}}{{else}}{{with .Old}}{{.}}{{else}}–{{end}}{{end}}</td>
      <td>{{if eq .Field "status"}}{{status .New}}{{else if eq .Field "consent"}}{{consentSummary .New}}{{else if eq .Field "assignee"}}{{userName $.Names .New}}{{else}}{{with .New}}{{.}}{{else}}–{{end}}{{end}}</td>
      <td>{{origin .Origin}}</td></tr>
{{end}}{{end}}{{end}}
{{define "leads"}}{{range .Leads}}<tr data-lead="{{.ID}}">
      <td><a href="/app/leads/{{.ID}}">{{with .DisplayName}}{{.}}{{else}}(név nélkül){{end}}</a></td>
      <td>{{with .Email}}<span class="mono">{{.}}</span>{{end}}{{if and .Email .Phone}}<br>{{end}}{{.Phone}}</td>
      <td>{{.Service}}</td>
      <td>{{source .Source}}</td>
      <td><span class="badge status-{{.Status}}">{{status .Status}}</span>{{if and .OverLimit (ne .Status "over_limit")}} <span class="badge status-over_limit">kereten felül</span>{{end}}</td>
      <td>{{if ne .AssigneeID.String "00000000-0000-0000-0000-000000000000"}}{{index $.Users .AssigneeID}}{{else}}–{{end}}</td>
      <td>{{date .CreatedAt}}</td>
    </tr>
{{end}}{{end}}
{{define "statuses"}}{{range .Statuses}}<option value="{{.Value}}"{{if eq .Value (print $.Current)}} selected{{end}}>{{.Name}}</option>{{end}}{{end}}
{{define "users"}}{{range .Users}}<option value="{{.ID}}"{{if eq .ID $.Assignee}} selected{{end}}>{{.Email}}{{if eq .ID $.Viewer}} (én){{end}}</option>{{end}}{{end}}
{{define "daily"}}{{$sources := .Sources}}{{range .Days}}{{$day := .}}<tr data-day="{{.Day.Format "2006-01-02"}}"><th scope="row">{{.Day.Format "2006. 01. 02."}}</th>{{range $sources}}<td>{{index $day.BySource .}}</td>{{end}}<td>{{.Total}}</td></tr>
{{end}}{{end}}
`))

// hostileLeads are leads with every text field hostile, one per text, with and without an
// address, a phone, a name and an assignee.
func hostileLeads(users map[uuid.UUID]string) []lead.Stored {
	var ids []uuid.UUID
	for id := range users {
		ids = append(ids, id)
	}
	var out []lead.Stored
	at := time.Date(2026, 11, 27, 14, 5, 0, 0, time.UTC)
	for i, h := range hostile {
		l := lead.Stored{Lead: lead.Lead{ID: uuid.New(), FirstName: h, LastName: hostile[(i+1)%len(hostile)],
			Email: h, Phone: hostile[(i+2)%len(hostile)], Service: h, Source: lead.Source(h)},
			Status: lead.Status(h), OverLimit: i%2 == 0, CreatedAt: at.Add(time.Duration(i) * time.Hour)}
		if i%3 == 0 && len(ids) > 0 {
			l.AssigneeID = ids[i%len(ids)]
		}
		out = append(out, l)
		plain := lead.Stored{Lead: lead.Lead{ID: uuid.New(), Source: lead.SourceForm}, Status: lead.StatusNew, CreatedAt: at}
		switch i % 3 {
		case 0:
			plain.Email = h
		case 1:
			plain.Phone = h
		}
		out = append(out, plain)
	}
	return out
}

func TestWrittenListsParseAsTheTemplatesWould(t *testing.T) {
	t.Parallel()
	names := map[uuid.UUID]string{}
	for _, h := range hostile {
		names[uuid.New()] = h
	}
	var someone uuid.UUID
	for id := range names {
		someone = id
		break
	}
	leads := hostileLeads(names)
	at := time.Date(2026, 11, 27, 14, 5, 0, 0, time.UTC)
	var msgs []lead.Message
	var notes []lead.InternalNote
	var hist []lead.HistoryEntry
	for i, h := range hostile {
		msgs = append(msgs, lead.Message{Visitor: true, Text: h, At: at},
			lead.Message{Text: h, AgentName: hostile[(i+1)%len(hostile)], At: at}, lead.Message{Text: h, At: at})
		notes = append(notes, lead.InternalNote{Author: h, Text: hostile[(i+3)%len(hostile)], At: at.Add(time.Minute)})
		hist = append(hist,
			lead.HistoryEntry{Field: lead.FieldStatus, Old: h, New: string(lead.StatusContacted), Origin: lead.Origin(h), At: at},
			lead.HistoryEntry{Field: lead.FieldConsent, Old: h, New: `{"marketing": true, "text": "` + strings.ReplaceAll(h, `"`, `\"`) + `"}`, Origin: lead.OriginAPI, At: at},
			lead.HistoryEntry{Field: lead.FieldAssignee, Old: h, New: someone.String(), Origin: lead.OriginDashboard, At: at},
			lead.HistoryEntry{Field: lead.Field(h), Old: h, New: "", Origin: lead.OriginAPI, At: at})
	}
	var statuses []named
	var users []user.User
	for i, h := range hostile {
		statuses = append(statuses, named{Value: h, Name: hostile[(i+1)%len(hostile)]})
		users = append(users, user.User{ID: uuid.New(), Email: h})
	}
	statuses = append(statuses, lifecycleNames()...)
	days := []insight.Day{{Day: at, Total: 7, BySource: map[lead.Source]int{lead.SourceChat: 3, lead.Source(hostile[0]): 4}},
		{Day: at.AddDate(0, 0, 1)}}
	sources := append(lead.Sources(), lead.Source(hostile[0]), lead.Source(hostile[1]))
	for _, c := range []struct {
		name, in string // the reference template, and the element the list sits in
		data     any
		written  template.HTML
	}{
		{"related", "tbody", leads, written(func(b pageWriter) { b.relatedRows(leads) })},
		{"transcript", "ol", msgs, written(func(b pageWriter) { b.transcriptItems(msgs) })},
		{"notes", "ol", notes, written(func(b pageWriter) { b.noteItems(notes) })},
		{"timeline", "tbody", struct {
			Timeline []timelineEntry
			Names    map[uuid.UUID]string
		}{timeline(hist, notes), names}, written(func(b pageWriter) { b.timelineRows(timeline(hist, notes), names) })},
		{"leads", "tbody", struct {
			Leads []lead.Stored
			Users map[uuid.UUID]string
		}{leads, names}, leadRows(leads, names)},
		{"statuses", "select", struct {
			Statuses []named
			Current  lead.Status
		}{statuses, lead.Status(hostile[2])}, written(func(b pageWriter) { b.statusOptions(statuses, lead.Status(hostile[2])) })},
		{"users", "select", struct {
			Users            []user.User
			Assignee, Viewer uuid.UUID
		}{users, users[1].ID, users[3].ID}, written(func(b pageWriter) { b.userOptions(users, users[1].ID, users[3].ID) })},
		{"daily", "tbody", struct {
			Days    []insight.Day
			Sources []lead.Source
		}{days, sources}, dailyRows(days, sources)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := reference.ExecuteTemplate(&want, c.name, c.data); err != nil {
				t.Fatal(err)
			}
			got, wantTree := parsed(t, c.in, string(c.written)), parsed(t, c.in, want.String())
			if got != wantTree {
				t.Errorf("written:\n%s\nhtml/template:\n%s", got, wantTree)
			}
			if !strings.Contains(wantTree, "alert(1)") && c.name != "daily" {
				t.Errorf("the hostile texts are not in the list:\n%s", wantTree)
			}
		})
	}
}

// The chart writes each source as a class and in each bar's title: a hostile source stays a
// class's text and a title's text, and adds no element or attribute.
func TestChartKeepsHostileSourcesAsText(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	var sources []lead.Source
	bySource := map[lead.Source]int{}
	for i, h := range hostile {
		sources = append(sources, lead.Source(h))
		bySource[lead.Source(h)] = i + 1
	}
	svg := parsedNodes(t, "div", string(chart([]insight.Day{{Day: at, Total: 36, BySource: bySource}}, sources, 36)))
	var rects, titles int
	var texts []string
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			switch n.Data {
			case "svg", "g":
			case "rect":
				rects++
				if len(n.Attr) != 5 || n.Attr[0].Key != "class" || !strings.HasPrefix(n.Attr[0].Val, "src-") {
					t.Errorf("a bar's attributes: %v", n.Attr)
				}
			case "title":
				titles++
			default:
				t.Errorf("an element %q in the chart", n.Data)
			}
		}
		if n.Type == xhtml.TextNode && n.Parent != nil && n.Parent.Data == "title" {
			texts = append(texts, n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range svg {
		walk(n)
	}
	if rects != len(hostile) || titles != 2 {
		t.Fatalf("%d bars and %d titles, want %d and 2", rects, titles, len(hostile))
	}
	for _, h := range hostile {
		if !strings.Contains(texts[1], h+": ") {
			t.Errorf("the bar's title %q does not hold %q as text", texts[1], h)
		}
	}
}

// written is what write writes.
func written(write func(b pageWriter)) template.HTML {
	b := pageWriter{new(bytes.Buffer)}
	write(b)
	return template.HTML(b.String())
}

// leadContent is the lead page's content for the viewer v, as the page writes it.
func leadContent(d *leadData, v *viewer) string {
	b := pageWriter{new(bytes.Buffer)}
	d.writeContent(b, v)
	return b.String()
}

// parsed is the HTML fragment as a browser parses it inside an element of tag in, written out
// canonically (each attribute and text escaped one way), without the whitespace between
// elements.
func parsed(t *testing.T, in, fragment string) string {
	t.Helper()
	var b strings.Builder
	for _, n := range parsedNodes(t, in, fragment) {
		dropSpace(n)
		if n.Type == xhtml.TextNode && strings.TrimSpace(n.Data) == "" {
			continue
		}
		if err := xhtml.Render(&b, n); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func parsedNodes(t *testing.T, in, fragment string) []*xhtml.Node {
	t.Helper()
	ctx := &xhtml.Node{Type: xhtml.ElementNode, Data: in, DataAtom: atom.Lookup([]byte(in))}
	nodes, err := xhtml.ParseFragment(strings.NewReader(fragment), ctx)
	if err != nil {
		t.Fatal(err)
	}
	return nodes
}

// dropSpace removes the text nodes of only whitespace under n: the writers and the templates
// may lay the rows out differently, which no reader sees.
func dropSpace(n *xhtml.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == xhtml.TextNode && strings.TrimSpace(c.Data) == "" {
			n.RemoveChild(c)
		} else {
			dropSpace(c)
		}
		c = next
	}
}

// htmlWriter.text writes what HTMLEscapeString writes, for texts with each character it
// replaces and for texts without any.
func TestTextIsHTMLEscapeString(t *testing.T) {
	for _, s := range append([]string{"", "Kovács Éva, 120 m²-es ház (3)", "a\x00b", "it's", `"idézet"`, "a&b", "<", ">",
		"vége'"}, hostile...) {
		var b htmlWriter
		b.text(s)
		if got, want := b.String(), template.HTMLEscapeString(s); got != want {
			t.Errorf("text(%q) = %q, want %q", s, got, want)
		}
	}
}

// An id is written as uuid's String writes it, for any id.
func TestWriteIDIsString(t *testing.T) {
	for _, id := range []uuid.UUID{uuid.Nil, uuid.Max, uuid.New(), uuid.New(), uuid.MustParse("0123abcd-ef45-6789-abcd-ef0123456789")} {
		if got := string(written(func(b pageWriter) { b.id(id) })); got != id.String() {
			t.Errorf("id %s written as %q", id, got)
		}
	}
}
