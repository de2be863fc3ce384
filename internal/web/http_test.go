package web_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2/memstore"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/web"
)

func TestLoginAndSession(t *testing.T) {
	t.Parallel()
	f := start(t)
	c := f.client(t)

	if r := c.get("/app/embed"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
		t.Fatalf("anonymous GET /app/embed: %d %s", r.status, r.location)
	}
	r := c.post("/app/login", url.Values{"email": {f.owner}, "password": {password}})
	if r.status != http.StatusSeeOther || r.location != "/app/embed" && r.location != "/app/" {
		t.Fatalf("login: %d %s", r.status, r.location)
	}
	cookie := setCookie(r.header, "leadchat_session=")
	for _, want := range []string{"leadchat_session=", "Path=/", "HttpOnly", "SameSite=Lax", fmt.Sprintf("Max-Age=%d", int(web.AbsoluteTimeout.Seconds()))} {
		if !strings.Contains(cookie, want) {
			t.Errorf("Set-Cookie %q lacks %s", cookie, want)
		}
	}
	if strings.Contains(cookie, "Secure") || strings.Contains(cookie, "__Host-") {
		t.Errorf("Set-Cookie %q is Secure over http", cookie)
	}
	first := c.sessionCookie()
	if r := c.get("/app/embed"); r.status != http.StatusOK {
		t.Fatalf("GET /app/embed after login: %d", r.status)
	}

	t.Run("the session id changes at login", func(t *testing.T) {
		c.login(f.owner)
		if second := c.sessionCookie(); second == first || second == "" {
			t.Fatalf("session cookie %q after a second login, %q before", second, first)
		}
		stale := f.client(t)
		stale.http.Jar.SetCookies(mustURL(f.base), []*http.Cookie{{Name: "leadchat_session", Value: first}})
		if r := stale.get("/app/embed"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
			t.Errorf("the id from before the login still opens the dashboard: %d %s", r.status, r.location)
		}
	})

	t.Run("a stolen cookie after logout leads to the login", func(t *testing.T) {
		stolen := c.sessionCookie()
		if r := c.post("/app/logout", url.Values{}); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
			t.Fatalf("logout: %d %s", r.status, r.location)
		}
		thief := f.client(t)
		thief.http.Jar.SetCookies(mustURL(f.base), []*http.Cookie{{Name: "leadchat_session", Value: stolen}})
		for _, path := range []string{"/app/leads", "/app/embed", "/app/team"} {
			if r := thief.get(path); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
				t.Errorf("GET %s with the cookie of a logged-out session: %d %s", path, r.status, r.location)
			}
		}
	})

	t.Run("a removed user's session ends", func(t *testing.T) {
		m := f.client(t)
		m.login(f.member)
		users, _ := f.store.Users(context.Background(), f.a.ID)
		for _, u := range users {
			if u.Email == f.member {
				if _, err := f.store.RemoveUser(context.Background(), u.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		if r := m.get("/app/leads"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
			t.Errorf("a removed user: %d %s", r.status, r.location)
		}
	})
}

func TestLoginFailures(t *testing.T) {
	// Not parallel: it compares two kinds of login by their times.
	f := startRealHashes(t)
	c := f.client(t)

	t.Run("unknown email and wrong password get the same answer in the same time", func(t *testing.T) {
		try := func(email string) (response, time.Duration) {
			start := time.Now()
			r := c.post("/app/login", url.Values{"email": {email}, "password": {"wrong password 1"}})
			return r, time.Since(start)
		}
		// Both check an argon2id hash (tens of milliseconds); without it an unknown email would
		// answer in about a millisecond. The two are timed in turn, best of three each, so that a
		// busy machine slows both alike, and a round that misses the loose bound is measured once
		// more (two rounds and the next test's failures stay within the client's 20).
		for round := range 2 {
			var wrong, unknown response
			var email string
			dWrong, dUnknown := time.Hour, time.Hour
			for i := range 3 {
				var d time.Duration
				wrong, d = try(f.owner)
				dWrong = min(dWrong, d)
				email = fmt.Sprintf("nincs-%d-%c@sehol.hu", round, 'a'+i)
				unknown, d = try(email)
				dUnknown = min(dUnknown, d)
			}
			// Three failures of the owner's so far; a success clears them.
			c.login(f.owner)
			if wrong.status != http.StatusUnauthorized || unknown.status != http.StatusUnauthorized {
				t.Fatalf("statuses %d and %d, want 401", wrong.status, unknown.status)
			}
			if strings.Replace(wrong.body, f.owner, "", 1) != strings.Replace(unknown.body, email, "", 1) {
				t.Error("the pages of a wrong password and an unknown email differ")
			}
			if !strings.Contains(wrong.body, "Hibás e-mail-cím vagy jelszó.") {
				t.Errorf("the page says no Hungarian error:\n%s", wrong.body)
			}
			if dUnknown >= dWrong/3 && dUnknown <= dWrong*3 {
				break
			}
			if round == 1 {
				t.Errorf("an unknown email took %v, a wrong password %v", dUnknown, dWrong)
			}
			t.Logf("round %d: an unknown email took %v, a wrong password %v", round+1, dUnknown, dWrong)
		}
	})

	t.Run("after 5 failures in 15 minutes further attempts wait", func(t *testing.T) {
		for i := range user.MaxFailedLogins {
			if r := c.post("/app/login", url.Values{"email": {f.member}, "password": {"wrong password 1"}}); r.status != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i+1, r.status)
			}
		}
		r := c.post("/app/login", url.Values{"email": {" MUNKATARS@a-ceg.hu"}, "password": {password}})
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "perc múlva") {
			t.Fatalf("the right password after 5 failures: %d, Retry-After %q", r.status, r.header.Get("Retry-After"))
		}
		// Another email is not held up.
		other := f.client(t)
		other.login(f.owner)
	})
}

