package leadclient_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

// storedLead is a Lead object as the service writes it, with every field present.
func storedLead(id, status string) map[string]any {
	return map[string]any{
		"lead_id": id, "status": status, "over_limit": false, "first_name": "Anna", "last_name": nil,
		"email": "anna@example.hu", "phone": nil, "phone_e164": nil, "service": nil, "details": nil,
		"source": "api", "referral_data": nil, "consent": nil, "session_id": nil,
		"created_at": "2025-03-14T09:21:07.512Z", "updated_at": "2025-03-14T09:21:07.512Z",
	}
}

// pages serves n leads in pages of size, the cursor being the index of the next lead.
func pages(n, size int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		from, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		var data []map[string]any
		for i := from; i < min(from+size, n); i++ {
			data = append(data, storedLead(fmt.Sprintf("0b7f3c52-5f3e-4c8e-9a7a-%012d", i), "new"))
		}
		var next any
		if from+size < n {
			next = strconv.Itoa(from + size)
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": data, "next_cursor": next})
	}
}

func TestListLeads(t *testing.T) {
	t.Run("follows the cursor to the last page", func(t *testing.T) {
		srv, s := serve(t, pages(5, 2))
		var got []string
		for l, err := range newSDK(t, srv.URL).ListLeads(context.Background(), leadclient.LeadFilter{}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, l.LeadId.String()[24:])
		}
		if fmt.Sprint(got) != "[000000000000 000000000001 000000000002 000000000003 000000000004]" {
			t.Errorf("leads = %v", got)
		}
		var cursors []string
		for _, r := range s.requests() {
			q, _ := url.ParseQuery(r.query)
			cursors = append(cursors, q.Get("cursor"))
			if r.method != http.MethodGet || r.path != "/api/v1/leads" || r.header.Get("X-Api-Key") != privateKey {
				t.Errorf("request = %s %s, key %q", r.method, r.path, r.header.Get("X-Api-Key"))
			}
		}
		if fmt.Sprint(cursors) != "[ 2 4]" {
			t.Errorf("cursors sent = %q", cursors)
		}
	})

	t.Run("fetches no page the loop does not want", func(t *testing.T) {
		srv, s := serve(t, pages(5, 2))
		for _, err := range newSDK(t, srv.URL).ListLeads(context.Background(), leadclient.LeadFilter{}) {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		if n := len(s.requests()); n != 1 {
			t.Errorf("%d requests for one lead, want 1", n)
		}
	})

	t.Run("sends the filter", func(t *testing.T) {
		srv, s := serve(t, pages(0, 2))
		since := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
		f := leadclient.LeadFilter{Status: leadclient.LeadStatusWon, Source: "chat", Since: since,
			Until: since.AddDate(0, 1, 0), PageSize: 200}
		for _, err := range newSDK(t, srv.URL).ListLeads(context.Background(), f) {
			t.Fatalf("yielded on an empty list: %v", err)
		}
		q, _ := url.ParseQuery(s.requests()[0].query)
		want := url.Values{"status": {"won"}, "source": {"chat"}, "since": {"2025-03-01T00:00:00Z"},
			"until": {"2025-04-01T00:00:00Z"}, "limit": {"200"}}
		if q.Encode() != want.Encode() {
			t.Errorf("query = %s, want %s", q.Encode(), want.Encode())
		}
	})

	t.Run("an error ends the walk", func(t *testing.T) {
		srv, _ := serve(t, pages(5, 2), failing(400, "invalid_cursor", "A lapozási kurzor (cursor) érvénytelen."))
		var n int
		var last error
		for _, err := range newSDK(t, srv.URL, leadclient.WithRetries(0)).ListLeads(context.Background(), leadclient.LeadFilter{}) {
			n++
			last = err
		}
		if n != 3 || !leadclient.IsCode(last, leadclient.ErrorCodeInvalidCursor) {
			t.Errorf("%d yields, the last %v; want two leads, then invalid_cursor", n, last)
		}
	})

	t.Run("retries a page like any read", func(t *testing.T) {
		srv, s := serve(t, failing(503, "unavailable", "Nem érhető el."), pages(1, 2))
		page, err := newSDK(t, srv.URL).ListLeadsPage(context.Background(), leadclient.LeadFilter{}, "")
		if err != nil || len(page.Data) != 1 || page.NextCursor != nil || len(s.requests()) != 2 {
			t.Errorf("page = %+v, %v after %d requests", page, err, len(s.requests()))
		}
	})
}

