// Package csvexport writes CSV that spreadsheets open as data. Excel, LibreOffice and Google
// Sheets read a cell that starts with =, +, -, @, a tab or a carriage return as a formula, which
// can fetch a URL, run a command (DDE) or leak other cells; since cells hold what visitors typed,
// every such cell is written with a leading apostrophe, which spreadsheets show as text. Every
// CSV the product writes (the CLI's lead list, the dashboard's export) goes through Writer.
package csvexport

import (
	"encoding/csv"
	"io"
)

// Writer writes records of neutralised cells, quoted as RFC 4180 says.
type Writer struct {
	w *csv.Writer
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: csv.NewWriter(w)} }

// Write writes one record, each cell passed through Cell; record itself is not changed.
func (w *Writer) Write(record []string) error {
	cells := make([]string, len(record))
	for i, c := range record {
		cells[i] = Cell(c)
	}
	return w.w.Write(cells)
}

// Flush writes what is buffered and reports any error of this or an earlier write.
func (w *Writer) Flush() error {
	w.w.Flush()
	return w.w.Error()
}

// Cell is s as a CSV cell a spreadsheet will not run: s with an apostrophe before it when it
// starts with =, +, -, @, a tab or a carriage return, else s.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}
