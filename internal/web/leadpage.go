package web

import (
	"bytes"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
	"github.com/leadchat/leadchat/internal/user"
)

// The lead page's lists (the same person's other leads, the transcript, the notes and the
// timeline) are written here rather than by the template, for the reason leadRows gives: with
// 20 related leads and 50 notes, which the timeline shows again, the template's ranges took
// more than half of the page's time. Every text is escaped with html/template's own escaper.

// htmlWriter builds a fragment of a page, escaping what it is told is text.
type htmlWriter struct{ strings.Builder }

// text writes s escaped as HTMLEscapeString does (writeText).
func (b *htmlWriter) text(s string) { writeText(b, s) }

// id writes a UUID's usual text (hex digits and hyphens, which need no escaping) without
// making a string of it.
func (b pageWriter) id(id uuid.UUID) {
	var buf [36]byte
	b.Write(leadjson.AppendUUID(buf[:0], id))
}

// date writes formatDate's text of t (appendDate).
func (b *htmlWriter) date(t time.Time) {
	var buf [len(dateLayout) + 8]byte
	b.Write(appendDate(buf[:0], t))
}

func (b *htmlWriter) html() template.HTML { return template.HTML(b.String()) } // every text escaped

// pageWriter writes a page's content, escaping what it is told is text, straight into the
// page's buffer (the layout's, which render keeps for the next page): a lead page's content
// built apart, some 45 KB, and then copied into the page was a third of what the page
// allocated.
type pageWriter struct{ *bytes.Buffer }

// text writes s escaped as HTMLEscapeString does (writeText).
func (b pageWriter) text(s string) { writeText(b.Buffer, s) }

// date writes formatDate's text of t (appendDate).
func (b pageWriter) date(t time.Time) {
	var buf [len(dateLayout) + 8]byte
	b.Write(appendDate(buf[:0], t))
}

// writeText writes s to w escaped as HTMLEscapeString does. A text without any of the
// characters it replaces (most of a page's) is written as it is, found by a loop over its
// bytes: HTMLEscapeString's own check (strings.ContainsAny, which builds its set of characters
// at every call) was a good part of the lead page's server CPU.
func writeText(w io.StringWriter, s string) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"', '&', '<', '>', 0:
			w.WriteString(template.HTMLEscapeString(s))
			return
		}
	}
	w.WriteString(s)
}

// appendDate appends formatDate's text of t, without a string of its own: a lead page shows
// some 150 times. The text needs no escaping (dateLayout).
func appendDate(dst []byte, t time.Time) []byte { return t.In(budapest).AppendFormat(dst, dateLayout) }

// relatedRows writes the related leads' table rows.
func (b pageWriter) relatedRows(leads []lead.Stored) {
	for i := range leads {
		l := &leads[i]
		b.WriteString(`<tr data-related="`)
		b.id(l.ID)
		b.WriteString(`"><td><a href="/app/leads/`)
		b.id(l.ID)
		b.WriteString(`">`)
		b.displayName(&l.Lead, "(név nélkül)")
		b.WriteString("</a></td>\n      <td>")
		if l.Email != "" {
			b.WriteString(`<span class="mono">`)
			b.text(l.Email)
			b.WriteString("</span>")
			if l.Phone != "" {
				b.WriteString("<br>")
			}
		}
		b.text(l.Phone)
		b.WriteString("</td>\n      <td>")
		b.text(l.Source.Name())
		b.WriteString(`</td><td><span class="badge status-`)
		b.text(string(l.Status))
		b.WriteString(`">`)
		b.text(l.Status.Name())
		b.WriteString("</span></td><td>")
		b.date(l.CreatedAt)
		b.WriteString("</td></tr>\n    ")
	}
}

