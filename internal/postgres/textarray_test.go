package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// awkward are texts that PostgreSQL's array output quotes, escapes or could mistake: empty,
// NULL as a word, quotes, backslashes, braces, commas, white space of every kind, accents.
var awkward = []string{"", "NULL", "null", "Null", `"`, `\`, `\\"`, `a"b\c`, "{", "}", "{a,b}", ",", "a,b",
	" ", "két szó", "\t", "sor\nsor", "\r\n", "\v\f", "Kovács Péter", "x", "ÁRVÍZTŰRŐ tükörfúrógép", `""`, "NULLA",
	"(1)", "[0:1]={a}", "'idéző'", "\u2028", "emoji 😀"}

// What PostgreSQL writes of a text array, whatever its elements, parseTextArray reads back as
// they were; a NULL element reads as "".
func TestParseTextArrayReadsPostgreSQLs(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	cases := [][]string{{}, {"egy"}, awkward}
	for _, a := range awkward {
		cases = append(cases, []string{a}, []string{a, a}, []string{"x", a, "y"})
	}
	for _, in := range cases {
		var out string
		if err := s.DB().QueryRowContext(ctx, `SELECT $1::text[]::text`, pq.Array(in)).Scan(&out); err != nil {
			t.Fatal(err)
		}
		got, err := postgres.ParseTextArray([]string{"left over"}[:0], out)
		if err != nil {
			t.Errorf("parsing %s: %v", out, err)
			continue
		}
		if diff := cmp.Diff(in, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", out, diff)
		}
		if len(in) > 1 && cap(got) != len(in) { // sized once, to the elements (arrayElements)
			t.Errorf("%s: capacity %d for %d elements", out, cap(got), len(in))
		}
	}
	var out string
	if err := s.DB().QueryRowContext(ctx, `SELECT ARRAY['a', NULL, 'NULL', NULL]::text`).Scan(&out); err != nil {
		t.Fatal(err)
	}
	if got, err := postgres.ParseTextArray(nil, out); err != nil || !cmp.Equal(got, []string{"a", "", "NULL", ""}) {
		t.Errorf("%s = %q, %v; want NULLs as empty texts", out, got, err)
	}
}

// A parsed array is one allocation, its slice, sized to its elements, quoted commas and
// quotes not counted: a page's 50 notes were seven allocations an array, grown by append.
func TestParseTextArrayAllocatesItsSliceOnce(t *testing.T) {
	elems := strings.Repeat(`"a, b",NULL,"{c}",d,"",`, 10) // 50 elements, quoted commas and braces
	in := "{" + elems[:len(elems)-1] + "}"
	var got []string
	allocs := testing.AllocsPerRun(20, func() {
		var err error
		if got, err = postgres.ParseTextArray(nil, in); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 1 || len(got) != 50 || cap(got) != 50 || got[0] != "a, b" || got[1] != "" || got[2] != "{c}" {
		t.Errorf("%.0f allocations, %d elements, capacity %d, %q; want 1, 50, 50", allocs, len(got), cap(got), got[:3])
	}
}

// What is not a one-dimensional text array is refused, not misread.
func TestParseTextArrayRefuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "{", "}", "a", `{"a}`, `{a,}`, `{,a}`, `{{a},{b}}`, `{"a"b}`, `[1:1]={a}`, `{a"b}`, `{a\b}`} {
		if got, err := postgres.ParseTextArray(nil, in); err == nil {
			t.Errorf("ParseTextArray(%q) = %q, want an error", in, got)
		}
	}
}

// The lead page's time and flag lists read what PostgreSQL writes, to the microsecond
// (around 1970 and 2000, where the two epochs are, and the years 1 and 9999), NULL and an empty
// array as none; a list of other than times, or with a NULL, is refused.
func TestTimeAndFlagArrays(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	var (
		tm, none, empty postgres.TimeArray
		b               postgres.BoolArray
	)
	none, empty = postgres.TimeArray{7}, postgres.TimeArray{7}
	if err := s.DB().QueryRowContext(ctx, `SELECT array_send(ARRAY['1970-01-01 00:00:00.000001+00', '1969-12-31 23:59:59.999999+00',
		'2000-01-01 00:00:00+00', '1999-12-31 23:59:59.999999+00', '2026-11-28 13:01:02.345678+01', '0001-01-01 00:00:00+00',
		'9999-12-31 23:59:59.999999+00']::timestamptz[]), ARRAY[true, false, true], NULL::bytea, array_send('{}'::timestamptz[])`).Scan(&tm, &b, &none, &empty); err != nil {
		t.Fatal(err)
	}
	want := []time.Time{time.UnixMicro(1), time.UnixMicro(-1), time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999999000, time.UTC), time.Date(2026, 11, 28, 12, 1, 2, 345678000, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC)}
	got := make([]time.Time, len(tm))
	for i, us := range tm {
		got[i] = time.UnixMicro(us)
	}
	if !cmp.Equal(got, want, cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) })) ||
		!cmp.Equal(b, postgres.BoolArray{true, false, true}) || len(none) != 0 || len(empty) != 0 {
		t.Errorf("got %v, %v, %v, %v", got, b, none, empty)
	}
	for _, q := range []string{`SELECT array_send(ARRAY[1, 2]::int8[])`, `SELECT array_send(ARRAY[now(), NULL])`,
		`SELECT array_send(ARRAY[[now()], [now()]])`, `SELECT '\x00'::bytea`} {
		var x postgres.TimeArray
		if err := s.DB().QueryRowContext(ctx, q).Scan(&x); err == nil {
			t.Errorf("%s read as %v, want an error", q, x)
		}
	}
}

// A lead whose texts are awkward in an array reads back as stored, through the list, one
// lead's read and the lead page, its related lead and its notes included.
func TestAwkwardTextsReadBack(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a := company(t, s, "A")
	owner := addUser(t, s, a, "tulaj@example.hu")
	var stored []lead.Lead
	for i, text := range awkward {
		l := lead.Lead{ID: uuid.New(), FirstName: text, LastName: awkward[(i+1)%len(awkward)], Email: "NULL@example.hu",
			Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: awkward[(i+2)%len(awkward)], Note: awkward[(i+3)%len(awkward)],
			Source: lead.SourceForm}
		if text == "" {
			l.FirstName, l.Email, l.Phone, l.PhoneE164 = "", "", "", "" // NULL columns
		}
		if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
			t.Fatal(err)
		}
		stored = append(stored, l)
	}
	ignoreTimes := cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".CreatedAt" || p.Last().String() == ".UpdatedAt"
	}, cmp.Ignore())
	page, err := s.ListLeads(ctx, a, lead.Filter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uuid.UUID]lead.Stored{}
	for _, l := range page.Leads {
		byID[l.ID] = l
	}
	for _, l := range stored {
		want := lead.Stored{Lead: l, Status: lead.StatusNew}
		if diff := cmp.Diff(want, byID[l.ID], ignoreTimes); diff != "" {
			t.Errorf("listed (-want +got):\n%s", diff)
		}
		got, err := s.GetLead(ctx, a, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, ignoreTimes); diff != "" {
			t.Errorf("GetLead (-want +got):\n%s", diff)
		}
	}
	me := stored[1]
	var kept []string
	for _, text := range awkward {
		// Blank notes and control characters are refused; every other note is kept.
		if _, err := s.AddLeadNote(ctx, a, me.ID, owner.ID, text); err == nil {
			kept = append(kept, text)
		} else if strings.TrimSpace(text) != "" && !strings.ContainsAny(text, "\t\n\r\v\f\u2028") {
			t.Fatalf("note %q: %v", text, err)
		}
	}
	if len(kept) < 20 {
		t.Fatalf("only %d notes kept", len(kept))
	}
	f, _, err := s.LeadFile(ctx, a, me.ID, 50)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(lead.Stored{Lead: me, Status: lead.StatusNew}, f.Lead, ignoreTimes); diff != "" {
		t.Errorf("the page's lead (-want +got):\n%s", diff)
	}
	if len(f.Related) != len(stored)-2 { // the same address and number, but for the lead without
		t.Errorf("%d related leads, want %d", len(f.Related), len(stored)-2)
	}
	var notes []string
	for _, n := range f.Notes {
		notes = append(notes, n.Text)
		// The lead file carries a note's author as the page shows it, without ids.
		if n.Author != "tulaj@example.hu" {
			t.Errorf("note by %q, want the owner", n.Author)
		}
	}
	if diff := cmp.Diff(kept, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
