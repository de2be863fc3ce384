package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/cache"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// A session's lookup with its viewer finds the viewer Viewer finds, for the ids at the paths of
// the session's JSON data; a session that names no member, or whose data is not JSON or whose
// ids are not UUIDs, is not found that way (FindCtx still finds it), nor is an expired one.
func TestFindSessionWithViewer(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	u, err := s.CreateUser(ctx, a, "nezo@ceg.hu", user.Owner, "nem valódi hash", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateUser(ctx, b, "nezo@ceg.hu", user.Member, "", nil); err != nil {
		t.Fatal(err)
	}
	ss := s.SessionStore(0)
	userPath, companyPath := []string{"values", "user_id"}, []string{"values", "company_id"}
	session := func(token string, data string, expiry time.Time) {
		t.Helper()
		if err := ss.Commit(token, []byte(data), expiry); err != nil {
			t.Fatal(err)
		}
	}
	later := time.Now().Add(time.Hour)
	jsonOf := func(uid, cid string) string {
		return `{"deadline":"2030-01-01T00:00:00Z","values":{"company_id":"` + cid + `","seen":1,"user_id":"` + uid + `"}}`
	}

	for _, c := range []uuid.UUID{a, b} {
		data := jsonOf(u.ID.String(), c.String())
		session("munkamenet-"+c.String(), data, later)
		got, v, found, err := ss.FindViewerCtx(ctx, "munkamenet-"+c.String(), userPath, companyPath)
		wu, wc, wms, werr := s.Viewer(ctx, c, u.ID)
		if err != nil || werr != nil || !found || string(got) != data {
			t.Fatalf("the session in %v: %q, found %v, %v (Viewer: %v)", c, got, found, err, werr)
		}
		if v.User != wu || v.Company.ID != wc.ID || v.Company.Name != wc.Name || v.Company.Plan != wc.Plan || !cmp.Equal(v.Companies, wms) {
			t.Errorf("the viewer in %v: %+v, want %+v %+v %+v", c, v, wu, wc, wms)
		}
	}

	cases := []struct{ name, data string }{
		{"a company the user is not in", jsonOf(u.ID.String(), company(t, s, "C").String())},
		{"an unknown user", jsonOf(uuid.NewString(), a.String())},
		{"ids that are not UUIDs", jsonOf("nem-azonosító", "'; DROP TABLE sessions; --")},
		{"no ids", `{"deadline":"2030-01-01T00:00:00Z","values":{}}`},
		{"data that is not JSON (a gob session)", "\x0f\xff\x81\x03\x01\x01\x0csessionData"},
		{"no data", ""},
	}
	for _, c := range cases {
		token := "munkamenet-" + c.name
		session(token, c.data, later)
		if _, _, found, err := ss.FindViewerCtx(ctx, token, userPath, companyPath); err != nil || found {
			t.Errorf("%s: found %v, %v; want not found", c.name, found, err)
		}
		if got, found, err := ss.FindCtx(ctx, token); err != nil || !found || string(got) != c.data {
			t.Errorf("%s, looked up alone: %q, found %v, %v; want its data", c.name, got, found, err)
		}
	}
	session("lejart", jsonOf(u.ID.String(), a.String()), time.Now().Add(-time.Second))
	if _, _, found, err := ss.FindViewerCtx(ctx, "lejart", userPath, companyPath); err != nil || found {
		t.Errorf("an expired session: found %v, %v; want not found", found, err)
	}
	if _, _, found, err := ss.FindViewerCtx(ctx, "nincs-ilyen", userPath, companyPath); err != nil || found {
		t.Errorf("no session: found %v, %v; want not found", found, err)
	}
}

// The lead page's session lookup reads, with the viewer, the file LeadFile reads of the lead of
// the session's company; another company's lead, no lead, or no session is not found.
func TestFindSessionWithLeadFile(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	u, err := s.CreateUser(ctx, a, "nezo@ceg.hu", user.Owner, "nem valódi hash", nil)
	if err != nil {
		t.Fatal(err)
	}
	mine, theirs := newLead("Eszter"), newLead("Eszter")
	mine.Email, theirs.Email = "eszter@example.hu", "eszter@example.hu"
	var ids []uuid.UUID
	for _, x := range []struct {
		c uuid.UUID
		l lead.Lead
	}{{a, mine}, {a, mine}, {b, theirs}} {
		x.l.ID = lead.NewID()
		if _, err := s.CreateLead(ctx, x.c, x.l, nil, nil); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, x.l.ID)
	}
	if _, err := s.AddLeadNote(ctx, a, ids[1], u.ID, "Visszahívni."); err != nil {
		t.Fatal(err)
	}
	ss := s.SessionStore(0)
	userPath, companyPath := []string{"values", "user_id"}, []string{"values", "company_id"}
	data := `{"deadline":"2030-01-01T00:00:00Z","values":{"company_id":"` + a.String() + `","seen":1,"user_id":"` + u.ID.String() + `"}}`
	if err := ss.Commit("munkamenet", []byte(data), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, v, f, users, found, err := ss.FindViewerLeadFileCtx(ctx, "munkamenet", userPath, companyPath, ids[1], 50)
	if err != nil || !found || string(got) != data {
		t.Fatalf("the session with its lead: %q, found %v, %v", got, found, err)
	}
	_, wv, _, err := ss.FindViewerCtx(ctx, "munkamenet", userPath, companyPath)
	if err != nil {
		t.Fatal(err)
	}
	wf, wusers, err := s.LeadFile(ctx, a, ids[1], 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(wf.Related) != 1 || len(wf.Notes) != 1 || len(wusers) != 1 {
		t.Fatalf("LeadFile: %d related, %d notes, %d users", len(wf.Related), len(wf.Notes), len(wusers))
	}
	sameInstant := cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) })
	if diff := cmp.Diff(wv, v, sameInstant); diff != "" {
		t.Errorf("the viewer (-FindViewerCtx +with the file):\n%s", diff)
	}
	if diff := cmp.Diff(wf, f, sameInstant); diff != "" {
		t.Errorf("the file (-LeadFile +with the session):\n%s", diff)
	}
	if diff := cmp.Diff(wusers, users); diff != "" {
		t.Errorf("the users (-LeadFile +with the session):\n%s", diff)
	}
	for name, c := range map[string]struct {
		token string
		lead  uuid.UUID
	}{"another company's lead": {"munkamenet", ids[2]}, "no such lead": {"munkamenet", uuid.New()},
		"no session": {"nincs-ilyen", ids[1]}} {
		if _, _, _, _, found, err := ss.FindViewerLeadFileCtx(ctx, c.token, userPath, companyPath, c.lead, 50); err != nil || found {
			t.Errorf("%s: found %v, %v; want not found", name, found, err)
		}
	}
}

