//go:build streambench && linux

package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/user"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const (
	idleStreams  = 5000
	busyStreams  = 1000
	agentRate    = 100 // messages a second
	agentSeconds = 10
)

// TestStreams measures what open chat streams cost a `leadchat serve` of its own: its resident
// memory per idle visitor stream, and the time from a person's message being stored (by another
// connection, as another instance would) to its arrival on a visitor's stream, at 100 messages
// a second spread over 1,000 streams. It asserts nothing: `go test -tags streambench -run
// TestStreams -v ./internal/bench/` prints the figures.
func TestStreams(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewDSN(t)
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	c, err := store.CreateCompany(ctx, "Stream Kft.", plan.Business, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	key, err := admin.CreateKey(ctx, store, c.ID, auth.Public, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	u, err := store.CreateUser(ctx, c.ID, "munkatars@stream.hu", user.Member, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.DB().ExecContext(ctx, `INSERT INTO chat_sessions (company_id, session_id)
		SELECT $1, 'bench-session-' || lpad(g::text, 10, '0') FROM generate_series(1, $2) g`, c.ID, idleStreams); err != nil {
		t.Fatal(err)
	}
	sid := func(i int) string { return fmt.Sprintf("bench-session-%010d", i+1) }

	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "leadchat")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "leadchat")).CombinedOutput(); err != nil {
		t.Fatalf("building: %v\n%s", err, out)
	}
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	env := append(baseEnv(), "DATABASE_URL="+dsn, "LEADCHAT_ADDR="+addr, "LEADCHAT_RATE_LIMIT=off",
		"LEADCHAT_LOG_LEVEL=error", "LEADCHAT_DELIVERY_WORKERS=0", "LEADCHAT_MAX_CONNS=20000",
		"LEADCHAT_TRUSTED_PROXIES=127.0.0.1", "LEADCHAT_DB_MAX_CONNS=16")
	p, err := startProcess(ctx, "leadchat", bin, []string{"serve"}, env, filepath.Join(t.TempDir(), "leadchat.log"),
		answers("http://"+addr+"/readyz"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	time.Sleep(time.Second)
	before := rss(t, p.pid())

	tr := &http.Transport{MaxIdleConnsPerHost: idleStreams, DisableCompression: true}
	hc := &http.Client{Transport: tr}
	var mu sync.Mutex
	arrived := map[string]time.Time{}
	opened := make(chan error, idleStreams)
	streamCtx, stop := context.WithCancel(ctx)
	defer stop()
	gate := make(chan struct{}, 64)
	openStart := time.Now()
	for i := range idleStreams {
		gate <- struct{}{}
		go func() {
			q := url.Values{"api_key": {key.Key}, "session_id": {sid(i)}}
			req, _ := http.NewRequestWithContext(streamCtx, http.MethodGet, "http://"+addr+"/api/embed/chat/stream?"+q.Encode(), nil)
			// 20 streams per client address: every 20 streams come from another address.
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.1", i/20/250, i/20%250))
			resp, err := hc.Do(req)
			<-gate
			if err != nil || resp.StatusCode != http.StatusOK {
				opened <- fmt.Errorf("stream %d: %v %v", i, err, resp)
				return
			}
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			first := true
			for sc.Scan() {
				line := sc.Text()
				if first && line == "" {
					opened <- nil
					first = false
				}
				if rest, ok := strings.CutPrefix(line, "data: {"); ok && strings.Contains(rest, `"role":"agent"`) {
					var m struct{ Text string }
					if json.Unmarshal([]byte("{"+rest), &m) == nil {
						mu.Lock()
						arrived[m.Text] = time.Now()
						mu.Unlock()
					}
				}
			}
		}()
	}
	for range idleStreams {
		if err := <-opened; err != nil {
			t.Fatal(err)
		}
	}
	openTook := time.Since(openStart)
	time.Sleep(2 * time.Second)
	after := rss(t, p.pid())
	t.Logf("%d idle streams opened in %v; server RSS %d KiB before, %d KiB with them: %.1f KiB per stream",
		idleStreams, openTook.Round(time.Millisecond), before, after, float64(after-before)/idleStreams)

	live := chat.NewLive(store, nil)
	agent := chat.Agent{ID: u.ID, Name: "munkatars"}
	sent := map[string]time.Time{}
	tick := time.NewTicker(time.Second / agentRate)
	for n := range agentRate * agentSeconds {
		<-tick.C
		text := "m" + strconv.Itoa(n)
		sent[text] = time.Now()
		if _, err := live.Send(ctx, c.ID, sid(n%busyStreams), agent, text); err != nil {
			t.Fatal(err)
		}
	}
	tick.Stop()
	time.Sleep(time.Second)
	mu.Lock()
	var lat []time.Duration
	for text, at := range sent {
		if got, ok := arrived[text]; ok {
			lat = append(lat, got.Sub(at))
		}
	}
	mu.Unlock()
	slices.Sort(lat)
	if len(lat) == 0 {
		t.Fatal("no message arrived")
	}
	pct := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	t.Logf("%d agent messages at %d/s over %d of the streams: %d arrived; store to visitor p50 %v, p99 %v, max %v; server RSS %d KiB",
		len(sent), agentRate, busyStreams, len(lat), pct(.5).Round(time.Microsecond), pct(.99).Round(time.Microsecond),
		lat[len(lat)-1].Round(time.Microsecond), rss(t, p.pid()))
	stop()
}

// rss is a process's resident set in KiB.
func rss(t *testing.T, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}
