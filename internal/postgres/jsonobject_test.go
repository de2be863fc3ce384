package postgres

import (
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