// Guesses sent at once are counted one by one: exactly five are checked, the rest wait.
func TestParallelGuessesAreThrottled(t *testing.T) {
	// Not parallel: 16 logins wait for one hashing turn within the client's timeout.
	f := start(t)
	const n = 16
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			statuses <- f.client(t).post("/app/login", url.Values{"email": {f.owner}, "password": {"guess guess guess"}}).status
		})
	}
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for s := range statuses {
		count[s]++
	}
	if count[http.StatusUnauthorized] != user.MaxFailedLogins || count[http.StatusTooManyRequests] != n-user.MaxFailedLogins {
		t.Errorf("statuses %v: want %d × 401 and the rest 429", count, user.MaxFailedLogins)
	}
}

// Logins sent together hash one at a time: the process never holds two argon2id work areas
// (19 MiB each, mapped outside the heap) at once. Four logins at once without the turn-taking
// peak at about 76 MiB more anonymous memory than before; with it at one hash's 19 MiB.
func TestLoginsHashOneAtATime(t *testing.T) {
	// Not parallel: it reads the whole process's anonymous memory.
	if runtime.GOOS != "linux" {
		t.Skip("reads the resident memory from /proc")
	}
	f := startRealHashes(t)
	heap := func() uint64 {
		b, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Error(err)
			return 0
		}
		for line := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
				kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				return kb << 10
			}
		}
		return 0
	}
	debug.FreeOSMemory()
	base := heap()
	stop, peak := make(chan struct{}), make(chan uint64)
	go func() {
		var p uint64
		for {
			select {
			case <-stop:
				peak <- p
				return
			default:
				p = max(p, heap())
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	var wg sync.WaitGroup
	for _, email := range []string{f.owner, f.member, f.ownerB, "senki@a-ceg.hu"} {
		wg.Go(func() { f.client(t).post("/app/login", url.Values{"email": {email}, "password": {password}}) })
	}
	wg.Wait()
	close(stop)
	top := <-peak
	if top > base && top-base > 30<<20 {
		t.Errorf("anonymous memory peaked %.1f MiB above its %.1f MiB before four logins at once: more than one hash at a time (want under 30 MiB)",
			float64(top-base)/(1<<20), float64(base)/(1<<20))
	}
	t.Logf("anonymous memory peak %.1f MiB above %.1f MiB", float64(max(top, base)-base)/(1<<20), float64(base)/(1<<20))
}

func TestPasswordLink(t *testing.T) {
	t.Parallel()
	f := start(t)
	u, token, err := user.Create(context.Background(), f.store, f.a.ID, "uj@a-ceg.hu", user.Member, "")
	if err != nil || token == "" {
		t.Fatalf("user.Create: %v, token %q", err, token)
	}
	c := f.client(t)
	path := "/app/password/" + token
	if r := c.get(path); r.status != http.StatusOK || !strings.Contains(r.body, u.Email) {
		t.Fatalf("GET the link: %d", r.status)
	}
	if r := c.get(path); r.status != http.StatusOK {
		t.Fatalf("opening the link twice used it up: %d", r.status)
	}
	if r := c.post(path, url.Values{"password": {"rövid"}, "password_again": {"rövid"}}); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(r.body, "legalább 10 karakter") {
		t.Errorf("a short password: %d", r.status)
	}
	if r := c.post(path, url.Values{"password": {password}, "password_again": {password + "x"}}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("two different passwords: %d", r.status)
	}
	if r := c.post(path, url.Values{"password": {password}, "password_again": {password}}); r.status != http.StatusSeeOther ||
		r.location != "/app/login?jelszo=beallitva" {
		t.Fatalf("setting the password: %d %s", r.status, r.location)
	}
	if r := c.post(path, url.Values{"password": {"más jelszó 12345"}, "password_again": {"más jelszó 12345"}}); r.status != http.StatusNotFound {
		t.Errorf("a second use of the link: %d", r.status)
	}
	if r := c.get("/app/password/" + strings.Repeat("A", 52)); r.status != http.StatusNotFound {
		t.Errorf("an unknown link: %d", r.status)
	}
	c.login("uj@a-ceg.hu")
}

func TestRolesAndCompanies(t *testing.T) {
	t.Parallel()
	f := start(t)
	owner, member := f.client(t), f.client(t)
	owner.login(f.owner)
	member.login(f.member)

	t.Run("a member reaches the leads only", func(t *testing.T) {
		if r := member.get("/app/leads"); r.status != http.StatusOK {
			t.Errorf("member GET /app/leads: %d", r.status)
		}
		for _, path := range []string{"/app/embed", "/app/widget", "/app/widget/preview", "/app/assistant", "/app/usage", "/app/team"} {
			r := member.get(path)
			if r.status != http.StatusForbidden || !strings.Contains(r.body, "Hozzáférés megtagadva") {
				t.Errorf("member GET %s: %d", path, r.status)
			}
			// The page says why (the owners' page), not the cross-origin form's explanation.
			if !strings.Contains(r.body, "csak a cég tulajdonosai") || strings.Contains(r.body, "más oldalról") {
				t.Errorf("member GET %s: the page does not say it is for owners", path)
			}
			if strings.Contains(r.body, `href="/app/embed"`) {
				t.Errorf("member GET %s: the menu offers the owner's pages", path)
			}
		}
		for _, path := range []string{"/app/embed/keys", "/app/embed/keys/" + f.keyA.ID.String() + "/revoke", "/app/team", "/app/widget", "/app/assistant"} {
			if r := member.post(path, url.Values{"kind": {"private"}, "email": {"x@y.hu"}, "role": {"owner"}}); r.status != http.StatusForbidden {
				t.Errorf("member POST %s: %d", path, r.status)
			}
		}
		keys, _ := f.store.ListKeys(context.Background(), f.a.ID)
		if len(keys) != 1 || keys[0].RevokedAt != nil {
			t.Errorf("a member changed the keys: %+v", keys)
		}
	})

	t.Run("another company's key is not found", func(t *testing.T) {
		other := f.keyB.ID.String()
		for _, path := range []string{"/app/embed/keys/" + other + "/revoke", "/app/embed/keys/" + other + "/domains", "/app/embed/keys/not-an-id/revoke"} {
			if r := owner.post(path, url.Values{"domains": {"evil.example"}}); r.status != http.StatusNotFound {
				t.Errorf("POST %s: %d", path, r.status)
			}
		}
		keys, _ := f.store.ListKeys(context.Background(), f.b.ID)
		if keys[0].RevokedAt != nil || len(keys[0].AllowedDomains) != 0 {
			t.Errorf("company B's key changed: %+v", keys[0])
		}
		if r := owner.get("/app/embed"); strings.Contains(r.body, f.keyB.Prefix) || strings.Contains(r.body, f.keyB.Key) {
			t.Error("company A's embed page shows company B's key")
		}
	})

	t.Run("another company's user is not found", func(t *testing.T) {
		users, _ := f.store.Users(context.Background(), f.b.ID)
		if r := owner.post("/app/team/"+users[0].ID.String()+"/remove", url.Values{}); r.status != http.StatusNotFound {
			t.Errorf("removing company B's owner: %d", r.status)
		}
		if after, _ := f.store.Users(context.Background(), f.b.ID); len(after) != 1 {
			t.Error("company B's owner is gone")
		}
	})

	t.Run("a cross-origin form post is 403", func(t *testing.T) {
		path := "/app/embed/keys/" + f.keyA.ID.String() + "/revoke"
		for _, h := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Sec-Fetch-Site", "same-site"}, {"Origin", "http://evil.example"}} {
			if r := owner.post(path, url.Values{}, h...); r.status != http.StatusForbidden {
				t.Errorf("POST with %s: %s: %d", h[0], h[1], r.status)
			}
		}
		if r := owner.post("/app/logout", url.Values{}, "Sec-Fetch-Site", "cross-site"); r.status != http.StatusForbidden {
			t.Errorf("a cross-site logout: %d", r.status)
		}
		keys, _ := f.store.ListKeys(context.Background(), f.a.ID)
		if keys[0].RevokedAt != nil {
			t.Error("a cross-origin post revoked the key")
		}
	})

	t.Run("pages carry the strict policy", func(t *testing.T) {
		r := owner.get("/app/embed")
		if got := r.header.Get("Content-Security-Policy"); !strings.HasPrefix(got, "default-src 'self';") || strings.Contains(got, "unsafe") {
			t.Errorf("CSP %q", got)
		}
		if r.header.Get("Access-Control-Allow-Origin") != "" {
			t.Error("a dashboard page carries CORS headers")
		}
		if r.header.Get("Cache-Control") != "no-store" || r.header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("Cache-Control %q, X-Frame-Options %q", r.header.Get("Cache-Control"), r.header.Get("X-Frame-Options"))
		}
		if strings.Contains(r.body, "style=") || strings.Contains(r.body, "<style") || strings.Contains(r.body, "onclick") {
			t.Error("a page has inline style or script")
		}
		if r := owner.get("/app/nincs-ilyen"); r.status != http.StatusNotFound || !strings.Contains(r.body, "Nincs ilyen oldal") {
			t.Errorf("GET an unknown page: %d", r.status)
		}
	})
}

