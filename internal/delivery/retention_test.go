package delivery_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// The retention job runs on its own: started with the clock moved a year on, two instances'
// workers erase the company's leads (once each) and keep another company's.
func TestRetentionJobRunsOnOneInstance(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	months := 3
	if _, err := e.store.UpdateCompany(ctx, e.company, company.Changes{Retention: &company.Retention{Months: &months}}); err != nil {
		t.Fatal(err)
	}
	rc := newReceiver(t, status(204))
	e.endpoint(rc.srv.URL)
	for range 4 {
		if _, err := e.store.CreateLead(ctx, e.company, lead.Lead{ID: uuid.New(), FirstName: "Régi", Email: "regi@example.hu", Source: lead.SourceAPI}, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	other, err := e.store.CreateCompany(ctx, "Másik Kft.", plan.Free, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.CreateLead(ctx, other.ID, lead.Lead{ID: uuid.New(), FirstName: "Marad", Email: "marad@example.hu", Source: lead.SourceAPI}, nil, nil); err != nil {
		t.Fatal(err)
	}
	e.now = func() time.Time { return time.Now().AddDate(1, 0, 0) }
	e.start(event.Schedule{time.Minute}, nil)
	e.start(event.Schedule{time.Minute}, nil)
	var left int
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err := e.store.DB().QueryRow(`SELECT count(*) FROM leads WHERE company_id = $1`, e.company).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 || time.Now().After(deadline) {
			break
		}
	}
	if left != 0 {
		t.Fatalf("%d leads left a year on with a retention of 3 months", left)
	}
	var erased int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM `+pgtest.Events+` WHERE company_id = $1 AND type = 'lead.erased'`, e.company).Scan(&erased); err != nil {
		t.Fatal(err)
	}
	if erased != 4 {
		t.Errorf("%d lead.erased events for 4 leads", erased)
	}
	var kept int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM leads WHERE company_id = $1`, other.ID).Scan(&kept); err != nil || kept != 1 {
		t.Errorf("the company without retention keeps %d leads (%v), want 1", kept, err)
	}
	var jobs int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM river_job WHERE kind = 'retention'`).Scan(&jobs); err != nil {
		t.Fatal(err)
	}
	if jobs != 1 {
		t.Errorf("%d retention jobs for two instances on one day, want 1", jobs)
	}
}
