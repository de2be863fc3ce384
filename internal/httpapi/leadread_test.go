package httpapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
)

// createLeads stores n leads through the API and returns their ids, oldest first.
func createLeads(t *testing.T, sdk *leadclient.SDK, n int, edit func(i int, l *leadclient.Lead)) []uuid.UUID {
	t.Helper()
	var out []uuid.UUID
	for i := range n {
		l := leadclient.Lead{FirstName: fmt.Sprintf("Lead %d", i), Email: fmt.Sprintf("lead%d@example.hu", i)}
		if edit != nil {
			edit(i, &l)
		}
		res, err := sdk.CreateLead(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, res.LeadID)
	}
	return out
}

// Pages walked while new leads arrive hold every lead that was there at the start once, newest
// first, and none of the new ones.
func TestListLeadsPagesWhileLeadsArrive(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	sdk := e.sdk(e.key(c, auth.Private, nil, true).Key)
	other := e.sdk(e.key(e.company(plan.Enterprise, -1), auth.Private, nil, true).Key)
	createLeads(t, other, 3, nil)
	ids := createLeads(t, sdk, 23, nil)
	slices.Reverse(ids)

	ctx := context.Background()
	var got []uuid.UUID
	cursor, pages := "", 0
	for {
		page, err := sdk.ListLeadsPage(ctx, leadclient.LeadFilter{PageSize: 5}, cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, l := range page.Data {
			got = append(got, l.LeadId)
		}
		createLeads(t, sdk, 2, nil) // arrive between pages
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Errorf("pages differ from the leads at the start (-want +got):\n%s", diff)
	}
	if pages != 5 {
		t.Errorf("%d pages of 5 for 23 leads, want 5", pages)
	}

	var all []uuid.UUID
	for l, err := range sdk.ListLeads(ctx, leadclient.LeadFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, l.LeadId)
	}
	if len(all) != 23+2*pages || !slices.Equal(all[2*pages:], ids) {
		t.Errorf("the iterator gave %d leads, want the 23 after the %d new ones", len(all), 2*pages)
	}
}

