package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/alexedwards/scs/v2"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/web"
)

// fileCounter is the dashboard's store, counting the lead files it is asked for apart.
type fileCounter struct {
	*postgres.Store
	n atomic.Int32
}

func (s *fileCounter) LeadFile(ctx context.Context, companyID, leadID uuid.UUID, related int) (lead.File, []user.User, error) {
	s.n.Add(1)
	return s.Store.LeadFile(ctx, companyID, leadID, related)
}

// sessionsAlone is a session store that finds sessions alone, as scs's own stores do.
type sessionsAlone struct{ scs.Store }

// The lead page's session lookup reads the lead's file in the same round trip: the store is
// not asked for it apart, and the page is byte for byte the one that the file read apart
// makes. Another company's lead, or none, is still not found; a refused note's page, sent
// by a form, reads the file apart.
func TestLeadPageReadsItsFileWithTheSession(t *testing.T) {
	t.Parallel()
	f := dashboardFixture(t)
	ctx := context.Background()
	b := f.company(t, "B Hőszivattyú Kft.", plan.Pro)
	owner, _, err := f.store.UserByEmail(ctx, f.owner)
	if err != nil {
		t.Fatal(err)
	}
	add := func(companyID uuid.UUID, first string) uuid.UUID {
		l := lead.Lead{ID: lead.NewID(), FirstName: first, LastName: "Kovács", Email: "kovacs.eszter@pelda.hu",
			Phone: "+36 30 999 1234", PhoneE164: "+36309991234", Service: "Hőszivattyú", Source: lead.SourceForm}
		if _, err := f.store.CreateLead(ctx, companyID, l, nil, nil); err != nil {
			t.Fatal(err)
		}
		return l.ID
	}
	add(f.a.ID, "Régi")
	id, other := add(f.a.ID, "Eszter"), add(b.ID, "Idegen")
	if err := f.store.SetLeadStatus(ctx, f.a.ID, id, lead.StatusContacted, lead.OriginDashboard); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.AddLeadNote(ctx, f.a.ID, id, owner.ID, "Felhívtam, <b>jövő héten</b> újra."); err != nil {
		t.Fatal(err)
	}

	store := &fileCounter{Store: f.store}
	serve := func(cfg web.Config) *client {
		srv := httptest.NewServer(web.New(cfg))
		t.Cleanup(srv.Close)
		f.base = srv.URL
		c := f.client(t)
		c.login(f.owner)
		return c
	}
	withFile := serve(web.Config{Store: store, Sessions: f.store.SessionStore(0)})
	apart := serve(web.Config{Store: f.store, Sessions: sessionsAlone{f.store.SessionStore(0)}})

	path := "/app/leads/" + id.String()
	got, want := withFile.get(path), apart.get(path)
	if got.status != http.StatusOK || !strings.Contains(got.body, "Régi") || !strings.Contains(got.body, "jövő héten") {
		t.Fatalf("GET %s: %d, want the page with the related lead and the note\n%s", path, got.status, got.body)
	}
	if n := store.n.Load(); n != 0 {
		t.Errorf("the lead's file was read apart %d times, want 0", n)
	}
	if got.body != want.body {
		t.Errorf("the page read with the session differs from the page read apart:\n%s\n----\n%s", got.body, want.body)
	}
	for _, p := range []string{"/app/leads/" + other.String(), "/app/leads/" + uuid.NewString()} {
		if r := withFile.get(p); r.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, r.status)
		}
	}
	store.n.Store(0)
	if r := withFile.post(path+"/notes", url.Values{"note": {""}}); r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "jövő héten") {
		t.Errorf("an empty note: %d, want 422 with the lead's page", r.status)
	}
	if n := store.n.Load(); n != 1 {
		t.Errorf("a refused note's page read the lead's file %d times, want 1", n)
	}
}
