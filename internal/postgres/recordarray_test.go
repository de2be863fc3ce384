package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/postgres"
)

// recordArray reads what array_send writes of array_agg(ROW(...)): texts (NULL as ""), bools,
// times and uuids; NULL is no records; and it refuses, without a panic, every array cut short
// and records of another width.
func TestRecordArrayReadsArraySend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, postgres.Options{})
	id := uuid.New()
	var raw []byte
	if err := s.DB().QueryRowContext(ctx, `
		SELECT array_send(array_agg(ROW(v.t, v.b, v.at, v.id) ORDER BY v.i))
		FROM (VALUES (1, 'Kovács "Péter" {a,b} \ NULL', true, '2026-11-28 13:01:02.345678+01'::timestamptz, $1::uuid),
		             (2, NULL, false, '1999-12-31 23:59:59.999999+00', $1),
		             (3, '', true, '1970-01-01 00:00:00.000001+00', $1)) v(i, t, b, at, id)`, id).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	a := postgres.NewRecordArray(4)
	if err := a.Scan(raw); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text string
		b    bool
		at   time.Time
	}{{`Kovács "Péter" {a,b} \ NULL`, true, time.Date(2026, 11, 28, 12, 1, 2, 345678000, time.UTC)},
		{"", false, time.Date(1999, 12, 31, 23, 59, 59, 999999000, time.UTC)}, {"", true, time.UnixMicro(1).UTC()}}
	if a.Len() != len(want) {
		t.Fatalf("%d records, want %d", a.Len(), len(want))
	}
	for i, w := range want {
		b, err := a.Bool(i, 1)
		if err != nil {
			t.Fatal(err)
		}
		at, err := a.Time(i, 2)
		if err != nil {
			t.Fatal(err)
		}
		u, err := a.UUID(i, 3)
		if err != nil {
			t.Fatal(err)
		}
		if a.Text(i, 0) != w.text || b != w.b || !at.Equal(w.at) || u != id {
			t.Errorf("record %d: %q %v %v %v, want %q %v %v %v", i, a.Text(i, 0), b, at, u, w.text, w.b, w.at, id)
		}
	}
	if err := a.Scan(nil); err != nil || a.Len() != 0 {
		t.Errorf("NULL: %d records, %v", a.Len(), err)
	}
	for n := range len(raw) {
		if err := a.Scan(raw[:n]); err == nil {
			t.Errorf("the array's first %d of %d bytes read as %d records", n, len(raw), a.Len())
		}
	}
	for _, cols := range []int{3, 5} {
		b := postgres.NewRecordArray(cols)
		if err := b.Scan(raw); err == nil {
			t.Errorf("records of 4 fields read as %d", cols)
		}
	}
}
