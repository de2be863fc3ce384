// Package csvexport writes CSV that spreadsheets open as data. Excel, LibreOffice and Google
// Sheets read a cell that starts with =, +, -, @, a tab or a carriage return as a formula, which
// can fetch a URL, run a command (DDE) or leak other cells; since cells hold what visitors typed,
// every such cell is written with a leading apostrophe, which spreadsheets show as text. A phone
// number ("+36 30 123 4567", "+36301234567": a plus, then 6 to 15 digits and single spaces) is
// the one exception: nothing in it can run, but a spreadsheet would read it as a formula or a
// number (36301234567) and an apostrophe would show, so it is written after an invisible
// U+2060 WORD JOINER instead, and shows as it was typed, as text. The file starts with a UTF-8
// byte order mark, without which Excel reads it in the system's code page and breaks every
// accented letter. Every CSV the product writes (the CLI's lead list, the dashboard's export)
// goes through Writer.
package csvexport

import (
	"bufio"
	"encoding/csv"
	"io"
)

// BOM is the UTF-8 byte order mark every file starts with.
const BOM = "\uFEFF"

// Writer writes records of neutralised cells, quoted as RFC 4180 says, after a BOM.
type Writer struct {
	out     io.Writer
	w       *csv.Writer
	started bool
	cells   []string // the record's cells, reused: an export writes a record per lead
}

// NewWriter returns a Writer that writes to w, in writes of up to bufferSize bytes.
func NewWriter(w io.Writer) *Writer {
	return &Writer{out: w, w: csv.NewWriter(bufio.NewWriterSize(w, bufferSize))}
}

// bufferSize is how much a Writer gathers before it writes: an export of a million leads is
// some 250 MB, written 4 KiB at a time (encoding/csv's own buffer) in 60,000 writes, and
// system calls, where this makes a tenth as many. csv.NewWriter writes into a bufio.Writer
// this large as it is, with no buffer of its own.
const bufferSize = 32 << 10

// Write writes one record, each cell passed through Cell; record itself is not changed.
func (w *Writer) Write(record []string) error {
	if !w.started {
		w.started = true
		if _, err := io.WriteString(w.out, BOM); err != nil {
			return err
		}
	}
	w.cells = append(w.cells[:0], record...)
	for i, c := range w.cells {
		w.cells[i] = Cell(c)
	}
	return w.w.Write(w.cells)
}

// Flush writes what is buffered and reports any error of this or an earlier write.
func (w *Writer) Flush() error {
	w.w.Flush()
	return w.w.Error()
}

// isPhone reports whether s is a phone number as people write it, which a spreadsheet cannot
// run: a plus, a digit, then 5 to 14 digits each after at most one space, the regular
// expression ^\+[0-9]( ?[0-9]){5,14}$. Matched by hand: every lead has one or two numbers,
// and the expression's matcher was an eighth of an export's CPU.
func isPhone(s string) bool {
	if len(s) < 2 || s[0] != '+' || !isDigit(s[1]) {
		return false
	}
	digits := 0
	for i := 2; i < len(s); i++ {
		if s[i] == ' ' {
			i++
			if i == len(s) || !isDigit(s[i]) {
				return false
			}
		} else if !isDigit(s[i]) {
			return false
		}
		digits++
	}
	return digits >= 5 && digits <= 14
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// wordJoiner is U+2060, invisible and not a character any spreadsheet starts a formula with.
const wordJoiner = "\u2060"

// Cell is s as a CSV cell a spreadsheet will not run: a phone number after a word joiner; else
// s with an apostrophe before it when it starts with =, +, -, @, a tab or a carriage return;
// else s.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '+':
		// Only here can s be a phone number.
		if isPhone(s) {
			return wordJoiner + s
		}
		return "'" + s
	case '=', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}