func TestListLeadsFiltersAndBadInput(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	key := e.key(c, auth.Private, nil, true).Key
	sdk := e.sdk(key)
	early := createLeads(t, sdk, 2, func(i int, l *leadclient.Lead) { l.Source = "form" })
	between := time.Now()
	late := createLeads(t, sdk, 2, func(i int, l *leadclient.Lead) { l.Source = "manual" })
	if _, err := sdk.SetLeadStatus(context.Background(), late[0], leadclient.LeadStatusWon); err != nil {
		t.Fatal(err)
	}
	list := func(f leadclient.LeadFilter) []uuid.UUID {
		t.Helper()
		var out []uuid.UUID
		for l, err := range sdk.ListLeads(context.Background(), f) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, l.LeadId)
		}
		return out
	}
	for _, tt := range []struct {
		name string
		f    leadclient.LeadFilter
		want []uuid.UUID
	}{
		{"status", leadclient.LeadFilter{Status: leadclient.LeadStatusWon}, []uuid.UUID{late[0]}},
		{"source", leadclient.LeadFilter{Source: "form"}, []uuid.UUID{early[1], early[0]}},
		{"since", leadclient.LeadFilter{Since: between}, []uuid.UUID{late[1], late[0]}},
		{"until", leadclient.LeadFilter{Until: between, PageSize: 1}, []uuid.UUID{early[1], early[0]}},
		{"status and source", leadclient.LeadFilter{Status: leadclient.LeadStatusNew, Source: "manual"}, []uuid.UUID{late[1]}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, list(tt.f)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	page, err := sdk.ListLeadsPage(context.Background(), leadclient.LeadFilter{PageSize: 1}, "")
	if err != nil || page.NextCursor == nil {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	cursor := *page.NextCursor
	tampered := []byte(cursor)
	tampered[3] = map[bool]byte{true: 'b', false: 'a'}[tampered[3] == 'a']
	for _, tt := range []struct{ name, query, code string }{
		{"tampered cursor", "cursor=" + string(tampered), "invalid_cursor"},
		{"made-up cursor", "cursor=page2", "invalid_cursor"},
		{"over-long cursor", "cursor=" + strings.Repeat("A", 201), "invalid_cursor"},
		{"cursor one character long", "cursor=" + cursor + "A", "invalid_cursor"},
		{"cursor one character short", "cursor=" + cursor[1:], "invalid_cursor"},
		{"cursor not base64url", "cursor=" + strings.Repeat("!", len(cursor)), "invalid_cursor"},
		{"cursor with padding", "cursor=" + cursor[:len(cursor)-1] + "=", "invalid_cursor"},
		{"cursor at the int64 minimum", "cursor=" + craftedCursor(math.MinInt64), "invalid_cursor"},
		{"cursor at the int64 maximum", "cursor=" + craftedCursor(math.MaxInt64), "invalid_cursor"},
		{"cursor before 1970", "cursor=" + craftedCursor(-1), "invalid_cursor"},
		{"cursor of another filter", "status=new&cursor=" + cursor, "invalid_cursor"},
		{"unknown status", "status=archived", "invalid_status"},
		{"unknown source", "source=fax", "invalid_source"},
		{"since without a zone", "since=2025-03-01T00:00:00", "invalid_field"},
		{"until not a time", "until=yesterday", "invalid_field"},
		{"limit zero", "limit=0", "invalid_field"},
		{"limit over 200", "limit=201", "invalid_field"},
		{"limit not a number", "limit=ten", "invalid_field"},
		{"limit not an integer", "limit=1.5", "invalid_field"},
		{"limit negative", "limit=-1", "invalid_field"},
		{"since a date without a time", "since=2025-03-01", "invalid_field"},
		{"until a date without a time", "until=2025-03-01", "invalid_field"},
		{"email over 254 characters", "email=" + strings.Repeat("a", 244) + "@example.hu", "invalid_field"},
		{"status in capitals", "status=NEW", "invalid_status"},
		{"source in capitals", "source=FORM", "invalid_source"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("GET", "/api/v1/leads?"+tt.query, "", map[string]string{"X-Api-Key": key})
			wantError(t, resp, body, 400, tt.code)
		})
	}
	resp, body := e.do("GET", "/api/v1/leads?limit=200&cursor="+url.QueryEscape(cursor), "", map[string]string{"Authorization": "Bearer " + key})
	if resp.StatusCode != 200 || len(body["data"].([]any)) != 3 || body["next_cursor"] != nil {
		t.Errorf("the rest after the cursor: %d %v", resp.StatusCode, body)
	}
}

// craftedCursor is a cursor of the first version (its checksum covers no filter) at micros, with
// a valid checksum, as someone who read the format would make it.
func craftedCursor(micros int64) string {
	b := make([]byte, 25, 29)
	b[0] = 1
	binary.BigEndian.PutUint64(b[1:9], uint64(micros))
	id := uuid.New()
	copy(b[9:], id[:])
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(append(b, sum[:4]...))
}

// Only a private key from a server reads or changes leads, and only its own company's.
func TestLeadCallsKeysAndCompanies(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	priv := e.key(c, auth.Private, nil, true).Key
	pub := e.key(c, auth.Public, []string{"example.hu"}, true).Key
	lead := createLeads(t, e.sdk(priv), 1, nil)[0]
	id := lead.String()
	otherKey := e.key(e.company(plan.Enterprise, -1), auth.Private, nil, true).Key

	calls := []struct{ method, path, body string }{
		{"GET", "/api/v1/leads", ""},
		{"GET", "/api/v1/leads/" + id, ""},
		{"GET", "/api/v1/leads/" + id + "/messages", ""},
		{"PATCH", "/api/v1/leads/" + id, `{"status": "contacted"}`},
		{"DELETE", "/api/v1/leads/" + id, ""},
	}
	for _, call := range calls {
		name := call.method + " " + strings.Replace(call.path, id, "{id}", 1)
		for _, tt := range []struct {
			name   string
			header map[string]string
			status int
			code   string
		}{
			{"public key", map[string]string{"X-Api-Key": pub}, 403, "private_key_required"},
			{"public key from its own site", map[string]string{"X-Api-Key": pub, "Origin": "https://example.hu"}, 403, "private_key_required"},
			{"private key from a browser", map[string]string{"X-Api-Key": priv, "Origin": "https://example.hu"}, 403, "private_key_from_browser"},
			{"no key", nil, 401, "missing_api_key"},
			{"unknown key", map[string]string{"Authorization": "Bearer lc_priv_nope"}, 401, "invalid_api_key"},
		} {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				resp, body := e.do(call.method, call.path, call.body, tt.header)
				wantError(t, resp, body, tt.status, tt.code)
			})
		}
		if call.method == "GET" && call.path == "/api/v1/leads" {
			continue
		}
		t.Run(name+"/another company's key", func(t *testing.T) {
			resp, body := e.do(call.method, call.path, call.body, map[string]string{"X-Api-Key": otherKey})
			wantError(t, resp, body, 404, "lead_not_found")
		})
		t.Run(name+"/an id that is no UUID", func(t *testing.T) {
			resp, body := e.do(call.method, strings.Replace(call.path, id, "12345", 1), call.body, map[string]string{"X-Api-Key": priv})
			wantError(t, resp, body, 404, "lead_not_found")
		})
	}
	t.Run("the key in a PATCH body is not read", func(t *testing.T) {
		resp, body := e.do("PATCH", "/api/v1/leads/"+id, `{"api_key": "`+priv+`", "status": "won"}`, nil)
		wantError(t, resp, body, 401, "missing_api_key")
	})
	if l, err := e.sdk(priv).GetLead(context.Background(), lead); err != nil || l.Status != leadclient.LeadStatusNew {
		t.Errorf("after the refused calls: %+v, %v; want the lead unchanged", l, err)
	}
}

