package httpapi

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll answers as io.ReadAll whatever the length the request claimed.
func TestReadAllAnswersAsIoReadAll(t *testing.T) {
	t.Parallel()
	body := `{"first_name":"Kovács Péter","email":"peter.kovacs@example.hu"}`
	cut := errors.New("connection cut")
	for _, tc := range []struct {
		name   string
		reader func() io.Reader
		length int64
	}{
		{"length as told", func() io.Reader { return strings.NewReader(body) }, int64(len(body))},
		{"unknown length", func() io.Reader { return strings.NewReader(body) }, -1},
		{"longer than told", func() io.Reader { return strings.NewReader(body) }, 10},
		{"shorter than told", func() io.Reader { return strings.NewReader(body) }, 1000},
		{"a byte at a time", func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) }, int64(len(body))},
		{"data then EOF together", func() io.Reader { return iotest.DataErrReader(strings.NewReader(body)) }, int64(len(body))},
		{"cut short", func() io.Reader {
			return io.MultiReader(strings.NewReader(body[:20]), iotest.ErrReader(io.ErrUnexpectedEOF))
		}, int64(len(body))},
		{"failing", func() io.Reader { return io.MultiReader(strings.NewReader(body[:5]), iotest.ErrReader(cut)) }, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := io.ReadAll(tc.reader())
			got, err := readAll(tc.reader(), tc.length)
			if !bytes.Equal(got, want) || !errors.Is(err, wantErr) || (err == nil) != (wantErr == nil) {
				t.Errorf("readAll = %q, %v; io.ReadAll = %q, %v", got, err, want, wantErr)
			}
		})
	}
}
