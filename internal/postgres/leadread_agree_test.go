package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// oldSelectLeads is how the lead reads read a company's leads before they kept the session on
// the lead: through chat_sessions. (The times are read as the reads take them, in binary;
// TestLeadReadsKeepTimes holds those to the epoch microseconds they replaced.)
const oldSelectLeads = `
SELECT l.id, l.first_name, l.last_name, l.email, l.phone, l.phone_e164, l.service,
       l.details->>'note', l.source, l.status, s.session_id, l.assignee_id,
       l.details->'unanswered_questions', l.referral_data, l.over_limit,
       timestamptz_send(l.created_at), timestamptz_send(l.updated_at),
       l.consent
FROM leads l
LEFT JOIN chat_sessions s ON s.company_id = $1 AND s.lead_id = l.id
WHERE l.company_id = $1
ORDER BY l.created_at DESC, l.id DESC`

// awkwardTexts are texts a lead may hold that JSON or the wire treat specially, and nulls.
var awkwardTexts = []string{
	"", "Kovács Péter", `"idézet" \ <b>&amp;</b>`, "sor\nsor\ttab\r\x1f\b\f", "\u2028\u2029", "emoji 🙂 és 中文",
	"\x7f", strings.Repeat("á", 300), "Ő'Brien-Ünal", " szóköz ", "\\x41", "null", "%_",
}

// The list (prepared pages of 50, unprepared pages of 7, every page of lead.All) and one
// lead's read return every lead exactly as the old statement read it, over leads with every
// kind of text, nulls, assignees, referral data, questions, consent, sessions and awkward times.
func TestLeadReadsAgreeWithTheOldStatement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, postgres.Options{})
	var companies, users []uuid.UUID
	for _, name := range []string{"A", "B"} {
		c, err := s.CreateCompany(ctx, name, plan.Free, plan.Override{})
		if err != nil {
			t.Fatal(err)
		}
		companies = append(companies, c.ID)
		u, err := s.CreateUser(ctx, c.ID, "munkatars@ceg.hu", user.Member, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, u.ID)
	}
	text := "Hozzájárulok <b>\"hírlevél\"</b> & más\u2028sor"
	sources := []lead.Source{lead.SourceAPI, lead.SourceForm, lead.SourceChat, lead.SourceManual}
	n := 0
	for i := range 130 {
		for ci, c := range companies {
			a := awkwardTexts[i%len(awkwardTexts)]
			b := awkwardTexts[(i/len(awkwardTexts)+ci)%len(awkwardTexts)]
			l := lead.Lead{ID: uuid.New(), FirstName: a, LastName: b, Email: b, Phone: a, PhoneE164: b, Service: a,
				Note: b, Source: sources[i%len(sources)]}
			if i%3 == 0 {
				l.ReferralData = map[string]string{"utm_source": a, "landing_page": b}
			}
			if i%5 == 0 && l.Note != "" {
				l.Unanswered = []string{a, b}
			}
			if i%7 == 0 {
				l.Consent = &lead.Consent{Marketing: i%2 == 0, Text: &text, GivenAt: time.Date(2026, 11, 27, 18, 3, 4, 5006000, time.UTC), Source: lead.SourceForm}
			}
			if _, err := s.CreateLead(ctx, c, l, nil, nil); err != nil {
				t.Fatal(err)
			}
			n++
			if i%4 == 2 {
				if _, err := s.DB().ExecContext(ctx, `INSERT INTO chat_sessions (company_id, session_id, lead_id) VALUES ($1, $2, $3)`,
					c, fmt.Sprintf("session-%03d-%d-abcdefghijklmnop", i, ci), l.ID); err != nil {
					t.Fatal(err)
				}
			}
			if i%3 == 1 { // a third of the leads assigned, the rest not
				if _, err := s.DB().ExecContext(ctx, `UPDATE leads SET assignee_id = $3 WHERE company_id = $1 AND id = $2`,
					c, l.ID, users[ci]); err != nil {
					t.Fatal(err)
				}
			}
			if i%6 == 1 {
				if _, err := s.DB().ExecContext(ctx, `UPDATE leads SET created_at = $3::timestamptz - $4 * interval '1 microsecond',
					updated_at = $3::timestamptz + $4 * interval '1 second' WHERE company_id = $1 AND id = $2`,
					c, l.ID, []string{"1969-12-31 23:59:59.999999+00", "2000-01-01 00:00:00+00", "1999-06-01 12:00:00.5+02", "2030-01-01 00:00:00.000001+00"}[i%4], i); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, c := range companies {
		want, err := postgres.ReadLeadsWith(ctx, s, oldSelectLeads, c)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != n/2 {
			t.Fatalf("the old statement read %d leads, want %d", len(want), n/2)
		}
		for _, limit := range []int{50, 7, 0} {
			var got []lead.Stored
			if limit == 0 {
				if got, err = lead.Collect(lead.All(ctx, s, c, lead.Filter{})); err != nil {
					t.Fatal(err)
				}
			} else {
				f := lead.Filter{Limit: limit}
				for {
					page, err := s.ListLeads(ctx, c, f)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, page.Leads...)
					if page.Next == nil {
						break
					}
					f.After = page.Next
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("pages of %d (-old +new):\n%s", limit, diff)
			}
		}
		for _, w := range want {
			one, err := s.GetLead(ctx, c, w.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(w, one); diff != "" {
				t.Errorf("lead %v (-old +new):\n%s", w.ID, diff)
			}
		}
	}
}