func TestUpdateLeadStatus(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, 1)
	key := e.key(c, auth.Private, nil, true).Key
	sdk := e.sdk(key)
	ids := createLeads(t, sdk, 2, nil)
	over := ids[1]
	ctx := context.Background()
	before, err := sdk.GetLead(ctx, over)
	if err != nil || before.Status != leadclient.LeadStatusOverLimit || !before.OverLimit {
		t.Fatalf("second lead = %+v, %v; want over_limit", before, err)
	}

	after, err := sdk.SetLeadStatus(ctx, over, leadclient.LeadStatusContacted)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != leadclient.LeadStatusContacted || !after.OverLimit || !after.UpdatedAt.After(before.UpdatedAt) ||
		!after.CreatedAt.Equal(before.CreatedAt) {
		t.Errorf("after PATCH: status %s, over_limit %v, updated %v → %v", after.Status, after.OverLimit, before.UpdatedAt, after.UpdatedAt)
	}
	if got, _ := sdk.GetLead(ctx, over); got == nil || got.Status != leadclient.LeadStatusContacted || !got.OverLimit {
		t.Errorf("read back: %+v", got)
	}
	if _, err := sdk.SetLeadStatus(ctx, over, leadclient.LeadStatusContacted); err != nil {
		t.Fatal(err)
	}
	h, err := e.store.LeadHistory(ctx, c, over)
	want := []lead.HistoryEntry{{Field: lead.FieldStatus, Old: "over_limit", New: "contacted", Origin: lead.OriginAPI}}
	if err != nil || cmp.Diff(want, h, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".At" }, cmp.Ignore())) != "" {
		t.Errorf("history = %+v, %v; want one move from the API", h, err)
	}

	path := "/api/v1/leads/" + over.String()
	auth := map[string]string{"X-Api-Key": key}
	for _, tt := range []struct {
		name, body string
		header     map[string]string
		status     int
		code       string
	}{
		{"unknown status", `{"status": "archived"}`, auth, 400, "invalid_status"},
		{"over_limit is where a lead starts", `{"status": "over_limit"}`, auth, 400, "invalid_status"},
		{"status not a string", `{"status": 3}`, auth, 400, "invalid_status"},
		{"no status", `{"note": "x"}`, auth, 400, "missing_field"},
		{"not JSON", `status=won`, auth, 400, "invalid_json"},
		{"not an object", `["won"]`, auth, 400, "invalid_json"},
		{"not declared JSON", `{"status": "won"}`, map[string]string{"X-Api-Key": key, "Content-Type": "text/plain"}, 415, "unsupported_media_type"},
		{"too large", `{"status": "won", "x": "` + strings.Repeat("a", 70<<10) + `"}`, auth, 413, "body_too_large"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("PATCH", path, tt.body, tt.header)
			wantError(t, resp, body, tt.status, tt.code)
		})
	}
	if h, _ := e.store.LeadHistory(ctx, c, over); len(h) != 1 {
		t.Errorf("refused changes left history: %+v", h)
	}
}

