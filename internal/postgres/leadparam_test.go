package postgres_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// A group of leads is stored the same whether lib/pq sends its JSON as jsonb's binary form
// (binary_parameters, the default) or as text (a DSN that turns binary_parameters off): every
// field, escapes and characters JSON writes as \u sequences included, reads back as it was sent.
func TestLeadGroupStoresTheSameWithAndWithoutBinaryParameters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	text, privacy := "Hozzájárulok <b>\"hírlevél\"</b> & más\u2028sor", "https://example.hu/adatvedelem"
	given := time.Date(2026, 11, 27, 18, 3, 4, 5006000, time.UTC)
	leads := []lead.Lead{
		{FirstName: "Kovács Péter", Source: lead.SourceAPI},
		{FirstName: "Ödön", LastName: "Nagy\t\"Jr\"", Email: "odon@example.hu", Phone: "+36 30 123 4567",
			PhoneE164: "+36301234567", Service: "Napelem <telepítés> & karbantartás",
			Note: "Első sor\nmásodik \\ sor \u2029 \U0001F600", Unanswered: []string{"Mennyi?", "Mikor\u00a0jönnek?"},
			Source:       lead.SourceChat,
			ReferralData: map[string]string{"utm_source": "google", "landing_page": "https://example.hu/?a=1&b=<2>"},
			Consent:      &lead.Consent{Marketing: true, Text: &text, PrivacyURL: &privacy, GivenAt: given, Source: lead.SourceForm}},
		{Note: "csak megjegyzés", Source: lead.SourceForm},
	}
	limit := 2
	read := func(t *testing.T, binary bool) []lead.Stored {
		dsn := pgtest.NewDSN(t)
		if !binary {
			dsn = withParam(t, dsn, "binary_parameters", "no")
		}
		s, err := postgres.Open(ctx, dsn, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.Prepare(ctx); err != nil {
			t.Fatal(err)
		}
		c := company(t, s, "A")
		var creates []postgres.GroupCreate
		for _, l := range leads {
			l.ID = uuid.New()
			creates = append(creates, postgres.GroupCreate{Ctx: ctx, CompanyID: c, Lead: l, Limit: &limit})
		}
		created, errors := postgres.StoreGroup(s, creates)
		var stored []lead.Stored
		for i, cr := range created {
			if errors[i] != nil {
				t.Fatalf("binary parameters %v: create %d: %v", binary, i, errors[i])
			}
			if want := i >= limit; cr.Count != i+1 || cr.OverLimit != want {
				t.Errorf("binary parameters %v: create %d = %+v, want count %d, over limit %v", binary, i, cr, i+1, want)
			}
			l, err := s.GetLead(ctx, c, cr.ID)
			if err != nil {
				t.Fatal(err)
			}
			stored = append(stored, l)
		}
		return stored
	}
	ignore := cmpopts.IgnoreFields(lead.Stored{}, "ID", "CreatedAt", "UpdatedAt")
	for _, binary := range []bool{true, false} {
		stored := read(t, binary)
		for i, l := range stored {
			// The consent's time comes back in the database's zone: the instant is what counts.
			if l.Consent != nil && l.Consent.GivenAt.Equal(given) {
				l.Consent.GivenAt = given
			}
			want := lead.Stored{Lead: leads[i], Status: lead.StatusNew}
			if i >= limit {
				want.Status, want.OverLimit = lead.StatusOverLimit, true
			}
			if diff := cmp.Diff(want, l, ignore, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("binary parameters %v: lead %d (-sent +stored):\n%s", binary, i, diff)
			}
		}
	}
}

// withParam sets a connection parameter in a DSN of either form.
func withParam(t *testing.T, dsn, name, value string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return strings.TrimSpace(dsn) + " " + name + "=" + value
	}
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String()
}
