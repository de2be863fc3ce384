package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// The streams step holds idleStreams visitor chat streams open on a `leadchat serve` of its
// own, then has a person write agentRate messages a second over busyStreams of them, first
// through that instance and then through the bench's main leadchat, a second instance on the
// same database, whose news reaches the first only through PostgreSQL.
const (
	idleStreams = 5000
	busyStreams = 1000
	agentRate   = 100 // messages a second
	// streamOpeners is how many streams are being opened at once.
	streamOpeners = 64
	// streamsPerAddress is how many streams one client address holds; the service allows 20.
	streamsPerAddress = 20
)

// streamsOwner and streamsPassword are the streams company's dashboard login.
const (
	streamsOwner    = "tulajdonos@bench-streams.hu"
	streamsPassword = "bench jelszó 5678"
)

// streamFigures is what the streams step measured.
type streamFigures struct {
	streams, busy int
	openTook      time.Duration
	// rssBefore and rssWith are the streams server's resident set before the streams opened
	// and with them open, in bytes.
	rssBefore, rssWith int64
	// one and two are each message's time from the person's POST to its arrival on the
	// visitor's stream, sorted: through the instance holding the streams, and through the other.
	one, two   []time.Duration
	sent, lost [2]int
	// openPG is PostgreSQL's CPU time per stream opened (every process of the cluster, over
	// the opening of them all).
	openPG time.Duration
	// other is the CPU, in cores, that processes not of the bench used during each way's
	// messages.
	other [2]float64
	err   string
}

// perStream is the resident memory each open stream added, in KiB.
func (f *streamFigures) perStream() float64 {
	if f.streams == 0 {
		return 0
	}
	return float64(f.rssWith-f.rssBefore) / 1024 / float64(f.streams)
}

// streams runs the streams step; its figures carry what went wrong, if anything did.
func (b *bench) streams(ctx context.Context) *streamFigures {
	f := &streamFigures{streams: idleStreams, busy: busyStreams}
	if b.opt.smoke {
		f.streams, f.busy = 200, 100
	}
	if err := b.measureStreams(ctx, f); err != nil {
		f.err = err.Error()
	}
	return f
}

