package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// The lead reads take a lead's times in PostgreSQL's binary form; the times they return are
// the stored ones to the microsecond, in UTC, as the epoch microseconds gave them before, for
// times around both epochs (1970, 2000), a fraction of a second, a time zone and the ends of
// the years a lead's JSON can carry.
func TestLeadReadsKeepTimes(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	endpoint(t, s, c) // each lead's event has a delivery, whose read carries the lead
	stored := []string{
		"0001-01-01 00:00:00+00", "1969-12-31 23:59:59.999999+00", "1970-01-01 00:00:00+00",
		"1970-01-01 00:00:00.000001+00", "1999-12-31 23:59:59.999999+00", "2000-01-01 00:00:00+00",
		"2000-01-01 00:00:00.000001+00", "2026-11-28 10:00:00.123456+01", "2026-03-29 02:30:00.5+02",
		"9999-12-31 23:59:59.999999+00",
	}
	for i, at := range stored {
		created, err := s.CreateLead(ctx, c, newLead("Idő"), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		// updated_at a moment after, so the two columns are told apart.
		if _, err := s.DB().ExecContext(ctx, `UPDATE leads SET created_at = $3::timestamptz,
			updated_at = $3::timestamptz + $4 * interval '1 microsecond' WHERE company_id = $1 AND id = $2`,
			c, created.ID, at, i+1); err != nil {
			t.Fatal(err)
		}
	}
	// What the reads returned before: the epoch microseconds, and lib/pq's own parsing.
	want := map[uuid.UUID][4]time.Time{}
	rows, err := s.DB().QueryContext(ctx, `SELECT id, created_at, updated_at,
		(extract(epoch FROM created_at) * 1000000)::int8, (extract(epoch FROM updated_at) * 1000000)::int8
		FROM leads WHERE company_id = $1`, c)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id uuid.UUID
		var created, updated time.Time
		var createdMicros, updatedMicros int64
		if err := rows.Scan(&id, &created, &updated, &createdMicros, &updatedMicros); err != nil {
			t.Fatal(err)
		}
		want[id] = [4]time.Time{created.UTC(), updated.UTC(), time.UnixMicro(createdMicros).UTC(), time.UnixMicro(updatedMicros).UTC()}
	}
	rows.Close()
	// The deliveries' read of the lead (a chain's claim reads it with the same columns).
	if _, err := s.DispatchEvents(ctx); err != nil {
		t.Fatal(err)
	}
	delivered := map[uuid.UUID]lead.Stored{}
	var ids []uuid.UUID
	if err := sqlx.NewDb(s.DB(), "postgres").Select(&ids, `SELECT d.id FROM event_deliveries d
		WHERE d.company_id = $1 ORDER BY d.id`, c); err != nil || len(ids) != len(stored) {
		t.Fatalf("deliveries %v, %v; want %d", ids, err, len(stored))
	}
	for _, id := range ids {
		d, err := s.Delivery(ctx, c, id)
		if err != nil || d.Event.Lead == nil {
			t.Fatalf("delivery %v: %+v, %v", id, d, err)
		}
		delivered[d.Event.LeadID] = *d.Event.Lead
	}
	if len(delivered) != len(stored) {
		t.Fatalf("the deliveries read %d leads, want %d", len(delivered), len(stored))
	}
	for _, f := range []lead.Filter{{}, {Limit: 3}, {Limit: 7, Source: lead.SourceAPI}} {
		got, err := lead.Collect(lead.All(ctx, s, c, f))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(stored) {
			t.Fatalf("%+v: %d leads, want %d", f, len(got), len(stored))
		}
		for _, l := range got {
			one, err := s.GetLead(ctx, c, l.ID)
			if err != nil {
				t.Fatal(err)
			}
			w := want[l.ID]
			for _, g := range []lead.Stored{l, one, delivered[l.ID]} {
				for i, pair := range [][2]time.Time{{g.CreatedAt, w[0]}, {g.UpdatedAt, w[1]}, {g.CreatedAt, w[2]}, {g.UpdatedAt, w[3]}} {
					if !pair[0].Equal(pair[1]) || pair[0].Location() != time.UTC ||
						pair[0].Format(time.RFC3339Nano) != pair[1].Format(time.RFC3339Nano) {
						t.Errorf("%+v: lead %v time %d = %v, want %v", f, l.ID, i, pair[0], pair[1])
					}
				}
			}
		}
	}
}
