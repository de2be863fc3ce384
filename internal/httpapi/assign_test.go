package httpapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/user"
)

// PATCH gives a lead to a user of the key's company or to nobody, and refuses anyone else
// with invalid_assignee, changing nothing; the Lead object carries assignee_id everywhere.
func TestUpdateLeadAssignee(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	c, other := e.company(plan.Business, -1), e.company(plan.Business, -1)
	key := e.key(c, auth.Private, nil, true).Key
	sdk := e.sdk(key)
	mk := func(company uuid.UUID, email string) user.User {
		u, _, err := user.Create(ctx, e.store, company, email, user.Member, "")
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	anna, stranger, gone := mk(c, "anna@a.example"), mk(other, "idegen@b.example"), mk(c, "volt@a.example")
	if _, err := e.store.RemoveUser(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	id := createLeads(t, sdk, 1, nil)[0]

	l, err := sdk.SetLeadAssignee(ctx, id, anna.ID)
	if err != nil || l.AssigneeId == nil || *l.AssigneeId != anna.ID {
		t.Fatalf("assign: %+v, %v", l, err)
	}
	var list []leadclient.StoredLead
	for l, err := range sdk.ListLeads(ctx, leadclient.LeadFilter{}) {
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, l)
	}
	if len(list) != 1 || list[0].AssigneeId == nil || *list[0].AssigneeId != anna.ID {
		t.Errorf("the list's lead: %+v", list)
	}

	path, hdr := "/api/v1/leads/"+id.String(), map[string]string{"X-Api-Key": key}
	for _, tt := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"another company's user", `{"assignee_id": "` + stranger.ID.String() + `"}`, 400, "invalid_assignee"},
		{"a removed user", `{"assignee_id": "` + gone.ID.String() + `"}`, 400, "invalid_assignee"},
		{"no such user", `{"assignee_id": "` + uuid.NewString() + `"}`, 400, "invalid_assignee"},
		{"not an id", `{"assignee_id": "anna@a.example"}`, 400, "invalid_field"},
		{"with a status, refused together", `{"status": "won", "assignee_id": "` + stranger.ID.String() + `"}`, 400, "invalid_assignee"},
		{"nothing to change", `{}`, 400, "missing_field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := e.do("PATCH", path, tt.body, hdr)
			wantError(t, resp, body, tt.status, tt.code)
		})
	}
	_, err = sdk.SetLeadAssignee(ctx, id, stranger.ID)
	var apiErr *leadclient.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != leadclient.ErrorCodeInvalidAssignee {
		t.Errorf("the SDK's refusal: %v", err)
	}
	if l, _ := sdk.GetLead(ctx, id); l == nil || l.Status != leadclient.LeadStatusNew || l.AssigneeId == nil || *l.AssigneeId != anna.ID {
		t.Errorf("after the refused calls: %+v", l)
	}

	resp, body := e.do("PATCH", path, `{"status": "won", "assignee_id": null}`, hdr)
	if resp.StatusCode != 200 || body["assignee_id"] != nil || body["status"] != "won" {
		t.Fatalf("unassign with a status: %d %v", resp.StatusCode, body)
	}
}

// The list filters one person's leads by address, whatever the letters' case.
func TestListLeadsByEmail(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	sdk := e.sdk(e.key(c, auth.Private, nil, true).Key)
	ids := createLeads(t, sdk, 4, func(i int, l *leadclient.Lead) {
		if i%2 == 0 {
			l.Email = "Kovacs.Peter@Example.hu"
		}
	})
	var got []uuid.UUID
	for l, err := range sdk.ListLeads(ctx, leadclient.LeadFilter{Email: "kovacs.peter@example.HU"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l.LeadId)
	}
	if len(got) != 2 || got[0] != ids[2] || got[1] != ids[0] {
		t.Errorf("by email: %v, want %v and %v", got, ids[2], ids[0])
	}
	resp, body := e.do("GET", "/api/v1/leads?email=%00", "", map[string]string{"X-Api-Key": e.key(c, auth.Private, nil, true).Key})
	if resp.StatusCode != 400 {
		t.Errorf("an address with a NUL: %d %v", resp.StatusCode, body)
	}
}