// Over https the cookie is Secure and __Host- prefixed.
func TestSecureCookie(t *testing.T) {
	t.Parallel()
	f := dashboardFixture(t)
	store := f.store
	h := web.New(web.Config{Store: store, Sessions: memstore.New(), PublicURL: "https://leads.example.hu"})
	req := httptest.NewRequest(http.MethodPost, "https://leads.example.hu/app/login",
		strings.NewReader(url.Values{"email": {f.owner}, "password": {password}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, name := range []string{"__Host-leadchat_session=", "__Host-leadchat_device="} {
		cookie := setCookie(rec.Header(), name)
		if rec.Code != http.StatusSeeOther || cookie == "" || !strings.Contains(cookie, "; Secure") || !strings.Contains(cookie, "Path=/") ||
			!strings.Contains(cookie, "HttpOnly") || strings.Contains(cookie, "Domain=") {
			t.Errorf("login over https: %d, Set-Cookie %s %q", rec.Code, name, cookie)
		}
	}
}

// setCookie is the Set-Cookie header of a response that sets the cookie named by prefix.
func setCookie(h http.Header, prefix string) string {
	for _, c := range h.Values("Set-Cookie") {
		if strings.HasPrefix(c, prefix) {
			return c
		}
	}
	return ""
}

type nopWriter struct{}

func (nopWriter) Write(b []byte) (int, error) { return len(b), nil }

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// A company whose keys are all limited to its own sites gets a preview key for the dashboard's
// host, and the preview runs on it.
func TestPreviewKey(t *testing.T) {
	t.Parallel()
	f := start(t)
	if _, err := f.store.SetKeyDomains(context.Background(), f.a.ID, f.keyA.ID, []string{"pelda.hu"}, true); err != nil {
		t.Fatal(err)
	}
	c := f.client(t)
	c.login(f.owner)
	if r := c.get("/app/widget"); strings.Contains(r.body, "<iframe") || !strings.Contains(r.body, "Előnézeti kulcs létrehozása") {
		t.Fatal("the widget page offers a preview on a key limited to pelda.hu")
	}
	if r := c.post("/app/widget/preview-key", url.Values{}); r.status != http.StatusSeeOther {
		t.Fatalf("creating the preview key: %d", r.status)
	}
	keys, _ := f.store.ListKeys(context.Background(), f.a.ID)
	k := keys[len(keys)-1]
	if strings.Join(k.AllowedDomains, ",") != "127.0.0.1" || !k.HostnameCheck {
		t.Errorf("preview key domains %v, check %v", k.AllowedDomains, k.HostnameCheck)
	}
	r := c.get("/app/widget/preview")
	if !strings.Contains(r.body, `data-api-key="`+k.PublicKey+`"`) || !strings.Contains(r.header.Get("Content-Security-Policy"), "frame-ancestors 'self'") {
		t.Errorf("the preview does not run on the preview key, or may not be framed: %s", r.header.Get("Content-Security-Policy"))
	}
}

// A session ends after IdleTimeout without a request, and pages viewed within TouchEvery of the
// last recorded request leave the session's row as it was: browsing does not write to the
// database at every page.
func TestSessionIdleTimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	f := startDashboard(t, web.Config{Now: clk.Now})
	store, advance := f.store, clk.advance
	c := f.client(t)
	c.login(f.owner)
	row := func() (data []byte, expiry time.Time) {
		t.Helper()
		if err := store.DB().QueryRowContext(ctx, "SELECT data, expiry FROM sessions").Scan(&data, &expiry); err != nil {
			t.Fatal(err)
		}
		return data, expiry
	}
	atLogin, expiry := row()
	if want := time.Now().Add(web.AbsoluteTimeout); expiry.Before(want.Add(-time.Minute)) || expiry.After(want.Add(time.Minute)) {
		t.Errorf("the session row expires %v, want the absolute timeout, about %v", expiry, want)
	}
	for range 3 {
		advance(web.TouchEvery / 4)
		if r := c.get("/app/leads"); r.status != http.StatusOK {
			t.Fatalf("GET /app/leads: %d", r.status)
		}
	}
	if data, _ := row(); !bytes.Equal(data, atLogin) {
		t.Error("pages viewed within TouchEvery of the login wrote the session")
	}
	advance(web.TouchEvery)
	if r := c.get("/app/leads"); r.status != http.StatusOK {
		t.Fatalf("GET /app/leads: %d", r.status)
	}
	if data, _ := row(); bytes.Equal(data, atLogin) {
		t.Error("a page viewed TouchEvery after the last recorded request did not record it")
	}
	// Just within the idle timeout of the last recorded request the session lives, and records
	// that request; past it from there, it is over, and its row is gone.
	advance(web.IdleTimeout - time.Second)
	if r := c.get("/app/leads"); r.status != http.StatusOK {
		t.Fatalf("GET /app/leads %v after the last request: %d, want 200", web.IdleTimeout-time.Second, r.status)
	}
	advance(web.IdleTimeout + time.Second)
	if r := c.get("/app/leads"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
		t.Fatalf("GET /app/leads %v after the last request: %d %s, want the login", web.IdleTimeout+time.Second, r.status, r.location)
	}
	var n int
	if err := store.DB().QueryRowContext(ctx, "SELECT count(*) FROM sessions").Scan(&n); err != nil || n != 0 {
		t.Errorf("sessions left after the idle timeout: %d (%v), want 0", n, err)
	}
}

// The overview is served from memory for OverviewFresh by the dashboard's clock: a lead that
// arrives meanwhile shows once that time has passed since the figures were made, not before.
func TestOverviewFreshByTheClock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	f := startDashboard(t, web.Config{Now: clk.Now})
	store, co, advance := f.store, f.a, clk.advance
	c := f.client(t)
	c.login(f.owner)
	addLead := func() {
		t.Helper()
		if _, err := store.CreateLead(ctx, co.ID, lead.Lead{ID: uuid.New(), FirstName: "Friss", Email: "friss@pelda.hu", Source: lead.SourceForm}, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	leads := func() string {
		t.Helper()
		r := c.get("/app/")
		if r.status != http.StatusOK {
			t.Fatalf("GET /app/: %d", r.status)
		}
		_, after, ok := strings.Cut(r.body, `data-funnel="leads">`)
		if !ok {
			t.Fatalf("no lead count on the overview:\n%s", r.body)
		}
		n, _, _ := strings.Cut(after, "<")
		return n
	}
	addLead()
	if got := leads(); got != "1" {
		t.Fatalf("the first overview counts %s leads, want 1", got)
	}
	addLead()
	advance(web.OverviewFresh - time.Second)
	if got := leads(); got != "1" {
		t.Errorf("%v after the figures were made the overview counts %s leads, want the kept 1", web.OverviewFresh-time.Second, got)
	}
	advance(time.Second)
	if got := leads(); got != "2" {
		t.Errorf("%v after the figures were made the overview counts %s leads, want the new 2", web.OverviewFresh, got)
	}
	addLead()
	advance(web.OverviewFresh / 2)
	if got := leads(); got != "2" {
		t.Errorf("figures made again are kept: %s leads, want 2", got)
	}
}

// viewerCounter is the dashboard's store, counting the viewers it is asked for apart.
type viewerCounter struct {
	*postgres.Store
	n atomic.Int32
}

func (s *viewerCounter) Viewer(ctx context.Context, companyID, userID uuid.UUID) (user.User, company.Company, []user.Membership, error) {
	s.n.Add(1)
	return s.Store.Viewer(ctx, companyID, userID)
}

// A page's session lookup reads the viewer in the same round trip: the store is not asked for
// the viewer apart, and the page names the user and the company. A session whose user has
// been removed meanwhile still ends at its next request.
func TestSessionLookupReadsTheViewer(t *testing.T) {
	t.Parallel()
	f := dashboardFixture(t)
	store := &viewerCounter{Store: f.store}
	srv := httptest.NewServer(web.New(web.Config{Store: store, Sessions: f.store.SessionStore(0)}))
	t.Cleanup(srv.Close)
	f.base = srv.URL
	c := f.client(t)
	c.login(f.owner)
	for _, path := range []string{"/app/leads", "/app/"} {
		r := c.get(path)
		if r.status != http.StatusOK || !strings.Contains(r.body, f.owner) || !strings.Contains(r.body, html.EscapeString(f.a.Name)) {
			t.Fatalf("GET %s: %d, want the page naming %s of %s\n%s", path, r.status, f.owner, f.a.Name, r.body)
		}
	}
	if n := store.n.Load(); n != 0 {
		t.Errorf("the viewer was read apart %d times for two pages, want 0", n)
	}
	u, _, err := f.store.UserByEmail(context.Background(), f.owner)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.RemoveCompanyUser(context.Background(), f.a.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	if r := c.get("/app/leads"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/login") {
		t.Errorf("GET /app/leads after the user's removal: %d %s, want the login", r.status, r.location)
	}
	if r := c.get("/app/leads"); r.status != http.StatusSeeOther {
		t.Errorf("GET /app/leads again: %d, want the login", r.status)
	}
}
