package lead

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
)

// crafted is a cursor text with a valid checksum for any version and time, as someone who
// read the format would make it.
func crafted(version byte, micros int64, id uuid.UUID, f Filter) string {
	b := make([]byte, cursorPayload, cursorPayload+cursorChecksum)
	b[0] = version
	binary.BigEndian.PutUint64(b[1:9], uint64(micros))
	copy(b[9:], id[:])
	sum := sha256.Sum256(b)
	if version == cursorVersion {
		sum = cursorSum(b, f)
	}
	return cursorEncoding.EncodeToString(append(b, sum[:cursorChecksum]...))
}

// A cursor with a well-formed checksum but a time no lead has, which PostgreSQL might not hold,
// is refused before it reaches a statement; a version-1 cursor, given out before cursors were
// bound to their filters, still reads.
func TestCraftedCursor(t *testing.T) {
	id := uuid.New()
	f := Filter{Source: SourceChat}
	for name, micros := range map[string]int64{
		"int64 minimum": math.MinInt64, "int64 maximum": math.MaxInt64, "before 1970": -1,
		"year 10000": time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro(),
	} {
		for _, v := range []byte{cursorV1, cursorVersion} {
			if _, err := ParseCursor(crafted(v, micros, id, f), f); errs.As(err).Code != errs.CodeInvalidCursor {
				t.Errorf("%s, version %d: %v, want invalid_cursor", name, v, err)
			}
		}
	}
	if _, err := ParseCursor(crafted(3, 0, id, f), f); errs.As(err).Code != errs.CodeInvalidCursor {
		t.Errorf("version 3: %v, want invalid_cursor", err)
	}
	at := time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC)
	for _, v := range []byte{cursorV1, cursorVersion} {
		for _, when := range []time.Time{time.Unix(0, 0).UTC(), at} {
			if c, err := ParseCursor(crafted(v, when.UnixMicro(), id, f), f); err != nil || c != (Cursor{when, id}) {
				t.Errorf("version %d at %v: %v, %v", v, when, c, err)
			}
		}
	}
}

// fuzzFilters are the filters the fuzz targets read cursors with.
var fuzzFilters = []Filter{{}, {Status: StatusNew, Text: "Kovács"}}

// FuzzParseCursor: whatever text comes back, ParseCursor answers invalid_cursor or a cursor in
// the range PostgreSQL holds whose text is exactly what came (one text per cursor), and a
// cursor of one list is refused by another.
func FuzzParseCursor(fz *testing.F) {
	id := uuid.MustParse("01a20a68-ec0f-79c8-bead-6b6d4faf9a07")
	for _, s := range []string{"", "a+b/c=", crafted(cursorVersion, 1741944067512345, id, fuzzFilters[0]),
		crafted(cursorVersion, 1741944067512345, id, fuzzFilters[1]), crafted(cursorV1, 1741944067512345, id, Filter{}),
		crafted(cursorVersion, math.MinInt64, id, fuzzFilters[0]), crafted(cursorV1, math.MaxInt64, id, Filter{})} {
		fz.Add(s)
	}
	fz.Fuzz(func(t *testing.T, s string) {
		for i, f := range fuzzFilters {
			c, err := ParseCursor(s, f)
			if err != nil {
				if e := errs.As(err); e == nil || e.Kind != errs.Invalid || e.Code != errs.CodeInvalidCursor {
					t.Fatalf("ParseCursor(%q): %v, want invalid_cursor", s, err)
				}
				continue
			}
			if c.CreatedAt.Before(cursorMin) || !c.CreatedAt.Before(cursorMax) {
				t.Fatalf("ParseCursor(%q) = %v, out of range", s, c.CreatedAt)
			}
			b, _ := cursorEncoding.DecodeString(s)
			if again := crafted(b[0], c.CreatedAt.UnixMicro(), c.ID, f); again != s {
				t.Fatalf("ParseCursor(%q) = %v, which is written %q", s, c, again)
			}
			if b[0] != cursorVersion {
				continue
			}
			if c.Text(f) != s {
				t.Fatalf("ParseCursor(%q) = %v, which Text writes %q", s, c, c.Text(f))
			}
			if _, err := ParseCursor(s, fuzzFilters[1-i]); err == nil {
				t.Fatalf("%q is read by two lists", s)
			}
		}
	})
}

// FuzzCursorRoundTrip: every position in the range reads back as it was written, with its own
// filter only; one outside it is refused.
func FuzzCursorRoundTrip(fz *testing.F) {
	fz.Add(int64(1741944067512345), []byte("0123456789abcdef"), "new", "Kovács", int64(0))
	fz.Add(int64(math.MinInt64), []byte{}, "", "", int64(math.MaxInt64))
	fz.Fuzz(func(t *testing.T, micros int64, rawID []byte, status, text string, since int64) {
		var id uuid.UUID
		copy(id[:], rawID)
		f := Filter{Status: Status(status), Text: text, Since: time.UnixMicro(since)}
		other := f
		other.Text += "x"
		c := Cursor{CreatedAt: time.UnixMicro(micros).UTC(), ID: id}
		s := c.Text(f)
		back, err := ParseCursor(s, f)
		inRange := !c.CreatedAt.Before(cursorMin) && c.CreatedAt.Before(cursorMax)
		switch {
		case inRange && (err != nil || back != c):
			t.Fatalf("%v read back as %v, %v", c, back, err)
		case !inRange && errs.As(err).Code != errs.CodeInvalidCursor:
			t.Fatalf("%v out of range read back as %v, %v", c, back, err)
		}
		if _, err := ParseCursor(s, other); err == nil {
			t.Fatalf("%v read with another filter", c)
		}
	})
}
