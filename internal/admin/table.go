package admin

import (
	"io"
	"strings"
	"unicode/utf8"
)

// table writes rows in columns without holding them all, so a listing of any length takes the
// memory of one batch: each batch is aligned when it is flushed, and a column never narrows, so
// the columns stay where the first batch put them unless a later row is wider. (tabwriter would
// hold every row until the end to align them all.) Cells must be printable already.
type table struct {
	w      io.Writer
	widths []int
	rows   [][]string
}

// row adds a row; it is written at the next flush.
func (t *table) row(cells ...string) {
	for i, c := range cells {
		if i == len(t.widths) {
			t.widths = append(t.widths, 0)
		}
		t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c))
	}
	t.rows = append(t.rows, cells)
}

// flush writes the rows added since the last flush, two spaces between columns.
func (t *table) flush() error {
	var b strings.Builder
	for _, r := range t.rows {
		b.Reset()
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", t.widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteByte('\n')
		if _, err := io.WriteString(t.w, b.String()); err != nil {
			return err
		}
	}
	clear(t.rows)
	t.rows = t.rows[:0]
	return nil
}
