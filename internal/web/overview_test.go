package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/lead"
)

// overviewFixture is company A with leads over the last days from every source, widget events,
// a status change an hour after a lead arrived, and a chat whose question was handed over twice
// (in two spellings) and one that was answered.
func overviewFixture(t *testing.T) *leadsFixture {
	t.Helper()
	f := &leadsFixture{fixture: start(t)}
	db := f.store.DB()
	add := func(src lead.Source, daysAgo int, ref map[string]string) lead.Lead {
		l := f.addLead(t, f.a, lead.Lead{FirstName: "Teszt", Email: "t@pelda.hu", Source: src, ReferralData: ref})
		if _, err := db.Exec(`UPDATE leads SET created_at = now() - make_interval(days => $2) WHERE id = $1`, l.ID, daysAgo); err != nil {
			t.Fatal(err)
		}
		return l
	}
	first := add(lead.SourceForm, 2, map[string]string{"utm_source": "google", "landing_page": "https://ceg.hu/napelem"})
	add(lead.SourceForm, 2, map[string]string{"utm_source": "google"})
	add(lead.SourceChat, 2, map[string]string{"utm_source": "facebook"})
	add(lead.SourceAPI, 0, nil)
	add(lead.SourceForm, 45, map[string]string{"utm_source": "regi"}) // in the 90 days only
	f.addLead(t, f.b, lead.Lead{FirstName: "B", Email: "b@pelda.hu", Source: lead.SourceForm, ReferralData: map[string]string{"utm_source": "idegen"}})
	// The leads were moved back in time: their daily counts are counted again from them.
	for _, q := range recountDaily {
		if _, err := db.Exec(q, f.a.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO lead_history (company_id, lead_id, field, old_value, new_value, origin, created_at)
		SELECT company_id, id, 'status', 'new', 'contacted', 'dashboard', created_at + interval '90 minutes' FROM leads WHERE id = $1`, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO widget_events (company_id, day, shown, opened) VALUES
		($1, (now() AT TIME ZONE 'Europe/Budapest')::date, 200, 40), ($1, (now() AT TIME ZONE 'Europe/Budapest')::date - 60, 1000, 100),
		($2, (now() AT TIME ZONE 'Europe/Budapest')::date, 7, 7)`, f.a.ID, f.b.ID); err != nil {
		t.Fatal(err)
	}
	// A visitor's message is flagged handed over when the assistant's reply handed it over.
	handover := "Erre a kérdésre sajnos nem tudok pontos választ adni, de kollégánk szívesen segít."
	chat := func(session string, pairs ...string) {
		if _, err := db.Exec(`INSERT INTO chat_sessions (company_id, session_id) VALUES ($1, $2)`, f.a.ID, session); err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(pairs); i += 2 {
			if _, err := db.Exec(`INSERT INTO chat_messages (company_id, session_id, visitor, text, handed_over)
				VALUES ($1, $2, true, $3, $4 = $5), ($1, $2, false, $4, false)`,
				f.a.ID, session, pairs[i], pairs[i+1], handover); err != nil {
				t.Fatal(err)
			}
		}
	}
	chat("overview-session-0000000001", "Van parkolási lehetőség?", handover, "Mikor nyitnak?", "Hétköznap 8 és 17 óra között.")
	chat("overview-session-0000000002", "van  parkolási lehetőség?", handover)
	return f
}

// The landing page shows the period's leads per day by source as a chart and as a table with
// the same figures, the funnel, the top sources and pages, the median time to the first status
// change and the handed-over questions, grouped; an owner's "add to FAQ" opens the assistant
// page with the question filled in; a member sees all but that action.
func TestOverviewPage(t *testing.T) {
	t.Parallel()
	f := overviewFixture(t)
	owner := f.client(t)
	owner.login(f.owner)
	r := owner.get("/app/")
	if r.status != http.StatusOK {
		t.Fatalf("GET /app/: %d", r.status)
	}
	day := func(daysAgo int) string {
		return time.Now().In(budapest(t)).AddDate(0, 0, -daysAgo).Format("2006-01-02")
	}
	for _, want := range []string{
		`<tr data-day="` + day(2) + `"><th scope="row">` + strings.ReplaceAll(day(2), "-", ". ") + `.</th><td>2</td><td>0</td><td>1</td><td>0</td><td>3</td></tr>`,
		`<tr data-day="` + day(0) + `">`, `<td>0</td><td>1</td><td>0</td><td>0</td><td>1</td></tr>`,
		`data-funnel="shown">200<`, `data-funnel="opened">40 <span class="hint">(20%)`, `data-funnel="conversations">2 `, `data-funnel="leads">4<`,
		`<td class="mono">google</td><td>2</td>`, `<td class="mono">facebook</td><td>1</td>`, `<td class="mono">https://ceg.hu/napelem</td><td>1</td>`,
		`data-median>1 óra 30 perc</strong>`,
		`<td class="note">Van parkolási lehetőség?</td><td>2</td>`,
		`href="/app/assistant?kerdes=Van&#43;parkol%C3%A1si&#43;lehet%C5%91s%C3%A9g%3F"`,
		`<svg class="chart"`, `<rect class="src-form"`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("the overview lacks %q", want)
		}
	}
	for _, absent := range []string{"regi", "idegen", "Mikor nyitnak"} {
		if strings.Contains(r.body, absent) {
			t.Errorf("the 30 days' overview shows %q", absent)
		}
	}
	if n := strings.Count(r.body, "<tr data-day="); n != 30 {
		t.Errorf("%d days in the table, want 30", n)
	}
	r = owner.get("/app/?napok=90")
	if n := strings.Count(r.body, "<tr data-day="); n != 90 || !strings.Contains(r.body, "regi") || !strings.Contains(r.body, `data-funnel="shown">1`+"\u202f"+`200<`) {
		t.Errorf("90 days: %d days, the old lead's source shown: %v", n, strings.Contains(r.body, "regi"))
	}
	if r := owner.get("/app/?napok=7"); r.status != http.StatusBadRequest {
		t.Errorf("an unknown period: %d", r.status)
	}

	r = owner.get("/app/assistant?kerdes=" + url.QueryEscape("Van parkolási lehetőség?"))
	if r.status != http.StatusOK || !strings.Contains(r.body, `name="faq_question" maxlength="500" value="Van parkolási lehetőség?"`) ||
		!strings.Contains(r.body, "autofocus") {
		t.Errorf("the assistant page does not fill in the question: %d", r.status)
	}

	member := f.client(t)
	member.login(f.member)
	r = member.get("/app/")
	if r.status != http.StatusOK || !strings.Contains(r.body, "Van parkolási lehetőség?") || strings.Contains(r.body, "/app/assistant?kerdes=") {
		t.Errorf("a member's overview: %d, with the owner's action: %v", r.status, strings.Contains(r.body, "/app/assistant?kerdes="))
	}
	other := f.client(t)
	other.login(f.ownerB)
	if r := other.get("/app/"); strings.Contains(r.body, "google") || !strings.Contains(r.body, `data-funnel="shown">7<`) {
		t.Errorf("company B sees A's figures, or not its own")
	}
}

// recountDaily counts company $1's daily leads by source and referral value again from its
// leads, as the migration that made the counts did.
var recountDaily = []string{
	`DELETE FROM lead_daily WHERE company_id = $1`,
	`DELETE FROM lead_referral_daily WHERE company_id = $1`,
	`INSERT INTO lead_daily (company_id, day, source, count)
SELECT company_id, (created_at AT TIME ZONE 'Europe/Budapest')::date, source, count(*) FROM leads WHERE company_id = $1 GROUP BY 1, 2, 3`,
	`INSERT INTO lead_referral_daily (company_id, day, key, value_key, value, count)
SELECT l.company_id, (l.created_at AT TIME ZONE 'Europe/Budapest')::date, k, md5(l.referral_data->>k)::uuid, l.referral_data->>k, count(*)
FROM leads l, unnest(ARRAY['utm_source', 'landing_page']) AS k
WHERE l.company_id = $1 AND l.referral_data->>k <> ''
GROUP BY 1, 2, 3, 4, 5`,
}

func budapest(t *testing.T) *time.Location {
	l, err := time.LoadLocation("Europe/Budapest")
	if err != nil {
		t.Fatal(err)
	}
	return l
}
