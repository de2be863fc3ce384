//go:build soak

package soak

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// turnsPerSession is how many messages a chat client sends in one session before it opens
// another, well under the 50 a session takes.
const turnsPerSession = 10

// turn is one visitor message: its session and message_id, which a retry sends again.
type turn struct {
	session, messageID string
	attempts           int
	acked              bool   // answered 200
	lastFail           string // what the last failed attempt got: "transport" or the status code
}

// chatLoad is visitors chatting through the widget's endpoint, each message retried with the
// same message_id after a transport error, a 5xx or a 409 until it is answered, as the widget
// does.
type chatLoad struct {
	base, apiKey string
	http         *http.Client
	onAck        func() // called on every 200, when set

	sent, acked, failed, retries atomic.Int64

	mu         sync.Mutex
	turns      []*turn
	unexpected []string
}

func newChatLoad(base, apiKey string) *chatLoad {
	return &chatLoad{base: base, apiKey: apiKey, http: &http.Client{
		Timeout:   15 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 16},
	}}
}

// run runs n visitors until ctx ends; a message in flight then is still sent to its answer or
// its first failure.
func (c *chatLoad) run(ctx context.Context, n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { c.visitor(ctx) })
	}
	wg.Wait()
}

func (c *chatLoad) visitor(ctx context.Context) {
	for ctx.Err() == nil {
		session := "scale-" + uuid.NewString()
		for i := 0; i < turnsPerSession && ctx.Err() == nil; i++ {
			t := &turn{session: session, messageID: uuid.NewString()}
			c.mu.Lock()
			c.turns = append(c.turns, t)
			c.mu.Unlock()
			for !c.attempt(t) && ctx.Err() == nil {
				c.retries.Add(1)
				pause(ctx, 20*time.Millisecond, 150*time.Millisecond)
			}
		}
	}
}

// attempt sends t once; false means it is worth sending again.
func (c *chatLoad) attempt(t *turn) bool {
	t.attempts++
	c.sent.Add(1)
	status, body, err := c.post(t)
	switch {
	case err != nil:
		t.lastFail = "transport"
	case status == http.StatusOK:
		t.acked = true
		c.acked.Add(1)
		if c.onAck != nil {
			c.onAck()
		}
		return true
	case status >= 500 || status == http.StatusConflict:
		t.lastFail = fmt.Sprint(status)
	default:
		c.mu.Lock()
		c.unexpected = append(c.unexpected, fmt.Sprintf("chat message %s: %d %s", t.messageID, status, body))
		c.mu.Unlock()
		return true
	}
	c.failed.Add(1)
	return false
}

func (c *chatLoad) post(t *turn) (int, string, error) {
	body, _ := json.Marshal(map[string]string{
		"api_key": c.apiKey, "session_id": t.session, "message_id": t.messageID,
		"message": "Mennyibe kerül egy weboldal, és mennyi idő alatt készül el?",
	})
	req, err := http.NewRequest(http.MethodPost, c.base+"/api/embed/chat", bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, string(b), err
}

// settle sends every unanswered message again, with everything up, until it is answered: after
// it every message the visitors sent has exactly one answer.
func (c *chatLoad) settle() []string {
	var problems []string
	for _, t := range c.turns {
		for try := 0; !t.acked; try++ {
			if try == 20 {
				problems = append(problems, fmt.Sprintf("chat message %s: no answer in 20 tries with everything up (last: %s)", t.messageID, t.lastFail))
				break
			}
			if !c.attempt(t) {
				time.Sleep(100 * time.Millisecond)
			}
		}
	}
	return problems
}