func (b *bench) measureStreams(ctx context.Context, f *streamFigures) error {
	company, key, err := b.provisionStreams(ctx, f.streams)
	if err != nil {
		return err
	}
	sid := func(i int) string { return fmt.Sprintf("%s%06d", streamSessionPrefix(company), i) }
	server, addr, err := b.startServe(ctx, "leadchat (streams)", "leadchat-streams.log", func(addr string) []string {
		return append(b.leadchatEnv("leadchat", addr), "LEADCHAT_MAX_CONNS=20000", "LEADCHAT_TRUSTED_PROXIES=127.0.0.1")
	})
	if err != nil {
		return err
	}
	defer server.stop()
	cookie, err := b.dashboardLoginAs(ctx, addr, streamsOwner, streamsPassword)
	if err != nil {
		return err
	}
	f.rssBefore = residentRSS(server.pid())

	var mu sync.Mutex
	arrived := map[string]time.Time{}
	streamCtx, stop := context.WithCancel(ctx)
	defer stop()
	hc := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	opened := make(chan error, f.streams)
	gate := make(chan struct{}, streamOpeners)
	began, openStart := time.Now(), b.sample()
	var readers sync.WaitGroup
	for i := range f.streams {
		gate <- struct{}{}
		readers.Go(func() {
			q := url.Values{"api_key": {key}, "session_id": {sid(i)}}
			req, _ := http.NewRequestWithContext(streamCtx, http.MethodGet, "http://"+addr+"/api/embed/chat/stream?"+q.Encode(), nil)
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.1", i/streamsPerAddress/250, i/streamsPerAddress%250))
			resp, err := hc.Do(req)
			<-gate
			if err != nil {
				opened <- fmt.Errorf("opening stream %d: %w", i, err)
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				opened <- fmt.Errorf("opening stream %d: status %d", i, resp.StatusCode)
				return
			}
			sc := bufio.NewScanner(resp.Body)
			first := true
			for sc.Scan() {
				line := sc.Text()
				if first && line == "" { // the first event (presence) is complete
					opened <- nil
					first = false
				}
				if rest, ok := strings.CutPrefix(line, "data: {"); ok && strings.Contains(rest, `"role":"agent"`) {
					var m struct{ Text string }
					if json.Unmarshal([]byte("{"+rest), &m) == nil {
						now := time.Now()
						mu.Lock()
						arrived[m.Text] = now
						mu.Unlock()
					}
				}
			}
			if first {
				opened <- fmt.Errorf("stream %d ended before its first event", i)
			}
		})
	}
	defer readers.Wait()
	defer stop()
	for range f.streams {
		if err := <-opened; err != nil {
			return err
		}
	}
	f.openTook = time.Since(began)
	f.openPG = b.sample().minus(openStart).pg / time.Duration(f.streams)
	// The memory of streams just opened settles after a collection or two.
	time.Sleep(2 * time.Second)
	f.rssWith = residentRSS(server.pid())
	fmt.Fprintf(b.log, "        %d idle chat streams opened in %v; their server's RSS %.1f MiB before, %.1f MiB with them\n",
		f.streams, f.openTook.Round(time.Millisecond), float64(f.rssBefore)/(1<<20), float64(f.rssWith)/(1<<20))

	for phase, via := range []string{addr, b.leadchatAddr} {
		before, streamsCPU := b.sample(), processCPU(server.pid())
		lat, sent, lost, err := b.agentMessages(ctx, via, cookie, f.busy, sid, fmt.Sprintf("p%d-", phase), &mu, arrived)
		if err != nil {
			return err
		}
		spent := b.sample().minus(before)
		ours := spent.self + spent.leadchat + spent.pg + processCPU(server.pid()) - streamsCPU
		f.other[phase] = max(0, (spent.busy-ours).Seconds()/spent.wall.Seconds())
		if phase == 0 {
			f.one = lat
		} else {
			f.two = lat
		}
		f.sent[phase], f.lost[phase] = sent, lost
		fmt.Fprintf(b.log, "        person's messages at %d/s through instance %d of 2: %d sent, %d lost, to the visitor p50 %s p99 %s\n",
			agentRate, phase+1, sent, lost, fmtDur(percentile(lat, 0.50)), fmtDur(percentile(lat, 0.99)))
	}
	return nil
}

// agentMessages posts agentRate messages a second for the run's duration through the dashboard
// at addr, each to the next of the first busy sessions, each on its own so a slow answer does
// not hold back the pace; it returns each arrived message's time from its POST to its arrival,
// sorted, how many were sent and how many never arrived.
func (b *bench) agentMessages(ctx context.Context, addr, cookie string, busy int, sid func(int) string, prefix string,
	mu *sync.Mutex, arrived map[string]time.Time) ([]time.Duration, int, int, error) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var sentMu sync.Mutex
	sent := map[string]time.Time{}
	var failed error
	var posts sync.WaitGroup
	// Message n is due at n/agentRate seconds: a late one is sent at once, so the rate holds
	// on a busy machine, where a ticker would drop the ticks it could not deliver.
	began := time.Now()
	total := agentRate * int(b.opt.duration/time.Second)
	for n := 0; n < total && ctx.Err() == nil; n++ {
		time.Sleep(time.Until(began.Add(time.Duration(n) * time.Second / agentRate)))
		text := prefix + fmt.Sprint(n)
		posts.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/app/conversations/"+sid(n%busy)+"/messages",
				strings.NewReader(url.Values{"text": {text}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Cookie", cookie)
			at := time.Now()
			resp, err := hc.Do(req)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusSeeOther {
					err = fmt.Errorf("status %d", resp.StatusCode)
				}
			}
			sentMu.Lock()
			defer sentMu.Unlock()
			if err != nil {
				failed = fmt.Errorf("a person's message through %s: %w", addr, err)
				return
			}
			sent[text] = at
		})
	}
	posts.Wait()
	if failed != nil {
		return nil, 0, 0, failed
	}
	// What has not arrived a few seconds after the last POST is lost.
	var lat []time.Duration
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		lat = lat[:0]
		for text, at := range sent {
			if got, ok := arrived[text]; ok {
				lat = append(lat, got.Sub(at))
			}
		}
		mu.Unlock()
		if len(lat) == len(sent) || time.Now().After(deadline) {
			break
		}
	}
	slices.Sort(lat)
	return lat, len(sent), len(sent) - len(lat), nil
}

