package postgres

import (
	"bytes"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

// stringObject reads what json/v2 reads, whenever it reads anything: the texts PostgreSQL
// writes of a jsonb object of strings, and nothing json/v2 would refuse or read otherwise.
func FuzzStringObject(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"utm_source": "google"}`, `{"utm_source": "google", "utm_campaign": "tavasz"}`,
		`{"a": "é ő ű", "landing_page": "https://pelda.hu/ut?x=1&y=2"}`, `{"a": "x\"y"}`, `{"a": "\u00e9"}`,
		`{"a": 1}`, `{"a": "b",}`, `{"a":"b"}`, `{"a": "b"} `, `{"a": "b", "a": "c"}`, `null`, `[]`, `{"a": "b"`,
		"{\"a\": \"\xff\"}", "{\"a\": \"b\tc\"}", `{"": ""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := stringObject(b)
		if !ok {
			return
		}
		var want map[string]string
		if err := jsonv2.Unmarshal(b, &want); err != nil {
			t.Fatalf("stringObject(%q) read %v; json/v2 refuses it: %v", b, got, err)
		}
		if diff := cmp.Diff(want, got); diff != "" || (want == nil) != (got == nil) {
			t.Fatalf("stringObject(%q) (-json/v2 +stringObject):\n%s", b, diff)
		}
	})
}

// The shapes PostgreSQL writes are read here, not left to json/v2.
func TestStringObjectReadsPostgreSQLsText(t *testing.T) {
	for s, want := range map[string]map[string]string{
		`{}`:                       {},
		`{"utm_source": "google"}`: {"utm_source": "google"},
		`{"utm_source": "google", "utm_campaign": "tavasz"}`: {"utm_source": "google", "utm_campaign": "tavasz"},
		`{"landing_page": "https://pelda.hu/ár?x=1&y=2"}`:    {"landing_page": "https://pelda.hu/ár?x=1&y=2"},
	} {
		got, ok := stringObject([]byte(s))
		if !ok || !cmp.Equal(got, want) {
			t.Errorf("stringObject(%s) = %v, %v; want %v", s, got, ok, want)
		}
	}
}

// The referral data's texts are substrings of one copy of the driver's bytes: two pairs cost
// that copy and the map, and the map keeps its texts when the driver's buffer is written over.
func TestStringObjectCopiesTheBytesOnce(t *testing.T) {
	const text = `{"utm_source": "google", "utm_campaign": "tavasz"}`
	b := []byte(text)
	m, ok := stringObject(b)
	if !ok {
		t.Fatalf("stringObject(%s) not read", text)
	}
	copy(b, bytes.Repeat([]byte{'x'}, len(b)))
	if want := map[string]string{"utm_source": "google", "utm_campaign": "tavasz"}; !cmp.Equal(m, want) {
		t.Errorf("after the buffer is written over: %v, want %v", m, want)
	}
	b = []byte(text)
	mapOnly := testing.AllocsPerRun(100, func() {
		m := make(map[string]string, 2)
		m["utm_source"], m["utm_campaign"] = "google", "tavasz"
		sink = m
	})
	if n := testing.AllocsPerRun(100, func() { sink, _ = stringObject(b) }); n > mapOnly+1 {
		t.Errorf("stringObject of two pairs made %v allocations, want at most the map's %v and one copy", n, mapOnly)
	}
}

var sink map[string]string
