package apidocs

import (
	"html"
	"html/template"
	"regexp"
	"strconv"
	"strings"
)

// The spec's descriptions use a small part of Markdown: paragraphs, `#` headings, `*`/`-` and
// numbered lists, pipe tables, `code` and **bold**. This converter knows exactly that and escapes
// everything else, so no text in the spec can reach the page as markup.

// heading is a Markdown heading of a description, kept for the table of contents.
type heading struct {
	Level int
	ID    string
	HTML  template.HTML
}

var (
	headingLine  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	listItemLine = regexp.MustCompile(`^\s{0,3}(?:[*+-]|(\d{1,9})[.)])\s+(.*)$`)
	tableRule    = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)
	nonSlug      = regexp.MustCompile(`[^a-z0-9]+`)
)

// markdown renders src as HTML. A heading of n hashes becomes <h(n+shift)>, at most <h6>, with an
// id made of idPrefix and its text; the headings are returned too.
func markdown(src, idPrefix string, shift int) (template.HTML, []heading) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var b strings.Builder
	var heads []heading
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "":
			i++
		case headingLine.MatchString(line):
			m := headingLine.FindStringSubmatch(line)
			h := heading{Level: min(len(m[1])+shift, 6), ID: idPrefix + slug(m[2]), HTML: template.HTML(inline(m[2]))}
			if h.ID == idPrefix {
				h.ID += "section-" + strconv.Itoa(len(heads)+1)
			}
			heads = append(heads, h)
			level := strconv.Itoa(h.Level)
			b.WriteString("<h" + level + ` id="` + html.EscapeString(h.ID) + `">` + string(h.HTML) + "</h" + level + ">\n")
			i++
		case isTable(lines, i):
			i = table(&b, lines, i)
		case listItemLine.MatchString(line):
			i = list(&b, lines, i)
		default:
			i = paragraph(&b, lines, i)
		}
	}
	return template.HTML(b.String()), heads
}

// paragraph writes the lines up to the next blank line or block, and returns where it stopped.
func paragraph(b *strings.Builder, lines []string, i int) int {
	var text []string
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		if len(text) > 0 && startsBlock(lines, i) {
			break
		}
		text = append(text, strings.TrimSpace(lines[i]))
	}
	b.WriteString("<p>" + inline(strings.Join(text, "\n")) + "</p>\n")
	return i
}

// list writes consecutive items of one list; a line that starts no block continues the item
// above it, and a blank line ends the list.
func list(b *strings.Builder, lines []string, i int) int {
	ordered := listItemLine.FindStringSubmatch(lines[i])[1] != ""
	tag := "ul"
	if ordered {
		tag = "ol"
	}
	b.WriteString("<" + tag + ">\n")
	var item []string
	flush := func() {
		if item != nil {
			b.WriteString("<li>" + inline(strings.Join(item, "\n")) + "</li>\n")
		}
	}
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		if m := listItemLine.FindStringSubmatch(lines[i]); m != nil {
			if (m[1] != "") != ordered {
				break
			}
			flush()
			item = []string{m[2]}
			continue
		}
		if startsBlock(lines, i) {
			break
		}
		item = append(item, strings.TrimSpace(lines[i]))
	}
	flush()
	b.WriteString("</" + tag + ">\n")
	return i
}

// table writes a pipe table: a header row, a rule row of dashes, then the rows that start with
// a pipe.
func table(b *strings.Builder, lines []string, i int) int {
	b.WriteString("<div class=\"table\"><table>\n<thead><tr>")
	for _, c := range cells(lines[i]) {
		b.WriteString("<th>" + inline(c) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
		b.WriteString("<tr>")
		for _, c := range cells(lines[i]) {
			b.WriteString("<td>" + inline(c) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
	return i
}

// isTable reports whether a pipe table starts at line i.
func isTable(lines []string, i int) bool {
	return strings.HasPrefix(strings.TrimSpace(lines[i]), "|") && i+1 < len(lines) &&
		strings.Contains(lines[i+1], "-") && tableRule.MatchString(lines[i+1])
}

// startsBlock reports whether line i begins a heading, a list item or a table, which ends the
// paragraph or list item before it.
func startsBlock(lines []string, i int) bool {
	return headingLine.MatchString(lines[i]) || listItemLine.MatchString(lines[i]) || isTable(lines, i)
}

// cells splits a table row at the pipes outside code spans.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	var cell strings.Builder
	inCode := false
	for j := 0; j < len(row); j++ {
		switch c := row[j]; {
		case c == '\\' && j+1 < len(row) && row[j+1] == '|':
			cell.WriteByte('|')
			j++
		case c == '`':
			inCode = !inCode
			cell.WriteByte(c)
		case c == '|' && !inCode:
			out = append(out, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cell.String()))
}

// inline renders `code` spans and **bold** in one block of text, escaping everything else.
func inline(s string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '`')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open+1:], '`')
		if end < 0 {
			break
		}
		b.WriteString(bold(s[:open]))
		b.WriteString("<code>" + html.EscapeString(s[open+1:open+1+end]) + "</code>")
		s = s[open+2+end:]
	}
	b.WriteString(bold(s))
	return b.String()
}

// bold renders **pairs** of double asterisks as <strong>; an unpaired one stays as written.
func bold(s string) string {
	parts := strings.Split(s, "**")
	if len(parts)%2 == 0 {
		last := len(parts) - 1
		parts[last-1] += "**" + parts[last]
		parts = parts[:last]
	}
	var b strings.Builder
	for k, p := range parts {
		if k%2 == 1 {
			b.WriteString("<strong>" + html.EscapeString(p) + "</strong>")
		} else {
			b.WriteString(html.EscapeString(p))
		}
	}
	return b.String()
}

// slug makes an HTML id of a heading: lower-case letters and digits joined by dashes.
func slug(s string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
}