// provisionStreams creates the streams company: a public key, an owner for the dashboard and n
// chat sessions, each with no messages yet.
func (b *bench) provisionStreams(ctx context.Context, n int) (uuid.UUID, string, error) {
	s, err := postgres.Open(ctx, b.cluster.DSN("leadchat"), postgres.Options{MaxOpenConns: 2})
	if err != nil {
		return uuid.Nil, "", err
	}
	defer s.Close()
	c, err := s.CreateCompany(ctx, "bench streams", plan.Enterprise, plan.Override{})
	if err != nil {
		return uuid.Nil, "", err
	}
	key, err := admin.CreateKey(ctx, s, c.ID, auth.Public, nil, true)
	if err != nil {
		return uuid.Nil, "", err
	}
	if _, _, err := user.Create(ctx, s, c.ID, streamsOwner, user.Owner, streamsPassword); err != nil {
		return uuid.Nil, "", fmt.Errorf("creating the streams company's owner: %w", err)
	}
	if _, err := s.DB().ExecContext(ctx, `INSERT INTO chat_sessions (company_id, session_id)
		SELECT $1, $3 || lpad(g::text, 6, '0') FROM generate_series(0, $2 - 1) g`,
		c.ID, n, streamSessionPrefix(c.ID)); err != nil {
		return uuid.Nil, "", fmt.Errorf("creating the chat sessions: %w", err)
	}
	return c.ID, key.Key, nil
}

// streamSessionPrefix starts the session ids of the streams company; a number of six digits
// ends them.
func streamSessionPrefix(company uuid.UUID) string {
	return "bench-stream-" + company.String()[:8] + "-"
}

// targets judges the streams step.
// targets judges the figures; chatPG is PostgreSQL's CPU time per chat turn in the same run (0
// when the chat step did not run, and then opening a stream is not compared with it).
func (f *streamFigures) targets(judge func(ok bool, format string, args ...any), chatPG time.Duration) {
	if f.err != "" {
		judge(false, "chat streams: %s", firstLine(f.err))
		return
	}
	judge(f.rssWith > 0 && f.rssWith < 128<<20, "chat streams: %d idle visitor streams, their server's RSS %.1f MiB (want < 128 MiB)",
		f.streams, float64(f.rssWith)/(1<<20))
	judge(f.perStream() <= 16, "chat streams: %.1f KiB of RSS per idle visitor stream, %d opened in %v (want ≤ 16 KiB)",
		f.perStream(), f.streams, f.openTook.Round(time.Millisecond))
	if chatPG > 0 {
		judge(f.openPG > 0 && f.openPG <= chatPG,
			"chat streams: opening one cost PostgreSQL %s of CPU, a chat turn %s in this run (want no more than a turn)",
			fmtDur(f.openPG), fmtDur(chatPG))
	}
	for i, way := range []struct {
		name string
		lat  []time.Duration
		want time.Duration
	}{{"one instance", f.one, 250 * time.Millisecond}, {"across two instances", f.two, time.Second}} {
		p99 := percentile(way.lat, 0.99)
		judge(f.lost[i] == 0 && len(way.lat) > 0 && p99 < way.want,
			"person's message to the visitor's stream, %s, %d/s over %d streams: p50 %s, p99 %s, %d of %d lost (want p99 < %s, none lost)%s",
			way.name, agentRate, f.busy, fmtDur(percentile(way.lat, 0.50)), fmtDur(p99), f.lost[i], f.sent[i], fmtDur(way.want),
			disturbed(&row{other: f.other[i]}))
	}
}