// A chat lead's transcript reads back in order; DELETE erases the lead, its chat and its
// history, and every call after it finds nothing.
func TestLeadMessagesAndErase(t *testing.T) {
	t.Parallel()
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	key := e.key(c, auth.Private, nil, true).Key
	sdk := e.sdk(key)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	v.send("Jó napot! Mennyibe kerül egy klíma?", nil)
	r := v.send("Kovács Péter vagyok, peter.kovacs@example.hu", nil)
	if r.LeadId == nil {
		t.Fatal("no chat lead")
	}
	id := *r.LeadId
	plain := createLeads(t, sdk, 1, nil)[0]

	l, err := sdk.GetLead(ctx, id)
	if err != nil || l.Source != "chat" || l.SessionId == nil || *l.SessionId != *v.session || l.Consent != nil {
		t.Fatalf("chat lead = %+v, %v", l, err)
	}
	msgs, err := sdk.LeadMessages(ctx, id)
	if err != nil || len(msgs) != 4 {
		t.Fatalf("messages = %+v, %v; want two turns", msgs, err)
	}
	for i, m := range msgs {
		want := leadclient.LeadMessageRoleVisitor
		if i%2 == 1 {
			want = leadclient.LeadMessageRoleAssistant
		}
		if m.Role != want || m.Text == "" || (i > 0 && m.CreatedAt.Before(msgs[i-1].CreatedAt)) {
			t.Errorf("message %d = %+v", i, m)
		}
	}
	if msgs[0].Text != "Jó napot! Mennyibe kerül egy klíma?" {
		t.Errorf("first message %q", msgs[0].Text)
	}
	if msgs, err := sdk.LeadMessages(ctx, plain); err != nil || msgs == nil || len(msgs) != 0 {
		t.Errorf("messages of a lead from the API = %#v, %v; want an empty list", msgs, err)
	}
	if _, err := sdk.SetLeadStatus(ctx, id, leadclient.LeadStatusQualified); err != nil {
		t.Fatal(err)
	}
	_, counterBefore := e.count(c)

	if err := sdk.DeleteLead(ctx, id); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"get":      func() error { _, err := sdk.GetLead(ctx, id); return err }(),
		"messages": func() error { _, err := sdk.LeadMessages(ctx, id); return err }(),
		"status":   func() error { _, err := sdk.SetLeadStatus(ctx, id, leadclient.LeadStatusWon); return err }(),
		"delete":   sdk.DeleteLead(ctx, id),
	} {
		if !leadclient.IsCode(err, leadclient.ErrorCodeLeadNotFound) {
			t.Errorf("%s after the erase: %v, want lead_not_found", name, err)
		}
	}
	var rows int
	err = e.store.DB().QueryRow(`SELECT (SELECT count(*) FROM leads WHERE id = $1)
		+ (SELECT count(*) FROM lead_history WHERE lead_id = $1)
		+ (SELECT count(*) FROM chat_sessions WHERE company_id = $2 AND session_id = $3)
		+ (SELECT count(*) FROM chat_messages WHERE company_id = $2 AND session_id = $3)`, id, c, *v.session).Scan(&rows)
	if err != nil || rows != 0 {
		t.Errorf("%d rows of the erased lead remain (%v)", rows, err)
	}
	leads, counter := e.count(c)
	if leads != 1 || counter != counterBefore {
		t.Errorf("after the erase: %d leads, counter %d; want the other lead, counter still %d", leads, counter, counterBefore)
	}
	resp, _ := e.do("OPTIONS", "/api/v1/leads/"+id.String(), "", map[string]string{"Origin": "https://crm.example", "Access-Control-Request-Method": "DELETE"})
	if resp.StatusCode != http.StatusNoContent || !strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "DELETE") {
		t.Errorf("preflight: %d, methods %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Methods"))
	}
}

