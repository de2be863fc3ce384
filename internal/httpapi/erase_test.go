package httpapi_test

import (
	"context"

	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/webhook"
)

// column is one column of the database that can hold text.
type column struct{ table, name, kind string }

// textColumns lists every column of every table of the database's own schemas (River's and
// the session store's included) whose type can hold a person's details.
func textColumns(t *testing.T, e *env) []column {
	t.Helper()
	rows, err := e.store.DB().Query(`
SELECT c.table_schema || '.' || quote_ident(c.table_name), quote_ident(c.column_name), c.data_type
FROM information_schema.columns c
JOIN information_schema.tables t USING (table_schema, table_name)
WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
    AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea')
         OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar', '_jsonb')))`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []column
	for rows.Next() {
		var c column
		if err := rows.Scan(&c.table, &c.name, &c.kind); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// holding lists the columns that hold needle anywhere in any row, as table.column.
func holding(t *testing.T, e *env, cols []column, needle string) []string {
	t.Helper()
	var out []string
	for _, c := range cols {
		cond := c.name + `::text ILIKE '%' || $1 || '%'`
		if c.kind == "bytea" {
			cond = `position(convert_to($1, 'UTF8') IN ` + c.name + `) > 0`
		}
		var n int
		if err := e.store.DB().QueryRow(`SELECT count(*) FROM `+c.table+` WHERE `+cond, needle).Scan(&n); err != nil {
			t.Fatalf("searching %s.%s: %v", c.table, c.name, err)
		}
		if n > 0 {
			out = append(out, c.table+"."+c.name)
		}
	}
	return out
}

// Erasing a person leaves nothing of them in any table: their API lead (sent with an
// Idempotency-Key and a consent) and their chat lead (transcript, a contact change, a status
// change), their events' deliveries to a webhook that echoes what it gets and to the company's
// e-mail addresses. Every text, JSON and binary column of the database is searched for their
// details before (so the search is shown to find them, receivers' answers included) and after;
// another person's details are still found after.
func TestEraseLeavesNothingOfThePerson(t *testing.T) {
	t.Parallel()
	e := startWith(t, func(c *service.Config) { c.Events.AllowPrivate = true })
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	sdk := e.sdk(e.key(c, auth.Private, nil, true).Key)
	var hits atomic.Int32
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		hits.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		w.Write(body) // a receiver that answers with what it got
	}))
	t.Cleanup(echo.Close)
	secret, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.CreateEndpoint(ctx, c, echo.URL, nil, secret); err != nil {
		t.Fatal(err)
	}
	e.confirmedNotifyEmail(c, "ertekesites@ceg.example")

	consent := "Kérek híreket a Titkos Kft.-től."
	person := func(first, last, email, phone, details string) uuid.UUID {
		res, err := sdk.CreateLead(ctx, leadclient.Lead{FirstName: first, LastName: last, Email: email, Phone: phone,
			Details: details, Source: "form", Consent: &leadclient.ConsentInput{Marketing: true, Text: &consent}},
			leadclient.WithIdempotencyKey("urlap-"+email))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sdk.SetLeadStatus(ctx, res.LeadID, "contacted"); err != nil {
			t.Fatal(err)
		}
		return res.LeadID
	}
	seller, _, err := user.Create(ctx, e.store, c, "ertekesito@ceg.example", user.Member, "")
	if err != nil {
		t.Fatal(err)
	}
	note := func(leadID uuid.UUID, text string) {
		if _, err := e.store.AddLeadNote(ctx, c, leadID, seller.ID, text); err != nil {
			t.Fatal(err)
		}
	}
	note(person("Erzsébet", "Titkosné", "titkos.erzsebet@pelda.hu", "+36 30 987 6543", "Titkos kérés 7731"),
		"Visszahívtam titkos.erzsebet-et, Titkos jegyzet 5522")
	note(person("Márta", "Maradó", "marad.marta@pelda.hu", "+36 20 246 8135", "Maradó kérés 9911"), "Maradó jegyzet 1357")
	chatOf := func(lines ...string) {
		v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
		for _, l := range lines {
			v.send(l, nil)
		}
	}
	chatOf("Titkosné Erzsébet vagyok, TITKOS.erzsebet@pelda.hu, titkoskérdés-4411", "Az új számom +36 70 555 1234")
	chatOf("Maradó Márta vagyok, marad.marta@pelda.hu, maradó-üzenet-2468")

	for deadline := time.Now().Add(20 * time.Second); hits.Load() < 6; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the receiver got %d deliveries, want at least 6", hits.Load())
		}
	}
	cols := textColumns(t, e)
	gone := []string{"Titkosné", "titkos.erzsebet", "987 6543", "+36309876543", "555 1234", "titkoskérdés-4411", "Titkos kérés 7731",
		"Titkos jegyzet 5522"}
	kept := []string{"Maradó", "marad.marta", "246 8135", "maradó-üzenet-2468", "Maradó kérés 9911", "Maradó jegyzet 1357"}
	before := holding(t, e, cols, "titkos.erzsebet")
	for _, want := range []string{"public.leads.email", "public.chat_messages.text", "public.chat_sessions.email", "public.event_deliveries.last_response", "public.lead_notes.body"} {
		if !strings.Contains(strings.Join(before, " "), want) {
			t.Errorf("before the erasure the search does not find the address in %s (found in %v)", want, before)
		}
	}

	// A note is never sent to a webhook: the echoing receiver's answers do not hold it.
	if found := holding(t, e, cols, "Maradó jegyzet 1357"); len(found) != 1 || found[0] != "public.lead_notes.body" {
		t.Errorf("the note is held in %v, want public.lead_notes.body alone", found)
	}
	ids, err := e.store.LeadsByEmail(ctx, c, "Titkos.Erzsebet@PELDA.hu")
	if err != nil || len(ids) != 2 {
		t.Fatalf("leads of the address: %v, %v; want the API's and the chat's", ids, err)
	}
	n, err := e.store.EraseLeads(ctx, c, ids)
	if err != nil || n != 2 {
		t.Fatalf("erased %d (%v), want 2", n, err)
	}
	for _, needle := range gone {
		if found := holding(t, e, cols, needle); len(found) > 0 {
			t.Errorf("after the erasure %q is still in %v", needle, found)
		}
	}
	for _, needle := range kept {
		if found := holding(t, e, cols, needle); len(found) == 0 {
			t.Errorf("the other person's %q is gone too", needle)
		}
	}
	var erased int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM `+pgtest.Events+` WHERE company_id = $1 AND type = 'lead.erased' AND lead_id = ANY($2::uuid[])`,
		c, pq.StringArray{ids[0].String(), ids[1].String()}).Scan(&erased); err != nil {
		t.Fatal(err)
	}
	if erased != 2 {
		t.Errorf("%d lead.erased events, want 2", erased)
	}
}
