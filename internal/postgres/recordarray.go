package postgres

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// recordArray is a one-dimensional array of records (ROW(...), each of cols fields) as
// array_send writes it, which lib/pq hands over as a bytea in binary: the lead file's lists
// (leadFileLists). NULL, and an empty array, read as no records. The fields are substrings of
// one copy of the array, a NULL field reads as "", and each field's bytes are its type's binary
// form: a text's bytes, a bool's one byte, a uuid's 16, a timestamptz's eight (microseconds
// since 2000, sentMicros). Reused from row to row.
type recordArray struct {
	cols   int      // fields a record, set before Scan
	fields []string // record i's field j is fields[i*cols+j]
}

// recordOID is the type of an anonymous record, the elements' type of array_agg(ROW(...)).
const recordOID = 2249

// Scan reads the array: its header (dimensions, whether any element is NULL, the elements'
// type), each dimension's length and lower bound, then each record's length and bytes: its
// fields, then each field's type, length (-1 for NULL) and bytes.
func (a *recordArray) Scan(src any) error {
	a.fields = a.fields[:0]
	if src == nil {
		return nil
	}
	b, ok := src.([]byte)
	if !ok {
		return fmt.Errorf("a record array from %T", src)
	}
	if len(b) < 12 {
		return fmt.Errorf("a record array of %d bytes", len(b))
	}
	dims, typ := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[8:])
	if dims == 0 { // an empty array
		return nil
	}
	if dims != 1 || typ != recordOID || len(b) < 20 {
		return fmt.Errorf("not a one-dimensional record array (%d dimensions, type %d)", dims, typ)
	}
	n, body := int(binary.BigEndian.Uint32(b[12:])), b[20:]
	if a.cols <= 0 || n > len(body)/(8+8*a.cols) { // a record takes at least 8 bytes a field and 8 more
		return fmt.Errorf("%d records of %d fields in %d bytes", n, a.cols, len(body))
	}
	if cap(a.fields) < n*a.cols { // one allocation, not append's doublings
		a.fields = make([]string, 0, n*a.cols)
	}
	s := string(body) // the one copy the fields share
	p := 0
	u32 := func() (int, error) {
		if len(body)-p < 4 {
			return 0, fmt.Errorf("a record array cut short at byte %d", 20+p)
		}
		v := int(int32(binary.BigEndian.Uint32(body[p:])))
		p += 4
		return v, nil
	}
	for i := range n {
		size, err := u32()
		if err != nil {
			return err
		}
		if size < 0 || size > len(body)-p {
			return fmt.Errorf("record %d of %d bytes in a record array", i, size)
		}
		end := p + size
		cols, err := u32()
		if err != nil {
			return err
		}
		if cols != a.cols {
			return fmt.Errorf("record %d has %d fields, want %d", i, cols, a.cols)
		}
		for range cols {
			if _, err := u32(); err != nil { // the field's type
				return err
			}
			l, err := u32()
			if err != nil {
				return err
			}
			if l < 0 { // NULL
				a.fields = append(a.fields, "")
				continue
			}
			if l > end-p {
				return fmt.Errorf("a field of %d bytes past record %d's end", l, i)
			}
			a.fields = append(a.fields, s[p:p+l])
			p += l
		}
		if p != end {
			return fmt.Errorf("record %d ends at byte %d, not %d", i, 20+p, 20+end)
		}
	}
	if p != len(body) {
		return fmt.Errorf("%d bytes after a record array's %d records", len(body)-p, n)
	}
	return nil
}

// len is how many records the array holds.
func (a *recordArray) len() int {
	if a.cols == 0 {
		return 0
	}
	return len(a.fields) / a.cols
}

// text is field j of record i as text ("" for NULL).
func (a *recordArray) text(i, j int) string { return a.fields[i*a.cols+j] }

// bool is field j of record i as a bool.
func (a *recordArray) bool(i, j int) (bool, error) {
	switch a.fields[i*a.cols+j] {
	case "\x01":
		return true, nil
	case "\x00":
		return false, nil
	}
	return false, fmt.Errorf("a bool of %d bytes", len(a.fields[i*a.cols+j]))
}

// time is field j of record i as a timestamptz, in UTC.
func (a *recordArray) time(i, j int) (time.Time, error) {
	f := a.fields[i*a.cols+j]
	if len(f) != 8 {
		return time.Time{}, fmt.Errorf("a time of %d bytes", len(f))
	}
	var b [8]byte
	copy(b[:], f)
	return time.UnixMicro(sentMicros(b[:])).UTC(), nil
}

// uuid is field j of record i as a uuid.
func (a *recordArray) uuid(i, j int) (uuid.UUID, error) {
	var id uuid.UUID
	f := a.fields[i*a.cols+j]
	if len(f) != len(id) {
		return uuid.UUID{}, fmt.Errorf("a uuid of %d bytes", len(f))
	}
	copy(id[:], f)
	return id, nil
}