// Reading leads spends a budget of its own per private key: a client paging through its leads
// never stops its own lead creates.
func TestLeadReadsHaveTheirOwnRateLimit(t *testing.T) {
	t.Parallel()
	e := startWith(t, limited)
	c := e.company(plan.Enterprise, -1)
	key := e.key(c, auth.Private, nil, true).Key
	h := map[string]string{"X-Api-Key": key}
	for i := range 5 {
		if resp, _ := e.do("GET", "/api/v1/leads", "", h); resp.StatusCode != 200 {
			t.Fatalf("read %d: status %d", i+1, resp.StatusCode)
		}
	}
	resp, body := e.do("GET", "/api/v1/leads/"+uuid.NewString(), "", h)
	wantError(t, resp, body, 429, "rate_limited")
	if resp.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if resp, body := e.do("POST", "/api/v1/leads", okBody, h); resp.StatusCode != 201 {
		t.Errorf("a create after the reads ran out: %d %v", resp.StatusCode, body)
	}
}

// The list writes each lead as PostgreSQL builds it; every field equals what GET of the one lead
// answers (times compared as instants), for a lead with every field set and one with none.
func TestListItemsMatchGetLead(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	key := e.key(c, auth.Private, nil, true).Key
	sdk := e.sdk(key)
	text := "Kérek híreket."
	createLeads(t, sdk, 1, func(_ int, l *leadclient.Lead) {
		l.LastName, l.Phone, l.Service, l.Details, l.Source = "Kovács", "+36 30 123 4567", "Napelem", "Tető\n120 m² \"idézet\"", "form"
		l.ReferralData = map[string]string{"utm_source": "google", "landing_page": "https://example.hu/?a=1&b=<2>"}
		l.Consent = &leadclient.ConsentInput{Marketing: true, Text: &text}
	})
	createLeads(t, sdk, 1, nil)
	v := &chatter{t: t, e: e, key: e.key(c, auth.Public, nil, true).Key}
	v.send("Nagy Anna vagyok, anna@example.hu", nil)

	hdr := map[string]string{"X-Api-Key": key}
	resp, list := e.do("GET", "/api/v1/leads", "", hdr)
	if resp.StatusCode != 200 {
		t.Fatalf("list: %d %v", resp.StatusCode, list)
	}
	items, _ := list["data"].([]any)
	if len(items) != 3 || list["next_cursor"] != nil {
		t.Fatalf("list = %v", list)
	}
	for _, it := range items {
		item := it.(map[string]any)
		_, one := e.do("GET", "/api/v1/leads/"+item["lead_id"].(string), "", hdr)
		for _, k := range []string{"created_at", "updated_at"} {
			a, errA := time.Parse(time.RFC3339Nano, item[k].(string))
			b, errB := time.Parse(time.RFC3339Nano, one[k].(string))
			if errA != nil || errB != nil || !a.Equal(b) {
				t.Errorf("%s: list %v, get %v", k, item[k], one[k])
			}
			delete(item, k)
			delete(one, k)
		}
		if diff := cmp.Diff(one, item); diff != "" {
			t.Errorf("lead %s: list item differs from GET (-get +list):\n%s", item["lead_id"], diff)
		}
	}
}
