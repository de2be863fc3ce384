//go:build soak && linux

package soak

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

var scalePhase = flag.Duration("scale.phase", 8*time.Second,
	"how long the clients run before the primary is killed, and again once the service is back")

const (
	scaleLeadClients = 8 // half of them with Idempotency-Key
	scaleChatClients = 4
	rateConfig       = 120 // LEADCHAT_RATE_CONFIG for the instances, the limit held across both
	rateRequests     = 360 // sent for it through the balancer, as fast as they go
	crossInstance    = time.Second
	dashboardEmail   = "tulaj@scale.example"
	dashboardPass    = "skála-teszt-jelszó"
)

// TestScale runs two instances of the real binary behind HAProxy on a PostgreSQL primary and
// standby under pg_auto_failover, sends leads and chat messages through the balancer, kills the
// primary (pg_autoctl and PostgreSQL together, with SIGKILL) mid-run and lets the monitor
// promote the standby; then holds the database against every answer: no acknowledged lead or
// message lost, none stored twice. On the new primary it checks that each instance listens
// for changes again (a key revoked through one instance's dashboard is refused by the other
// within a second, a widget setting saved through one is served by the other within a second;
// a live conversation's messages cross between them both ways within a second at p99) and that
// a rate limit with LEADCHAT_RATE_LIMIT_STORE=postgres holds within 10% across both. Throughout,
// a person writes in a live conversation through one instance while the visitor's stream is
// held on the other: every message stored must reach that stream once, the failover too.
// Built with the tags soak and linux: `make scale-test`.
func TestScale(t *testing.T) {
	began := time.Now()
	ctx := context.Background()
	dir := runDir(t, "leadchat-scale-", "instance and pg_autoctl logs, haproxy.cfg")
	// Every program the run needs is looked for first, so a missing one fails at once, named.
	f, err := newFormation(filepath.Join(dir, "pg"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.stop)
	if _, err := exec.LookPath("haproxy"); err != nil {
		t.Fatal(errNoHAProxy)
	}
	type built struct {
		bin string
		err error
	}
	binc := make(chan built, 1)
	go func() { bin, err := buildBinary(ctx, dir); binc <- built{bin, err} }()

	setupCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := f.start(setupCtx); err != nil {
		t.Fatal(err)
	}
	formed := time.Since(began)
	dsn := f.dsn()
	p, err := provisionScale(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	b := <-binc
	if b.err != nil {
		t.Fatal(b.err)
	}

	var servers []*server
	var addrs []string
	for i := range 2 {
		addr, err := freeAddr()
		if err != nil {
			t.Fatal(err)
		}
		s := &server{bin: b.bin, dsn: dsn, addr: addr, logPath: filepath.Join(dir, fmt.Sprintf("instance%d.log", i)), env: []string{
			"LEADCHAT_RATE_LIMIT=on", "LEADCHAT_RATE_LIMIT_STORE=postgres", "LEADCHAT_TRUSTED_PROXIES=127.0.0.1",
			"LEADCHAT_RATE_LEADS_PRIVATE=1000000", "LEADCHAT_RATE_CHAT=1000000", fmt.Sprint("LEADCHAT_RATE_CONFIG=", rateConfig),
		}}
		if err := s.start(); err != nil {
			t.Fatalf("instance %d: %v\n%s", i, err, s.logTail(20))
		}
		t.Cleanup(func() { s.kill() })
		servers, addrs = append(servers, s), append(addrs, addr)
	}
	lb, err := startBalancer(dir, addrs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lb.stop)

	// The run: leads and chat messages through the balancer; the primary dies mid-run.
	gaps := &ackGaps{}
	leads := newLoad(lb.base(), p.private)
	leads.onAck = gaps.ack
	chats := newChatLoad(lb.base(), p.chatKey)
	chats.onAck = gaps.ack
	runCtx, stopRun := context.WithCancel(ctx)
	live, err := startLive(ctx, servers, p)
	if err != nil {
		t.Fatalf("the live conversation: %v", err)
	}
	var loads sync.WaitGroup
	loads.Go(func() { leads.run(runCtx, scaleLeadClients) })
	loads.Go(func() { chats.run(runCtx, scaleChatClients) })
	fo, foErr := failover(ctx, f, servers, gaps, *scalePhase)
	if foErr == nil {
		time.Sleep(*scalePhase)
	}
	stopRun()
	loads.Wait()
	live.stop()
	if foErr != nil {
		t.Fatalf("failover: %v\ntimeline:\n  %s\ninstance log:\n%s", foErr, strings.Join(fo.log, "\n  "), servers[0].logTail(20))
	}

	// What the clients were told during the run, before the retries that settle the rest.
	run := runFigures{leadsSent: leads.sent.Load(), leadsAcked: leads.acked.Load(), chatSent: chats.sent.Load(),
		chatAcked: chats.acked.Load(), longestGap: gaps.longest, gapAt: gaps.at.Sub(fo.killedAt)}
	ackedTurns := map[*turn]bool{}
	for _, t := range chats.turns {
		ackedTurns[t] = t.acked
	}
	replayed, replayProblems := leads.replay(replaySample)
	settleProblems := chats.settle()
	stored, storeProblems, err := verify(ctx, dsn, p.company, leads.requests)
	if err != nil {
		t.Fatalf("checking the leads: %v", err)
	}
	chatStored, chatProblems, err := verifyChat(ctx, dsn, p.company, chats.turns, ackedTurns)
	if err != nil {
		t.Fatalf("checking the chat messages: %v", err)
	}

	// Across instances, on the new primary.
	across, acrossProblems := acrossInstances(ctx, fo.promoted, servers, lb, p)
	liveFig, liveProblems := live.across(ctx)
	liveProblems = append(liveProblems, live.verify(ctx, dsn, &liveFig)...)

	problems := slices.Concat(leads.unexpected, chats.unexpected, replayProblems, settleProblems, storeProblems,
		chatProblems, acrossProblems, liveProblems)
	for i, s := range servers {
		for _, c := range s.crashed() {
			problems = append(problems, fmt.Sprintf("instance %d: %s", i, c))
		}
	}
	t.Log(scaleFigures(run, replayed, stored, chatStored, fo, across, formed, time.Since(began), len(problems)))
	t.Logf("live conversation: %d person's messages acknowledged through instance 0 during the run and failover, "+
		"%d messages stored in the conversation, %d delivered to the visitor's stream on instance 1 (never: %v; each once: %v)",
		liveFig.acked, liveFig.stored, liveFig.delivered, liveFig.missing, len(liveProblems) == 0)
	for _, way := range []struct {
		name string
		ds   []time.Duration
	}{{"a person's message via instance 0 to the visitor's stream on instance 1", liveFig.toVisitor},
		{"a visitor's message via instance 1 to the dashboard's feed on instance 0", liveFig.toAgent}} {
		t.Logf("live across instances on the new primary: %s: p99 %v, max %v over %d messages (want within %v): %s",
			way.name, p99(way.ds).Round(time.Millisecond), slices.Max(append([]time.Duration{0}, way.ds...)).Round(time.Millisecond),
			len(way.ds), crossInstance, verdict(len(way.ds) == liveRounds && p99(way.ds) <= crossInstance))
	}
	t.Logf("failover timeline:\n  %s", strings.Join(fo.log, "\n  "))
	reportProblems(t, problems)
	if len(problems) > 0 {
		for i, s := range servers {
			t.Logf("instance %d log:\n%s", i, s.logTail(15))
		}
	}
}

// scaleSetup is what provisionScale made.
type scaleSetup struct {
	company          uuid.UUID
	private, chatKey string // the lead clients' private key; the visitors' public key
	revoke           admin.CreatedKey
}

// provisionScale migrates the formation's primary and creates the company, its keys and a
// dashboard owner.
func provisionScale(ctx context.Context, dsn string) (scaleSetup, error) {
	c, private, err := provision(ctx, dsn)
	if err != nil {
		return scaleSetup{}, err
	}
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 2})
	if err != nil {
		return scaleSetup{}, err
	}
	defer store.Close()
	chatKey, err := admin.CreateKey(ctx, store, c.ID, auth.Public, nil, true)
	if err != nil {
		return scaleSetup{}, err
	}
	revoke, err := admin.CreateKey(ctx, store, c.ID, auth.Public, nil, true)
	if err != nil {
		return scaleSetup{}, err
	}
	if _, err := admin.CreateUser(ctx, store, "http://127.0.0.1", c.ID, dashboardEmail, user.Owner, dashboardPass); err != nil {
		return scaleSetup{}, err
	}
	return scaleSetup{company: c.ID, private: private, chatKey: chatKey.Key, revoke: revoke}, nil
}