// The lead page's reads take turns: with FileReads 1 and the one turn taken, neither LeadFile
// nor the lead page's session lookup runs its statement; each waits until its context ends and
// then reports the database unavailable. Every read, found or not, gives its turn back (a
// turn kept would leave the next read waiting until its context ended).
func TestLeadFileReadsTakeTurns(t *testing.T) {
	s := open(t, postgres.Options{FileReads: 1})
	ctx := context.Background()
	a := company(t, s, "A")
	u, err := s.CreateUser(ctx, a, "nezo@ceg.hu", user.Owner, "nem valódi hash", nil)
	if err != nil {
		t.Fatal(err)
	}
	l := newLead("Eszter")
	if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	ss := s.SessionStore(0)
	userPath, companyPath := []string{"values", "user_id"}, []string{"values", "company_id"}
	data := `{"deadline":"2030-01-01T00:00:00Z","values":{"company_id":"` + a.String() + `","seen":1,"user_id":"` + u.ID.String() + `"}}`
	if err := ss.Commit("munkamenet", []byte(data), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.FileTurn(ctx); err != nil {
		t.Fatal(err)
	}
	waiting, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, _, err := s.LeadFile(waiting, a, l.ID, 50); !errs.Is(err, errs.Unavailable) {
		t.Errorf("LeadFile while the one turn is taken: %v; want it to wait, then unavailable", err)
	}
	if _, _, _, _, found, err := ss.FindViewerLeadFileCtx(waiting, "munkamenet", userPath, companyPath, l.ID, 50); found || !errs.Is(err, errs.Unavailable) {
		t.Errorf("the lead page's lookup while the one turn is taken: found %v, %v; want it to wait, then unavailable", found, err)
	}
	s.EndFileTurn()
	for i := range 3 {
		bounded, cancel := context.WithTimeout(ctx, time.Minute)
		if _, _, err := s.LeadFile(bounded, a, uuid.New(), 50); !errs.Is(err, errs.NotFound) {
			t.Fatalf("read %d, no such lead: %v", i, err)
		}
		if f, _, err := s.LeadFile(bounded, a, l.ID, 50); err != nil || f.Lead.ID != l.ID {
			t.Fatalf("read %d: %v", i, err)
		}
		if _, _, _, _, found, err := ss.FindViewerLeadFileCtx(bounded, "munkamenet", userPath, companyPath, l.ID, 50); err != nil || !found {
			t.Fatalf("read %d, with the session: found %v, %v", i, found, err)
		}
		if _, _, _, _, found, err := ss.FindViewerLeadFileCtx(bounded, "nincs-ilyen", userPath, companyPath, l.ID, 50); err != nil || found {
			t.Fatalf("read %d, no session: found %v, %v", i, found, err)
		}
		cancel()
	}
}

// The lead page's lists of who is in a company (the company's users, the viewer's companies)
// come from the team cache while the change feed is live, and every change to them reaches the
// cache: a member added, removed or accepting, an address or a company's name changed, a
// user deleted. After each, once the change feed has caught up, the lead page's lookup gives
// what the lookups that read no cache (FindViewerCtx, LeadFile) give.
func TestLeadPageTeamListsFollowChanges(t *testing.T) {
	s := open(t, postgres.Options{})
	ctx := context.Background()
	a, b := company(t, s, "A"), company(t, s, "B")
	u, err := s.CreateUser(ctx, a, "nezo@ceg.hu", user.Owner, "nem valódi hash", nil)
	if err != nil {
		t.Fatal(err)
	}
	l := newLead("Eszter")
	if _, err := s.CreateLead(ctx, a, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	ss := s.SessionStore(0)
	userPath, companyPath := []string{"values", "user_id"}, []string{"values", "company_id"}
	data := `{"deadline":"2030-01-01T00:00:00Z","values":{"company_id":"` + a.String() + `","seen":1,"user_id":"` + u.ID.String() + `"}}`
	if err := ss.Commit("munkamenet", []byte(data), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	caughtUp := markedFollower(t, s, s.TeamCache())
	check := func(after string) {
		t.Helper()
		caughtUp()
		for range 2 { // the first may load the lists, the second finds them kept
			_, v, _, users, found, err := ss.FindViewerLeadFileCtx(ctx, "munkamenet", userPath, companyPath, l.ID, 20)
			if err != nil || !found {
				t.Fatalf("after %s: found %v, %v", after, found, err)
			}
			_, wv, _, err := ss.FindViewerCtx(ctx, "munkamenet", userPath, companyPath)
			if err != nil {
				t.Fatal(err)
			}
			_, wusers, err := s.LeadFile(ctx, a, l.ID, 20)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wv.Companies, v.Companies); diff != "" {
				t.Errorf("after %s, the viewer's companies (-read +the lead page's):\n%s", after, diff)
			}
			if diff := cmp.Diff(wusers, users); diff != "" {
				t.Errorf("after %s, the company's users (-read +the lead page's):\n%s", after, diff)
			}
		}
	}
	check("the start")
	other, err := s.CreateUser(ctx, a, "masik@ceg.hu", user.Member, "nem valódi hash", nil)
	if err != nil {
		t.Fatal(err)
	}
	check("a member added")
	if err := s.AcceptMembership(ctx, a, other.ID); err != nil {
		t.Fatal(err)
	}
	check("a membership accepted")
	if _, err := s.CreateUser(ctx, b, "nezo@ceg.hu", user.Member, "", nil); err != nil {
		t.Fatal(err)
	}
	check("the viewer added to another company")
	for what, q := range map[string]string{
		"an address changed":   `UPDATE users SET email = 'uj@ceg.hu' WHERE id = '` + other.ID.String() + `'`,
		"a company renamed":    `UPDATE companies SET name = 'B2' WHERE id = '` + b.String() + `'`,
		"the viewer's renamed": `UPDATE users SET email = 'nezo2@ceg.hu' WHERE id = '` + u.ID.String() + `'`,
		"the company renamed":  `UPDATE companies SET name = 'A2' WHERE id = '` + a.String() + `'`,
	} {
		if _, err := s.DB().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
		check(what)
	}
	if _, err := s.RemoveCompanyUser(ctx, b, u.ID); err != nil {
		t.Fatal(err)
	}
	check("the viewer removed from another company")
	if _, err := s.RemoveUser(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	check("a user deleted")
}

// markedFollower follows the change feed for f until the test ends (ListenCache), once the
// feed is live, and returns caughtUp (markedKeyring's).
func markedFollower(t *testing.T, s *postgres.Store, f cache.Follower) (caughtUp func()) {
	t.Helper()
	live := &liveWatch{Follower: f, up: make(chan struct{})}
	m := &marking{Follower: live, marks: map[string]chan struct{}{}}
	caughtUp = func() {
		t.Helper()
		what, arrived := "test-mark-"+uuid.NewString(), make(chan struct{})
		m.mu.Lock()
		m.marks[what] = arrived
		m.mu.Unlock()
		if err := s.NotifyCache(context.Background(), what); err != nil {
			t.Fatal(err)
		}
		select {
		case <-arrived:
		case <-time.After(20 * time.Second):
			t.Fatal("the change feed did not bring the test's own notification")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = s.ListenCache(ctx, m); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-live.up:
	case <-time.After(10 * time.Second):
		t.Fatal("the cache listener did not connect")
	}
	return caughtUp
}

// liveWatch passes the change feed on to the follower, and closes up once it is live.
type liveWatch struct {
	cache.Follower
	once sync.Once
	up   chan struct{}
}

func (w *liveWatch) Live(up bool) {
	w.Follower.Live(up)
	if up {
		w.once.Do(func() { close(w.up) })
	}
}
