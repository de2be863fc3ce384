//go:build soak && linux

package soak

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// liveRun follows one conversation through the run and the failover: a visitor's stream held
// on instance 1 (reconnecting after the last id it got, as EventSource does) while a person
// writes through instance 0's dashboard every 100 ms, each message retried until acknowledged.
type liveRun struct {
	a, b    *server
	key     string
	company uuid.UUID
	sid     string
	dash    *dashboard

	mu       sync.Mutex
	received map[int64]int // message id: how often the stream delivered it
	arrived  map[string]time.Time
	last     int64
	acked    int
	cancel   context.CancelFunc
	done     sync.WaitGroup
}

// startLive starts the conversation, takes it over through instance 0 and starts the stream
// and the writer.
func startLive(ctx context.Context, servers []*server, p scaleSetup) (*liveRun, error) {
	l := &liveRun{a: servers[0], b: servers[1], key: p.chatKey, company: p.company,
		received: map[int64]int{}, arrived: map[string]time.Time{}}
	var err error
	if l.sid, err = l.visit("Jó napot, emberrel beszélnék."); err != nil {
		return nil, fmt.Errorf("the visitor's first message: %w", err)
	}
	if l.dash, err = login(l.a.base()); err != nil {
		return nil, fmt.Errorf("dashboard login: %w", err)
	}
	if st, err := l.dash.post(l.a.base()+"/app/conversations/"+l.sid+"/take", nil); st != http.StatusSeeOther {
		return nil, fmt.Errorf("taking over: %d %v", st, err)
	}
	ctx, l.cancel = context.WithCancel(ctx)
	l.done.Go(func() { l.follow(ctx) })
	l.done.Go(func() { l.write(ctx) })
	return l, nil
}

