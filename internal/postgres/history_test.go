package postgres_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
)

// A lead that came in over the limit moves through the lifecycle keeping its over_limit flag;
// every move is in its history, a move to the status it has is none, and another company's
// lead is not found.
func TestLeadStatusLifecycle(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	zero := 0
	l := newLead("Anna")
	created, err := s.CreateLead(ctx, a, l, &zero, nil)
	if err != nil || !created.OverLimit {
		t.Fatalf("create = %+v, %v; want over the limit", created, err)
	}
	for _, st := range []lead.Status{lead.StatusContacted, lead.StatusContacted, lead.StatusWon} {
		if err := s.SetLeadStatus(ctx, a, l.ID, st, lead.OriginCLI); err != nil {
			t.Fatalf("set %s: %v", st, err)
		}
	}
	stored, err := lead.Collect(lead.All(ctx, s, a, lead.Filter{}))
	if err != nil || len(stored) != 1 || stored[0].Status != lead.StatusWon || !stored[0].OverLimit {
		t.Errorf("lead = %+v, %v; want won and still over_limit", stored, err)
	}
	h, err := s.LeadHistory(ctx, a, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Old != "over_limit" || h[0].New != "contacted" || h[1].Old != "contacted" ||
		h[1].New != "won" || h[0].Field != lead.FieldStatus || h[0].Origin != lead.OriginCLI {
		t.Errorf("history = %+v, want over_limit→contacted→won from the CLI", h)
	}

	for _, tt := range []struct {
		name    string
		company uuid.UUID
		id      uuid.UUID
		status  lead.Status
		code    errs.Code
	}{
		{"over_limit is not a lifecycle status", a, l.ID, lead.StatusOverLimit, "invalid_status"},
		{"unknown status", a, l.ID, "archived", "invalid_status"},
		{"another company's lead", b, l.ID, lead.StatusLost, "lead_not_found"},
		{"no such lead", a, uuid.New(), lead.StatusLost, "lead_not_found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.SetLeadStatus(ctx, tt.company, tt.id, tt.status, lead.OriginCLI)
			if e := errs.As(err); err == nil || e.Code != tt.code {
				t.Errorf("err = %v, want %s", err, tt.code)
			}
		})
	}
	if h, _ := s.LeadHistory(ctx, a, l.ID); len(h) != 2 {
		t.Errorf("failed moves left history: %+v", h)
	}
}
