package web_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/httpapi"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/service/servicetest"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/user/usertest"
	"github.com/leadchat/leadchat/internal/web"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// contract is the API's contract, loaded once for the package's many services and only read
// after the load.
var contract = sync.OnceValues(httpapi.LoadContract)

// password is every test user's password.
const password = "jó hosszú jelszó 42"

// fixture is the real service on a fresh database with two companies: A (business plan) with
// an owner, a member and a public key, and B with an owner and a public key of its own.
type fixture struct {
	base   string
	store  *postgres.Store
	a, b   company.Company
	keyA   admin.CreatedKey
	keyB   admin.CreatedKey
	owner  string // company A's owner's email
	member string // company A's member's email
	ownerB string
	// realHashes: the users' passwords are hashed as the service hashes them, not at the least
	// cost a login accepts (usertest.Hash).
	realHashes bool
}

// start starts the service; options change its configuration. Its users' password hashes
// cost the least a login accepts.
func start(t *testing.T, options ...func(*service.Config)) *fixture {
	t.Helper()
	return startHashing(t, false, nil, options...)
}

// startPassing is start on a listener whose connections' deadlines, like the requests'
// deadlines, d lets pass when the test says so.
func startPassing(t *testing.T, d *deadlines, options ...func(*service.Config)) *fixture {
	t.Helper()
	options = append(options, func(c *service.Config) { c.Deadline = d.request })
	return startHashing(t, false, d.listener, options...)
}

// startRealHashes is start with the users' passwords hashed as the service hashes them, for the
// tests of what a login costs: its time beside an unknown address's, its memory.
func startRealHashes(t *testing.T, options ...func(*service.Config)) *fixture {
	t.Helper()
	return startHashing(t, true, nil, options...)
}

// startHashing is start or startRealHashes; wrap, unless nil, wraps the service's listener.
func startHashing(t *testing.T, realHashes bool, wrap func(net.Listener) net.Listener, options ...func(*service.Config)) *fixture {
	t.Helper()
	loaded, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := service.Config{DatabaseURL: pgtest.NewDSN(t), MaxDBConns: 8, ShutdownGrace: 5 * time.Second, Contract: loaded}
	for _, o := range options {
		o(&cfg)
	}
	servicetest.RecordEventsOnly(&cfg)
	svc, err := service.Open(ctx, cfg, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		ln = wrap(ln)
	}
	done := make(chan error, 1)
	go func() { done <- svc.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		svc.Close()
	})
	f := &fixture{base: "http://" + ln.Addr().String(), store: svc.Store(), realHashes: realHashes,
		owner: "tulajdonos@a-ceg.hu", member: "munkatars@a-ceg.hu", ownerB: "tulajdonos@b-ceg.hu"}
	f.a = f.company(t, "A Napelem Kft.", plan.Business)
	f.b = f.company(t, "B Bútor Bt.", plan.Pro)
	f.keyA = f.key(t, f.a, auth.Public)
	f.keyB = f.key(t, f.b, auth.Public)
	f.user(t, f.a, f.owner, user.Owner)
	f.user(t, f.a, f.member, user.Member)
	f.user(t, f.b, f.ownerB, user.Owner)
	return f
}

// dashboardFixture is a fresh database holding company A (pro plan) and its owner, f.owner,
// for the tests that build the dashboard's handler themselves, without the service around it.
func dashboardFixture(t *testing.T) *fixture {
	t.Helper()
	store, err := postgres.Open(context.Background(), pgtest.NewDSN(t), postgres.Options{MaxOpenConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f := &fixture{store: store, owner: "tulajdonos@a-ceg.hu"}
	f.a = f.company(t, "A Napelem Kft.", plan.Pro)
	f.user(t, f.a, f.owner, user.Owner)
	return f
}

// startDashboard serves the dashboard alone (web.New) on a dashboardFixture; cfg gets its store,
// and the store's sessions unless cfg brings its own.
func startDashboard(t *testing.T, cfg web.Config) *fixture {
	t.Helper()
	f := dashboardFixture(t)
	cfg.Store = f.store
	if cfg.Sessions == nil {
		cfg.Sessions = f.store.SessionStore(0)
	}
	srv := httptest.NewServer(web.New(cfg))
	t.Cleanup(srv.Close)
	f.base = srv.URL
	return f
}

// clock is a dashboard clock (web.Config.Now) that only the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Now()} }

// Now is the clock's time.
func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// advance moves the clock on by d.
func (c *clock) advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

func (f *fixture) company(t *testing.T, name string, p plan.Plan) company.Company {
	t.Helper()
	c, err := f.store.CreateCompany(context.Background(), name, p, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) key(t *testing.T, c company.Company, kind auth.Kind) admin.CreatedKey {
	t.Helper()
	k, err := admin.CreateKey(context.Background(), f.store, c.ID, kind, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// cheapHash is usertest's hash of password, made once for every fixture's users: a login
// checks the password against it as against any other, and each hash made costs 8 MiB and
// some 15 ms of CPU, three times for each test.
var cheapHash = sync.OnceValue(func() string { return usertest.Hash(password) })

// user stores a user of c whose password is password.
func (f *fixture) user(t *testing.T, c company.Company, email string, role user.Role) user.User {
	t.Helper()
	hash := cheapHash()
	if f.realHashes {
		var err error
		if hash, err = user.HashPassword(password); err != nil {
			t.Fatal(err)
		}
	}
	u, err := f.store.CreateUser(context.Background(), c.ID, email, role, hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// client is a browser-like HTTP client with its own cookies that does not follow redirects.
type client struct {
	t    *testing.T
	base string
	http *http.Client
}

func (f *fixture) client(t *testing.T) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: f.base, http: &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// response is what a request returned, body read.
type response struct {
	status   int
	location string
	header   http.Header
	body     string
}

func (c *client) do(method, path string, form url.Values, header ...string) response {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, location: res.Header.Get("Location"), header: res.Header, body: string(b)}
}

func (c *client) get(path string) response { c.t.Helper(); return c.do(http.MethodGet, path, nil) }

func (c *client) post(path string, form url.Values, header ...string) response {
	c.t.Helper()
	return c.do(http.MethodPost, path, form, header...)
}

// login logs in and fails the test unless it lands on the landing page, Áttekintés.
func (c *client) login(email string) {
	c.t.Helper()
	r := c.post("/app/login", url.Values{"email": {email}, "password": {password}})
	if r.status != http.StatusSeeOther || r.location != "/app/" {
		c.t.Fatalf("login as %s: %d %s\n%s", email, r.status, r.location, r.body)
	}
}

// sessionCookie is the client's session cookie value for the service.
func (c *client) sessionCookie() string {
	u, _ := url.Parse(c.base)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == "leadchat_session" {
			return ck.Value
		}
	}
	return ""
}
