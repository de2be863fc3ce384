package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/chat"
)

// visit sends a visitor message through the widget's endpoint and returns the answer.
func visit(t *testing.T, f *fixture, key, session, text string) map[string]any {
	t.Helper()
	body := map[string]any{"api_key": key, "message": text}
	if session != "" {
		body["session_id"] = session
	}
	b, _ := json.Marshal(body)
	resp, err := http.Post(f.base+"/api/embed/chat", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("chat: %d %v %v", resp.StatusCode, err, out)
	}
	return out
}

func TestConversationsPage(t *testing.T) {
	t.Parallel()
	f := start(t)
	sid := visit(t, f, f.keyA.Key, "", "Jó napot, Kovács Ilona vagyok")["session_id"].(string)
	m := f.client(t)
	m.login(f.member)

	list := m.get("/app/conversations")
	if list.status != 200 || !strings.Contains(list.body, "/app/conversations/"+sid) || !strings.Contains(list.body, "1 olvasatlan") ||
		!strings.Contains(list.body, "Kovács Ilona") {
		t.Fatalf("list: %d\n%s", list.status, list.body)
	}
	if !strings.Contains(list.body, `href="/app/conversations" aria-current="page"`) {
		t.Error("the menu does not mark Beszélgetések")
	}
	open := m.get("/app/conversations/" + sid)
	if open.status != 200 || !strings.Contains(open.body, "Jó napot, Kovács Ilona vagyok") || !strings.Contains(open.body, "Átveszem") {
		t.Fatalf("conversation: %d\n%s", open.status, open.body)
	}
	if again := m.get("/app/conversations"); strings.Contains(again.body, "olvasatlan") {
		t.Error("still unread after it was opened")
	}

	if r := m.post("/app/conversations/"+sid+"/take", url.Values{}); r.status != http.StatusSeeOther {
		t.Fatalf("take: %d %s", r.status, r.body)
	}
	if got := visit(t, f, f.keyA.Key, sid, "Ott van valaki?"); got["handled_by"] != "agent" || got["reply"] != "" {
		t.Errorf("after the take over: %v", got)
	}
	if r := m.post("/app/conversations/"+sid+"/messages", url.Values{"text": {`<script>alert("x")</script> Üdv!`}}); r.status != http.StatusSeeOther {
		t.Fatalf("reply: %d %s", r.status, r.body)
	}
	open = m.get("/app/conversations/" + sid)
	if strings.Contains(open.body, `<script>alert`) || !strings.Contains(open.body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; Üdv!") {
		t.Errorf("the agent's text is not escaped:\n%s", open.body)
	}
	if !strings.Contains(open.body, "munkatars (munkatárs)") || !strings.Contains(open.body, "Visszaadom") {
		t.Errorf("the agent's name or the hand back is missing:\n%s", open.body)
	}
	for _, text := range []string{"", strings.Repeat("a", 2001)} {
		if r := m.post("/app/conversations/"+sid+"/messages", url.Values{"text": {text}}); r.status != http.StatusUnprocessableEntity ||
			!strings.Contains(r.body, "1–2000 karakter") {
			t.Errorf("reply of %d characters: %d", len(text), r.status)
		}
	}

	// Another company's owner neither reads nor joins.
	b := f.client(t)
	b.login(f.ownerB)
	for _, r := range []response{
		b.get("/app/conversations/" + sid),
		b.post("/app/conversations/"+sid+"/take", url.Values{}),
		b.post("/app/conversations/"+sid+"/release", url.Values{}),
		b.post("/app/conversations/"+sid+"/messages", url.Values{"text": {"Szia"}}),
		b.get("/app/conversations/nincs-ilyen-beszelgetes-123"),
		b.get("/app/conversations/..%2F"),
	} {
		if r.status != http.StatusNotFound {
			t.Errorf("another company: %d", r.status)
		}
	}
	if r := b.get("/app/conversations"); strings.Contains(r.body, sid) {
		t.Error("another company lists the conversation")
	}
	msgs, _ := chat.NewLive(f.store, nil).Messages(context.Background(), f.a.ID, sid, 0)
	if n := len(msgs); n != 4 {
		t.Errorf("%d messages, want 4 (hello, reply, question, the agent's)", n)
	}

	if r := m.post("/app/conversations/"+sid+"/release", url.Values{}); r.status != http.StatusSeeOther {
		t.Fatalf("release: %d", r.status)
	}
	if got := visit(t, f, f.keyA.Key, sid, "Mennyibe kerül?"); got["handled_by"] != "assistant" || got["reply"] == "" {
		t.Errorf("after the hand back: %v", got)
	}
	if r := f.client(t).get("/app/conversations"); r.status != http.StatusSeeOther {
		t.Errorf("logged out: %d", r.status)
	}
}

func TestConversationsLiveFeed(t *testing.T) {
	t.Parallel()
	f := start(t)
	sid := visit(t, f, f.keyA.Key, "", "Szia!")["session_id"].(string)
	live := chat.NewLive(f.store, nil)
	ctx := context.Background()
	if on, _ := live.AgentsOnline(ctx, f.a.ID, sid); on {
		t.Fatal("online before anyone opened the page")
	}
	m := f.client(t)
	m.login(f.member)
	req, _ := http.NewRequest("GET", f.base+"/app/conversations/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	hc := *m.http
	hc.Timeout = 0
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %v", resp.StatusCode, resp.Header)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	wait := func(want string) {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the feed ended before %q", want)
				}
				if l == want {
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no %q within 10 s", want)
			}
		}
	}
	wait("retry: 2000")
	if on, _ := live.AgentsOnline(ctx, f.a.ID, sid); !on {
		t.Error("not online while the page is open")
	}
	visit(t, f, f.keyA.Key, sid, "Új üzenet")
	wait("event: changed")
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for on := true; on; time.Sleep(20 * time.Millisecond) {
		on, _ = live.AgentsOnline(ctx, f.a.ID, sid)
		if time.Now().After(deadline) {
			t.Fatal("still online after the page closed")
		}
	}
}