func TestOneLead(t *testing.T) {
	lead := func(status string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusOK, storedLead(leadID.String(), status))
		}
	}
	ctx := context.Background()

	t.Run("get", func(t *testing.T) {
		srv, s := serve(t, lead("new"))
		l, err := newSDK(t, srv.URL).GetLead(ctx, leadID)
		if err != nil || l.LeadId != leadID || *l.Email != "anna@example.hu" || l.Phone != nil {
			t.Fatalf("lead = %+v, %v", l, err)
		}
		if r := s.requests()[0]; r.method != http.MethodGet || r.path != "/api/v1/leads/"+leadID.String() {
			t.Errorf("request = %s %s", r.method, r.path)
		}
	})

	t.Run("messages", func(t *testing.T) {
		srv, s := serve(t, func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusOK, map[string]any{"data": []map[string]any{
				{"role": "visitor", "text": "Szia", "created_at": "2025-03-14T10:01:58.230Z"},
				{"role": "assistant", "text": "Üdv!", "created_at": "2025-03-14T10:01:58.230Z"},
			}})
		})
		msgs, err := newSDK(t, srv.URL).LeadMessages(ctx, leadID)
		if err != nil || len(msgs) != 2 || msgs[0].Role != leadclient.LeadMessageRoleVisitor || msgs[1].Text != "Üdv!" {
			t.Fatalf("messages = %+v, %v", msgs, err)
		}
		if r := s.requests()[0]; r.path != "/api/v1/leads/"+leadID.String()+"/messages" {
			t.Errorf("path = %s", r.path)
		}
	})

	t.Run("set status", func(t *testing.T) {
		srv, s := serve(t, failing(503, "unavailable", "Nem érhető el."), lead("contacted"))
		l, err := newSDK(t, srv.URL).SetLeadStatus(ctx, leadID, leadclient.LeadStatusContacted)
		if err != nil || l.Status != leadclient.LeadStatusContacted {
			t.Fatalf("lead = %+v, %v", l, err)
		}
		reqs := s.requests()
		if len(reqs) != 2 {
			t.Errorf("%d requests, want a retry after the 503", len(reqs))
		}
		r := reqs[1]
		if r.method != http.MethodPatch || r.path != "/api/v1/leads/"+leadID.String() || string(r.body) != `{"status":"contacted"}` ||
			r.header.Get("Content-Type") != "application/json" {
			t.Errorf("request = %s %s %s (%s)", r.method, r.path, r.body, r.header.Get("Content-Type"))
		}
	})

	t.Run("set assignee", func(t *testing.T) {
		srv, s := serve(t, lead("new"), lead("new"))
		sdk, userID := newSDK(t, srv.URL), uuid.New()
		if _, err := sdk.SetLeadAssignee(ctx, leadID, userID); err != nil {
			t.Fatal(err)
		}
		if _, err := sdk.SetLeadAssignee(ctx, leadID, uuid.Nil); err != nil {
			t.Fatal(err)
		}
		reqs := s.requests()
		if len(reqs) != 2 || string(reqs[0].body) != `{"assignee_id":"`+userID.String()+`"}` || string(reqs[1].body) != `{"assignee_id":null}` {
			t.Errorf("requests = %q, %q", reqs[0].body, reqs[len(reqs)-1].body)
		}
	})

	t.Run("delete", func(t *testing.T) {
		srv, s := serve(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
		if err := newSDK(t, srv.URL).DeleteLead(ctx, leadID); err != nil {
			t.Fatal(err)
		}
		if r := s.requests()[0]; r.method != http.MethodDelete || r.path != "/api/v1/leads/"+leadID.String() {
			t.Errorf("request = %s %s", r.method, r.path)
		}
	})

	t.Run("delete retries only what did nothing", func(t *testing.T) {
		srv, s := serve(t, failing(500, "internal", "Belső hiba."), func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		})
		err := newSDK(t, srv.URL).DeleteLead(ctx, leadID)
		if !leadclient.IsCode(err, leadclient.ErrorCodeInternal) || len(s.requests()) != 1 {
			t.Errorf("err = %v after %d requests; want the 500, not retried", err, len(s.requests()))
		}
	})

	t.Run("not found", func(t *testing.T) {
		srv, _ := serve(t, failing(404, "lead_not_found", "A lead nem található."))
		_, err := newSDK(t, srv.URL).GetLead(ctx, leadID)
		if !leadclient.IsCode(err, leadclient.ErrorCodeLeadNotFound) {
			t.Errorf("err = %v, want lead_not_found", err)
		}
	})
}