// visit sends a visitor message through instance 1 and returns the session id.
func (l *liveRun) visit(text string) (string, error) {
	body, _ := json.Marshal(map[string]string{"api_key": l.key, "message": text, "session_id": l.sid})
	if l.sid == "" {
		body, _ = json.Marshal(map[string]string{"api_key": l.key, "message": text})
	}
	req, _ := http.NewRequest(http.MethodPost, l.b.base()+"/api/embed/chat", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", "203.0.113.200")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		SessionID string `json:"session_id"`
		HandledBy string `json:"handled_by"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d: %v", resp.StatusCode, err)
	}
	return out.SessionID, nil
}

// follow holds the visitor's stream on instance 1 until ctx ends.
func (l *liveRun) follow(ctx context.Context) {
	for ctx.Err() == nil {
		l.mu.Lock()
		after := l.last
		l.mu.Unlock()
		q := url.Values{"api_key": {l.key}, "session_id": {l.sid}}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, l.b.base()+"/api/embed/chat/stream?"+q.Encode(), nil)
		req.Header.Set("Last-Event-ID", strconv.FormatInt(after, 10))
		req.Header.Set("X-Forwarded-For", "203.0.113.201")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			if resp.StatusCode == http.StatusOK {
				l.read(resp.Body)
			}
			resp.Body.Close()
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// read records the stream's message events until it ends.
func (l *liveRun) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	var event string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "message":
			var m struct {
				ID   int64  `json:"id"`
				Text string `json:"text"`
			}
			if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m) == nil {
				l.mu.Lock()
				l.received[m.ID]++
				l.last = max(l.last, m.ID)
				if _, ok := l.arrived[m.Text]; !ok {
					l.arrived[m.Text] = time.Now()
				}
				l.mu.Unlock()
			}
		case line == "":
			event = ""
		}
	}
}

// write sends the person's messages through instance 0 until ctx ends, each until acknowledged.
func (l *liveRun) write(ctx context.Context) {
	for n := 1; ctx.Err() == nil; n++ {
		text := fmt.Sprintf("Munkatárs üzenete %d", n)
		for ctx.Err() == nil {
			st, _ := l.dash.post(l.a.base()+"/app/conversations/"+l.sid+"/messages", url.Values{"text": {text}})
			if st == http.StatusSeeOther {
				l.mu.Lock()
				l.acked++
				l.mu.Unlock()
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (l *liveRun) stop() {
	l.cancel()
	l.done.Wait()
}

// liveFigures is what the live conversation showed.
type liveFigures struct {
	acked, stored, delivered int
	// missing are stored messages the visitor's stream never sent.
	missing []int64
	// toVisitor and toAgent are how long each of liveRounds messages took between the
	// instances on the new primary, in the order sent.
	toVisitor, toAgent []time.Duration
}

// liveRounds is how many messages across() sends each way: enough for a p99 that is not just
// one unlucky message, and within limits.SessionMessages for the visitor.
const liveRounds = 40

// across measures, on the new primary, how long messages take between the instances each way:
// liveRounds of a person's through instance 0 to the visitor's stream on instance 1, then as
// many of the visitor's through instance 1 to the dashboard's live feed on instance 0. Each is
// sent once the one before arrived, so each delay is that message's own. It holds the
// visitor's stream until every visitor message came back on it too, so verify sees a stream
// that has had its chance to send everything stored.
func (l *liveRun) across(ctx context.Context) (liveFigures, []string) {
	var fig liveFigures
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.done.Go(func() { l.follow(fctx) })
	arrived := func(text string) func() bool {
		return func() bool {
			l.mu.Lock()
			defer l.mu.Unlock()
			_, ok := l.arrived[text]
			return ok
		}
	}
	tag := uuid.NewString()[:8]
	for i := range liveRounds {
		text := fmt.Sprintf("Átjött a másik példányon? %s %d", tag, i)
		sent := time.Now()
		if st, err := l.dash.post(l.a.base()+"/app/conversations/"+l.sid+"/messages", url.Values{"text": {text}}); st != http.StatusSeeOther {
			fail("a person's message through instance 0: %d %v", st, err)
			return fig, problems
		}
		if _, err := within(arrived(text)); err != nil {
			fail("a person's message through instance 0 did not reach the visitor's stream on instance 1: %v", err)
			return fig, problems
		}
		l.mu.Lock()
		fig.toVisitor = append(fig.toVisitor, l.arrived[text].Sub(sent))
		l.mu.Unlock()
	}

	// The dashboard's feed on instance 0 says "changed" for a visitor's message on instance 1.
	req, _ := http.NewRequestWithContext(fctx, http.MethodGet, l.a.base()+"/app/conversations/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	hc := *l.dash.http
	hc.Timeout = 0
	resp, err := hc.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		fail("the dashboard's live feed on instance 0: %v %v", err, resp)
		return fig, problems
	}
	defer resp.Body.Close()
	changed := make(chan time.Time, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() == "event: changed" {
				select {
				case changed <- time.Now():
				default: // a wake-up nobody waits for
				}
			}
		}
	}()
	var texts []string
	for i := range liveRounds {
		// What the feed said before this message is not this message's news.
		for len(changed) > 0 {
			<-changed
		}
		text := fmt.Sprintf("Köszönöm, megkaptam. %s %d", tag, i)
		texts = append(texts, text)
		sent := time.Now()
		if _, err := l.visit(text); err != nil {
			fail("a visitor's message through instance 1: %v", err)
			return fig, problems
		}
		select {
		case at := <-changed:
			fig.toAgent = append(fig.toAgent, at.Sub(sent))
		case <-time.After(crossInstance):
			fail("a visitor's message through instance 1 did not reach the dashboard on instance 0 within %v", crossInstance)
			return fig, problems
		}
	}
	// The visitor's own messages come back on the visitor's stream as well.
	for _, text := range texts {
		if _, err := within(arrived(text)); err != nil {
			fail("a visitor's message did not come back on the visitor's stream on instance 1: %v", err)
			break
		}
	}
	for _, d := range [][]time.Duration{fig.toVisitor, fig.toAgent} {
		if p := p99(d); p > crossInstance {
			fail("live: a message between the instances took %v at p99, want within %v", p, crossInstance)
		}
	}
	return fig, problems
}

// verify holds what the stream received against the database: every message stored in the
// conversation reached the visitor's stream once, across the failover too, and nothing else
// did.
func (l *liveRun) verify(ctx context.Context, dsn string, fig *liveFigures) []string {
	var problems []string
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return []string{err.Error()}
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT id FROM chat_messages WHERE company_id = $1 AND session_id = $2 ORDER BY id`, l.company, l.sid)
	if err != nil {
		return []string{err.Error()}
	}
	defer rows.Close()
	stored := map[int64]bool{}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		stored[id] = true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fig.acked, fig.stored, fig.delivered = l.acked, len(stored), len(l.received)
	for id := range stored {
		switch n := l.received[id]; {
		case n == 0:
			fig.missing = append(fig.missing, id)
			problems = append(problems, fmt.Sprintf("live: message %d never reached the visitor's stream", id))
		case n > 1:
			problems = append(problems, fmt.Sprintf("live: message %d reached the visitor's stream %d times", id, n))
		}
	}
	for id := range l.received {
		if !stored[id] {
			problems = append(problems, fmt.Sprintf("live: the stream sent message %d, which is not stored", id))
		}
	}
	return problems
}