// statusOptions writes the status form's options, the lead's status selected.
func (b pageWriter) statusOptions(statuses []named, current lead.Status) {
	for _, st := range statuses {
		b.WriteString(`<option value="`)
		b.text(st.Value)
		b.WriteString(`"`)
		if st.Value == string(current) {
			b.WriteString(" selected")
		}
		b.WriteString(">")
		b.text(st.Name)
		b.WriteString("</option>")
	}
}

// userOptions writes the assignee form's options for the company's users, the lead's
// assignee selected and the viewer marked.
func (b pageWriter) userOptions(users []user.User, assignee, viewerID uuid.UUID) {
	for i := range users {
		u := &users[i]
		b.WriteString(`<option value="`)
		b.id(u.ID)
		b.WriteString(`"`)
		if u.ID == assignee {
			b.WriteString(" selected")
		}
		b.WriteString(">")
		b.text(u.Email)
		if u.ID == viewerID {
			b.WriteString(" (én)")
		}
		b.WriteString("</option>")
	}
}

// transcriptItems writes the chat's messages as the transcript's list items.
func (b pageWriter) transcriptItems(msgs []lead.Message) {
	for _, m := range msgs {
		b.WriteString(`<li class="`)
		b.text(m.Role())
		b.WriteString(`"><span class="who-said">`)
		switch {
		case m.Visitor:
			b.WriteString("Látogató")
		case m.AgentName != "":
			b.text(m.AgentName)
			b.WriteString(" (munkatárs)")
		default:
			b.WriteString("Asszisztens")
		}
		b.WriteString(" · ")
		b.date(m.At)
		b.WriteString("</span>\n      <p>")
		b.text(m.Text)
		b.WriteString("</p></li>\n  ")
	}
}

// noteItems writes the internal notes as list items.
func (b pageWriter) noteItems(notes []lead.InternalNote) {
	for _, n := range notes {
		b.WriteString(`<li data-note><span class="who-said">`)
		b.text(n.Author)
		b.WriteString(" · ")
		b.date(n.At)
		b.WriteString("</span>\n      <p class=\"note\">")
		b.text(n.Text)
		b.WriteString("</p></li>\n  ")
	}
}

// timelineRows writes the history's table rows, a note's among the changes.
func (b pageWriter) timelineRows(entries []timelineEntry, names map[uuid.UUID]string) {
	for _, e := range entries {
		if e.Note != nil {
			b.WriteString("<tr data-history-note><td>")
			b.date(e.At)
			b.WriteString(`</td><td>belső jegyzet</td><td>–</td><td class="note">`)
			b.text(e.Note.Text)
			b.WriteString("</td><td>")
			b.text(e.Note.Author)
			b.WriteString("</td></tr>\n    ")
			continue
		}
		b.WriteString("<tr><td>")
		b.date(e.At)
		b.WriteString("</td><td>")
		b.text(fieldName(e.Field))
		b.WriteString("</td>\n      <td>")
		b.text(historyValue(e.Field, e.Old, names))
		b.WriteString("</td>\n      <td>")
		b.text(historyValue(e.Field, e.New, names))
		b.WriteString("</td>\n      <td>")
		b.text(originName(e.Origin))
		b.WriteString("</td></tr>\n    ")
	}
}

// historyValue words a value of a field as the history keeps it (text): a status by its name,
// a consent summed up, a user by their name, anything else as it is, "–" for none.
func historyValue(f lead.Field, v string, names map[uuid.UUID]string) string {
	switch f {
	case lead.FieldStatus:
		return lead.Status(v).Name()
	case lead.FieldConsent:
		return consentSummary(v)
	case lead.FieldAssignee:
		return userName(names, v)
	}
	if v == "" {
		return "–"
	}
	return v
}

// userName is a user's name for a user id as text (the history keeps ids): "–" for none.
func userName(names map[uuid.UUID]string, id string) string {
	if id == "" {
		return "–"
	}
	u, err := uuid.Parse(id)
	if n, ok := names[u]; ok && err == nil {
		return n
	}
	return "eltávolított felhasználó"
}