// ackGaps finds the longest stretch without an acknowledged request: the time without service.
type ackGaps struct {
	mu      sync.Mutex
	last    time.Time
	longest time.Duration
	at      time.Time // when the longest stretch began
}

func (g *ackGaps) ack() {
	now := time.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.last.IsZero() && now.Sub(g.last) > g.longest {
		g.longest, g.at = now.Sub(g.last), g.last
	}
	g.last = now
}

func (g *ackGaps) lastAck() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.last
}

// failoverFigures is what happened to the formation.
type failoverFigures struct {
	killed, promoted *autoctl
	before           replication // the primary's, when it was killed
	killedAt         time.Time
	promotedIn       time.Duration // until the monitor had the standby as primary
	readyIn          time.Duration // until both instances answered /readyz
	servedIn         time.Duration // until a request was acknowledged again
	log              []string
}

func (fo *failoverFigures) note(what string) {
	now := time.Now()
	at := "      "
	if !fo.killedAt.IsZero() {
		at = fmt.Sprintf("%+6.2fs", now.Sub(fo.killedAt).Seconds())
	}
	fo.log = append(fo.log, fmt.Sprintf("%s (%s) %s", at, now.UTC().Format("15:04:05.000"), what))
}

// failover lets the clients run for warmup, checks that the primary commits synchronously,
// kills it, and waits until the monitor has promoted the standby, both instances are ready and
// a request has been acknowledged again.
func failover(ctx context.Context, f *formation, servers []*server, gaps *ackGaps, warmup time.Duration) (*failoverFigures, error) {
	fo := &failoverFigures{}
	time.Sleep(warmup)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	primary, err := f.primary(ctx)
	if err != nil {
		return fo, err
	}
	if fo.before, err = replicationOf(ctx, primary); err != nil {
		return fo, fmt.Errorf("reading the primary's replication settings: %w", err)
	}
	if !fo.before.synchronous() {
		return fo, fmt.Errorf("the primary %s does not commit synchronously (%v): an acknowledged lead could be lost with it", primary.name, fo.before)
	}
	fo.killed = primary
	fo.note(fmt.Sprintf("primary %s (port %d) commits synchronously: %v", primary.name, primary.port, fo.before))
	fo.killedAt = time.Now()
	f.kill(primary)
	fo.note("SIGKILL to " + primary.name + "'s pg_autoctl and PostgreSQL")
	for _, n := range f.nodes {
		if n != primary {
			fo.promoted = n
		}
	}
	if err := f.await(ctx, map[string]string{fo.promoted.name: "wait_primary"}); err != nil {
		return fo, err
	}
	fo.promotedIn = time.Since(fo.killedAt)
	fo.note(fo.promoted.name + " promoted (wait_primary: a primary without a standby)")
	for i, s := range servers {
		if err := s.ready(); err != nil {
			return fo, fmt.Errorf("instance %d after the failover: %w", i, err)
		}
	}
	fo.readyIn = time.Since(fo.killedAt)
	fo.note("both instances ready")
	for !gaps.lastAck().After(fo.killedAt.Add(fo.promotedIn)) {
		if ctx.Err() != nil {
			return fo, fmt.Errorf("no request acknowledged after the failover")
		}
		time.Sleep(10 * time.Millisecond)
	}
	fo.servedIn = gaps.lastAck().Sub(fo.killedAt)
	fo.note("requests acknowledged again")
	return fo, nil
}

