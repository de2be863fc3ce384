package csvexport

import (
	"bytes"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/testenv"
)

// cellRE is a cell of LibreOffice's flat XML spreadsheet: its attributes and its content.
var cellRE = regexp.MustCompile(`(?s)<table:table-cell([^>]*)>(.*?)</table:table-cell>`)

// An export opened by LibreOffice (headless, reading the file's encoding itself as its import
// dialog does) keeps every accented letter, starts with the header's own first cell, shows the
// E.164 number and the typed phone as text beginning "+36", and holds no formula.
func TestLibreOfficeOpensTheExport(t *testing.T) {
	soffice := testenv.LibreOffice(t)
	dir := t.TempDir()
	l := lead.Stored{Status: lead.StatusNew, CreatedAt: time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC),
		Lead: lead.Lead{ID: uuid.MustParse("0b7f3c52-6f1e-4c7e-9a57-1a3e8d3e2f10"), FirstName: "Árvíztűrő Tükörfúrógép",
			LastName: "Őrző", Email: "ugyfel@pelda.hu", Phone: "+36 30 123 4567", PhoneE164: "+36301234567",
			Service: `=HYPERLINK("https://evil.example","Kattints")`, Note: "@SUM(1+1)", Source: lead.SourceForm}}
	var buf bytes.Buffer
	w := NewLeadWriter(&buf)
	if err := w.Write(l); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "leads.csv")
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// Separator comma, quote ", character set left to LibreOffice, from the first line.
	cmd := exec.Command(soffice, "--headless", "--infilter=CSV:44,34,,1", "--convert-to", "fods", "--outdir", dir, in)
	cmd.Env = append(os.Environ(), "HOME="+dir) // a profile of its own, so runs do not share one
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "leads.fods"))
	if err != nil {
		t.Fatal(err)
	}
	type cell struct{ typ, text string }
	var cells []cell
	for _, m := range cellRE.FindAllStringSubmatch(string(doc), -1) {
		if strings.Contains(m[1], "table:formula") {
			t.Errorf("LibreOffice made a formula of a cell: %s", m[0])
		}
		typ := regexp.MustCompile(`office:value-type="(\w+)"`).FindStringSubmatch(m[1])
		text := html.UnescapeString(strings.TrimSpace(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[2], "")))
		if typ != nil {
			cells = append(cells, cell{typ[1], text})
		}
	}
	header, row := len(leadHeader), len(leadHeader)
	if len(cells) < header+7 {
		t.Fatalf("LibreOffice read %d cells: %v", len(cells), cells)
	}
	if cells[0].text != "id" {
		t.Errorf("the first header cell reads %q, want id", cells[0].text)
	}
	at := func(column string) cell {
		for i, h := range leadHeader {
			if h == column {
				return cells[row+i]
			}
		}
		t.Fatalf("no column %s", column)
		return cell{}
	}
	for column, want := range map[string]string{"first_name": "Árvíztűrő Tükörfúrógép", "last_name": "Őrző",
		"phone": "+36 30 123 4567", "phone_e164": "+36301234567"} {
		c := at(column)
		if c.typ != "string" || strings.TrimPrefix(c.text, wordJoiner) != want {
			t.Errorf("%s: LibreOffice shows %s %q, want the text %q", column, c.typ, c.text, want)
		}
	}
	if c := at("service"); c.typ != "string" || !strings.HasPrefix(c.text, "'=HYPERLINK") {
		t.Errorf("service: %s %q, want the formula's text with its apostrophe", c.typ, c.text)
	}
}