// acrossFigures is what the checks across instances measured.
type acrossFigures struct {
	keyCached, widgetCached  bool          // the other instance answered from its cache before the change
	revokedIn, widgetIn      time.Duration // until the other instance acted on the change
	sessionShared            bool
	rateAllowed, rateRefused int
	rateExpected             float64
	rateByInstance           map[string]int
}

// acrossInstances checks, on the new primary, that changes made through one instance reach the
// other within crossInstance and that the config limit holds across both.
func acrossInstances(ctx context.Context, primary *autoctl, servers []*server, lb *balancer, p scaleSetup) (acrossFigures, []string) {
	var fig acrossFigures
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	a, b := servers[0], servers[1]

	// An instance caches keys and settings only while its change listener is connected (to the
	// new primary, now): each check first shows that instance 1 answers from its cache.
	dash, err := login(a.base())
	if err != nil {
		fail("dashboard login through instance 0: %v", err)
		return fig, problems
	}
	if st, _ := dash.get(b.base() + "/app/embed"); st == http.StatusOK {
		fig.sessionShared = true
	} else {
		fail("the dashboard session made through instance 0 is not valid on instance 1 (%d)", st)
	}

	// A key revoked through instance 0 is refused by instance 1, which had it cached.
	configFrom := func(base, key, ip string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/embed/config?api_key="+url.QueryEscape(key), nil)
		req.Header.Set("X-Forwarded-For", ip)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	fig.keyCached, err = servedFromCache(ctx, primary, "FROM api_keys k JOIN companies", func() {
		if st, _ := configFrom(b.base(), p.revoke.Key, "192.0.2.10"); st != http.StatusOK {
			fail("the key to revoke does not work on instance 1 before its revocation: %d", st)
		}
	})
	if err != nil || !fig.keyCached {
		fail("instance 1 does not serve the key from its cache before the revocation (%v): the check would prove nothing", err)
	}
	if st, err := dash.post(a.base()+"/app/embed/keys/"+p.revoke.ID.String()+"/revoke", nil); st != http.StatusSeeOther {
		fail("revoking the key through instance 0's dashboard: %d %v", st, err)
	} else {
		fig.revokedIn, err = within(func() bool {
			st, _ := configFrom(b.base(), p.revoke.Key, "192.0.2.10")
			return st == http.StatusUnauthorized
		})
		if err != nil {
			fail("a key revoked through instance 0 still works on instance 1: %v", err)
		}
	}

	// A widget setting saved through instance 0 is served by instance 1, which had the old one
	// cached.
	fig.widgetCached, err = servedFromCache(ctx, primary, "FROM widget_settings WHERE", func() {
		configFrom(b.base(), p.chatKey, "192.0.2.11")
	})
	if err != nil || !fig.widgetCached {
		fail("instance 1 does not serve the widget settings from its cache before the change (%v): the check would prove nothing", err)
	}
	welcome := "Üdvözöljük a skálázott rendszerben! " + uuid.NewString()[:8]
	form := url.Values{"welcome_message": {welcome}, "language": {"hu"}}
	if st, err := dash.post(a.base()+"/app/widget", form); st != http.StatusSeeOther {
		fail("saving the widget settings through instance 0's dashboard: %d %v", st, err)
	} else {
		fig.widgetIn, err = within(func() bool {
			_, body := configFrom(b.base(), p.chatKey, "192.0.2.11")
			return body["welcome_message"] == welcome
		})
		if err != nil {
			fail("a welcome message saved through instance 0 is not served by instance 1: %v", err)
		}
	}

	// The config limit, kept in PostgreSQL, holds across both instances: one client's requests,
	// spread over both by the balancer, get the limit's burst plus its refill, not twice that.
	fig.rateByInstance = map[string]int{}
	var mu sync.Mutex
	work := make(chan struct{})
	var wg sync.WaitGroup
	start := time.Now()
	for range 8 {
		wg.Go(func() {
			for range work {
				req, _ := http.NewRequest(http.MethodGet, lb.base()+"/api/embed/config?api_key="+url.QueryEscape(p.chatKey), nil)
				req.Header.Set("X-Forwarded-For", "198.51.100.77")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				switch resp.StatusCode {
				case http.StatusOK:
					fig.rateAllowed++
					fig.rateByInstance[resp.Header.Get("X-Leadchat-Instance")]++
				case http.StatusTooManyRequests:
					fig.rateRefused++
				default:
					fail("config through the balancer: %d", resp.StatusCode)
				}
				mu.Unlock()
			}
		})
	}
	for range rateRequests {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	fig.rateExpected = rateConfig + rateConfig/60.0*time.Since(start).Seconds()
	if d := float64(fig.rateAllowed) - fig.rateExpected; d > 0.1*fig.rateExpected || d < -0.1*fig.rateExpected {
		fail("rate limit across instances: %d of %d requests allowed, want %.0f ± 10%%", fig.rateAllowed, rateRequests, fig.rateExpected)
	}
	if len(fig.rateByInstance) < len(servers) {
		fail("the allowed config requests came from %v, want every instance", fig.rateByInstance)
	}
	return fig, problems
}

// servedFromCache sends a request that needs what the query matching pattern reads, then sends
// it twice more and reports whether those two ran the query on node n (pg_stat_statements,
// which pg_auto_failover loads): when they did not, the instance answered from its cache.
func servedFromCache(ctx context.Context, n *autoctl, pattern string, send func()) (bool, error) {
	store, err := postgres.Open(ctx, nodeDSN(n), postgres.Options{MaxOpenConns: 1})
	if err != nil {
		return false, err
	}
	defer store.Close()
	calls := func() (int64, error) {
		var c int64
		err := store.DB().QueryRowContext(ctx, `SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
			WHERE query LIKE '%' || $1 || '%' AND query NOT LIKE '%pg_stat_statements%'`, pattern).Scan(&c)
		return c, err
	}
	send()
	before, err := calls()
	if err != nil {
		return false, err
	}
	send()
	send()
	after, err := calls()
	return err == nil && after == before, err
}

// within polls done until it reports true, for at most crossInstance, and says how long it took.
func within(done func() bool) (time.Duration, error) {
	start := time.Now()
	for {
		if done() {
			return time.Since(start), nil
		}
		if time.Since(start) > crossInstance {
			return time.Since(start), fmt.Errorf("not after %v", crossInstance)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dashboard is a logged-in dashboard user, its session cookie in a jar.
type dashboard struct{ http *http.Client }

func login(base string) (*dashboard, error) {
	jar, _ := cookiejar.New(nil)
	d := &dashboard{http: &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	st, err := d.post(base+"/app/login", url.Values{"email": {dashboardEmail}, "password": {dashboardPass}})
	if err == nil && st != http.StatusSeeOther {
		err = fmt.Errorf("status %d", st)
	}
	return d, err
}

func (d *dashboard) post(u string, form url.Values) (int, error) {
	resp, err := d.http.PostForm(u, form)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func (d *dashboard) get(u string) (int, error) {
	resp, err := d.http.Get(u)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// runFigures is what the clients were told during the run.
type runFigures struct {
	leadsSent, leadsAcked, chatSent, chatAcked int64
	longestGap, gapAt                          time.Duration
}

// scaleFigures is the run's summary, printed whatever the result.
func scaleFigures(r runFigures, rep replayFigures, s storedFigures, c chatFigures, fo *failoverFigures, x acrossFigures,
	formed, took time.Duration, problems int) string {
	result := "PASS"
	if problems > 0 {
		result = fmt.Sprintf("FAIL (%d violations)", problems)
	}
	var b strings.Builder
	row := func(name string, format string, args ...any) {
		fmt.Fprintf(&b, "\n  %-26s %s", name, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(&b, "scale: 2 instances behind HAProxy, PostgreSQL primary and standby under pg_auto_failover; "+
		"%d lead clients (half with Idempotency-Key), %d chat visitors", scaleLeadClients, scaleChatClients)
	row("requests", "%d (%d lead creates, %d chat messages; HTTP attempts, retries included)", r.leadsSent+r.chatSent, r.leadsSent, r.chatSent)
	row("acknowledged", "%d (%d leads 201, %d chat messages 200)", r.leadsAcked+r.chatAcked, r.leadsAcked, r.chatAcked)
	row("stored", "%d (%d leads, %d chat messages with their replies)", s.leads+c.stored, s.leads, c.stored)
	row("stored, answer lost", "%d leads, %d chat messages (settled by retrying: %d lead replays, %d answered only then)",
		s.unanswered, c.unanswered, rep.sent, rep.resolved)
	row("lost", "%d (acknowledged, not stored)", s.lost+c.lost)
	row("duplicates", "%d", s.duplicates+c.duplicates)
	row("time without service", "%.1f s (longest stretch without an acknowledged request, from %+.1f s after the kill)",
		r.longestGap.Seconds(), r.gapAt.Seconds())
	row("failover", "primary killed; standby promoted after %.1f s, instances ready after %.1f s, serving after %.1f s",
		fo.promotedIn.Seconds(), fo.readyIn.Seconds(), fo.servedIn.Seconds())
	row("replication at the kill", "%v", fo.before)
	row("key revoked via 0", "refused by instance 1 after %v (cached there before: %v)", x.revokedIn.Round(time.Millisecond), x.keyCached)
	row("widget saved via 0", "served by instance 1 after %v (cached there before: %v)", x.widgetIn.Round(time.Millisecond), x.widgetCached)
	row("dashboard session", "made on instance 0, valid on instance 1: %v", x.sessionShared)
	row("shared rate limit", "%d of %d config requests allowed (limit %d/min: %.0f expected ± 10%%; %v by instance), %d refused",
		x.rateAllowed, rateRequests, rateConfig, x.rateExpected, x.rateByInstance, x.rateRefused)
	row("took", "%.0f s (formation ready after %.0f s)", took.Seconds(), formed.Seconds())
	row("result", "%s", result)
	return b.String()
}
