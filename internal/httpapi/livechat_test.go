package httpapi_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	leadclient "github.com/leadchat/leadchat/clients/go"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/contracttest"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/widget"
)

// agent makes a member of the company and returns them as the chat sees them.
func (e *env) agent(company uuid.UUID, email string) chat.Agent {
	e.t.Helper()
	u, err := e.store.CreateUser(context.Background(), company, email, user.Member, "", nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return chat.Agent{ID: u.ID, Name: chat.AgentName(email)}
}

// streamSDK is the SDK for key over a contract-checking client without a timeout, for streams.
func (e *env) streamSDK(key string) *leadclient.SDK {
	e.t.Helper()
	hc := &http.Client{Transport: contracttest.New(e.t, e.base).Transport(e.t, &http.Transport{})}
	c, err := leadclient.New(e.base, key, leadclient.WithHTTP(hc), leadclient.WithRetries(0), leadclient.WithTimeout(0))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// events follows a stream in the background; next waits for its next event.
type events struct {
	t      *testing.T
	ch     chan leadclient.StreamEvent
	done   chan error
	cancel context.CancelFunc
}

func (e *env) follow(key, session string, after int64) *events {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ev := &events{t: e.t, ch: make(chan leadclient.StreamEvent, 100), done: make(chan error, 1), cancel: cancel}
	sdk := e.streamSDK(key)
	go func() {
		var last error
		for x, err := range sdk.StreamConversation(ctx, session, after) {
			if err != nil {
				last = err
				break
			}
			ev.ch <- x
		}
		ev.done <- last
	}()
	e.t.Cleanup(cancel)
	return ev
}

func (ev *events) next() leadclient.StreamEvent {
	ev.t.Helper()
	select {
	case x := <-ev.ch:
		return x
	case err := <-ev.done:
		ev.t.Fatalf("the stream ended: %v", err)
	case <-time.After(10 * time.Second):
		ev.t.Fatal("no event within 10 s")
	}
	return leadclient.StreamEvent{}
}

// message waits for the next message event, skipping presence events.
func (ev *events) message() leadclient.ConversationMessage {
	ev.t.Helper()
	for {
		if x := ev.next(); x.Message != nil {
			return *x.Message
		}
	}
}

// presence waits for the next presence event, skipping messages.
func (ev *events) presence() bool {
	ev.t.Helper()
	for {
		if x := ev.next(); x.AgentsOnline != nil {
			return *x.AgentsOnline
		}
	}
}

func TestTakeOverAnswerAndHandBack(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Business, -1)
	key := e.key(c, auth.Public, nil, true).Key
	ag := e.agent(c, "anna.kiss@teszt.hu")
	live := chat.NewLive(e.store, nil)
	v := &chatter{t: t, e: e, key: key}

	first := v.send("Jó napot! Nagy Béla vagyok, bela@example.hu", nil)
	if first.HandledBy != leadclient.HandledByAssistant || first.Reply == "" {
		t.Fatalf("before a take over: handled_by %q, reply %q", first.HandledBy, first.Reply)
	}
	sid := first.SessionId
	if err := live.TakeOver(ctx, c, sid, ag.ID); err != nil {
		t.Fatal(err)
	}
	held := v.send("Van valaki ott?", func(r *leadclient.ChatRequest) { r.MessageId = strp("m-held-1") })
	if held.HandledBy != leadclient.HandledByAgent || held.Reply != "" || held.RequestContact {
		t.Fatalf("while held: %+v", held)
	}
	again := v.send("Van valaki ott?", func(r *leadclient.ChatRequest) { r.MessageId = strp("m-held-1") })
	if again.HandledBy != leadclient.HandledByAgent || again.Reply != "" {
		t.Errorf("a retry while held: %+v", again)
	}
	if _, err := live.Send(ctx, c, sid, ag, "Jó napot, <b>Anna</b> vagyok, miben segíthetek?"); err != nil {
		t.Fatal(err)
	}
	msgs, err := e.sdk(key).ConversationMessages(ctx, sid, 0)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range msgs {
		roles = append(roles, string(m.Role))
	}
	if got, want := strings.Join(roles, " "), "visitor assistant visitor agent"; got != want {
		t.Fatalf("roles = %q, want %q (the retry stores nothing, the held message no reply)", got, want)
	}
	last := msgs[len(msgs)-1]
	if last.AgentName == nil || *last.AgentName != "anna.kiss" || last.Text != "Jó napot, <b>Anna</b> vagyok, miben segíthetek?" {
		t.Errorf("agent message = %+v", last)
	}
	after, err := e.sdk(key).ConversationMessages(ctx, sid, msgs[1].Id)
	if err != nil || len(after) != 2 || after[0].Id != msgs[2].Id {
		t.Errorf("after %d: %v %+v", msgs[1].Id, err, after)
	}

	// The lead's transcript through the private API has the person's message too.
	priv := e.key(c, auth.Private, nil, true).Key
	tr, err := e.sdk(priv).LeadMessages(ctx, *first.LeadId)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr) != 4 || tr[3].Role != leadclient.LeadMessageRoleAgent || tr[3].AgentName == nil || *tr[3].AgentName != "anna.kiss" {
		t.Errorf("lead transcript = %+v", tr)
	}

	if err := live.HandBack(ctx, c, sid); err != nil {
		t.Fatal(err)
	}
	back := v.send("Köszönöm, és mennyibe kerül?", nil)
	if back.HandledBy != leadclient.HandledByAssistant || back.Reply == "" {
		t.Errorf("after the hand back: %+v", back)
	}

	// Erasing the lead erases the person's messages with the conversation.
	if err := e.sdk(priv).DeleteLead(ctx, *first.LeadId); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM chat_messages WHERE company_id = $1`, c).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d messages left after the erasure (%v)", left, err)
	}
	if _, err := e.sdk(key).ConversationMessages(ctx, sid, 0); err == nil {
		t.Error("the erased conversation still answers")
	}
}

func TestAgentMessagesRefused(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	a, b := e.company(plan.Free, -1), e.company(plan.Free, -1)
	agA, agB := e.agent(a, "a@teszt.hu"), e.agent(b, "b@teszt.hu")
	live := chat.NewLive(e.store, nil)
	v := &chatter{t: t, e: e, key: e.key(a, auth.Public, nil, true).Key}
	sid := v.send("Szia!", nil).SessionId
	for _, tt := range []struct {
		name    string
		company uuid.UUID
		agent   chat.Agent
		session string
		text    string
	}{
		{"empty", a, agA, sid, "  "},
		{"too long", a, agA, sid, strings.Repeat("á", limits.AgentMessageLen+1)},
		{"another company's person", a, agB, sid, "Szia"},
		{"another company's session", b, agB, sid, "Szia"},
		{"unknown session", a, agA, "no-such-session-000000001", "Szia"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := live.Send(ctx, tt.company, tt.session, tt.agent, tt.text); err == nil {
				t.Error("stored")
			}
		})
	}
	if err := live.TakeOver(ctx, b, sid, agB.ID); err == nil {
		t.Error("another company took the session over")
	}
	if err := live.TakeOver(ctx, a, sid, agB.ID); err == nil {
		t.Error("another company's person took the session over")
	}
	msgs, err := live.Messages(ctx, a, sid, 0)
	if err != nil || len(msgs) != 2 {
		t.Errorf("messages = %v %+v, want the visitor's and the reply", err, msgs)
	}
	// A visitor cannot write as a person: the chat's request has no role, and a field that
	// is not in the contract is refused.
	resp, body := e.do("POST", "/api/embed/chat", fmt.Sprintf(`{"api_key":%q,"session_id":%q,"message":"Szia","role":"agent"}`, v.key, sid), nil)
	if resp.StatusCode == http.StatusOK {
		if msgs, _ := live.Messages(ctx, a, sid, 0); msgs[len(msgs)-2].Role != chat.RoleVisitor {
			t.Errorf("a visitor wrote as %q", msgs[len(msgs)-2].Role)
		}
	} else if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d %v", resp.StatusCode, body)
	}
}

func TestWaitingVisitorGetsTheAssistantBack(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	ag := e.agent(c, "a@teszt.hu")
	v := &chatter{t: t, e: e, key: key}
	sid := v.send("Szia!", nil).SessionId
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	move := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	live := chat.NewLive(e.store, clock)
	if err := live.TakeOver(ctx, c, sid, ag.ID); err != nil {
		t.Fatal(err)
	}
	if r := v.send("Halló?", nil); r.HandledBy != leadclient.HandledByAgent {
		t.Fatalf("held: %+v", r)
	}
	if n, err := live.ResumeWaiting(ctx); err != nil || n != 0 {
		t.Fatalf("resumed %d (%v) before the wait was over", n, err)
	}
	move(chat.AgentWait + time.Second)
	if n, err := live.ResumeWaiting(ctx); err != nil || n != 1 {
		t.Fatalf("resumed %d (%v), want 1", n, err)
	}
	if n, err := live.ResumeWaiting(ctx); err != nil || n != 0 {
		t.Fatalf("resumed %d again (%v)", n, err)
	}
	msgs, _ := live.Messages(ctx, c, sid, 0)
	last := msgs[len(msgs)-1]
	if last.Role != chat.RoleAssistant || last.Text != chat.ResumeText("hu") {
		t.Errorf("last message = %+v", last)
	}
	if r := v.send("Akkor megadom: Kiss Éva, eva@example.hu", nil); r.HandledBy != leadclient.HandledByAssistant || r.Reply == "" {
		t.Errorf("after the wait: %+v", r)
	}

	// A person who answers in time keeps the conversation.
	if err := live.TakeOver(ctx, c, sid, ag.ID); err != nil {
		t.Fatal(err)
	}
	v.send("Még egy kérdés", nil)
	if _, err := live.Send(ctx, c, sid, ag, "Itt vagyok"); err != nil {
		t.Fatal(err)
	}
	move(chat.AgentWait * 2)
	if n, err := live.ResumeWaiting(ctx); err != nil || n != 0 {
		t.Errorf("resumed %d (%v) a conversation the person answered", n, err)
	}
}

// The check at the visitor's next message: the turn gives the conversation back itself.
func TestTurnAfterTheWaitGetsTheAssistant(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	ag := e.agent(c, "a@teszt.hu")
	v := &chatter{t: t, e: e, key: key}
	sid := v.send("Szia!", nil).SessionId
	live := chat.NewLive(e.store, nil)
	if err := live.TakeOver(ctx, c, sid, ag.ID); err != nil {
		t.Fatal(err)
	}
	v.send("Halló?", nil)
	later := time.Now().Add(chat.AgentWait + time.Minute)
	chats := chat.New(e.store, widget.NewConfigs(e.store), nil).WithClock(func() time.Time { return later })
	p := auth.Principal{CompanyID: c, Kind: auth.Public, Plan: plan.Free}
	r, err := chats.Handle(ctx, p, chat.Request{SessionID: &sid, Message: "Van itt valaki?"})
	if err != nil {
		t.Fatal(err)
	}
	if r.ByAgent || r.Text == "" {
		t.Errorf("the turn after the wait: %+v", r)
	}
	msgs, _ := live.Messages(ctx, c, sid, 0)
	var texts []string
	for _, m := range msgs {
		texts = append(texts, string(m.Role))
	}
	if got, want := strings.Join(texts, " "), "visitor assistant visitor assistant visitor assistant"; got != want {
		t.Errorf("roles = %q, want %q (the resume message, then the answer)", got, want)
	}
	if msgs[3].Text != chat.ResumeText("hu") {
		t.Errorf("message 4 = %q", msgs[3].Text)
	}
}

func TestChatStreamDeliversOnceAndResumes(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	ag := e.agent(c, "anna@teszt.hu")
	live := chat.NewLive(e.store, nil)
	v := &chatter{t: t, e: e, key: key}
	sid := v.send("Szia!", nil).SessionId

	s := e.follow(key, sid, 0)
	if on := s.presence(); on {
		t.Error("agents online before anyone came")
	}
	if m := s.message(); m.Role != leadclient.ConversationRoleVisitor || m.Text != "Szia!" {
		t.Errorf("backlog 1 = %+v", m)
	}
	if m := s.message(); m.Role != leadclient.ConversationRoleAssistant {
		t.Errorf("backlog 2 = %+v", m)
	}
	if err := live.TakeOver(ctx, c, sid, ag.ID); err != nil {
		t.Fatal(err)
	}
	if on := s.presence(); !on {
		t.Error("no one online after the take over")
	}
	sent, err := live.Send(ctx, c, sid, ag, "Itt Anna, segíthetek?")
	if err != nil {
		t.Fatal(err)
	}
	m := s.message()
	if m.Id != sent.ID || m.Role != leadclient.ConversationRoleAgent || m.AgentName == nil || *m.AgentName != "anna" {
		t.Errorf("live message = %+v, want id %d from anna", m, sent.ID)
	}
	v.send("Igen, kérdeznék", nil)
	own := s.message()
	if own.Role != leadclient.ConversationRoleVisitor || own.Text != "Igen, kérdeznék" {
		t.Errorf("the visitor's own message = %+v", own)
	}

	// The connection drops; meanwhile two messages are written; a stream from the last id
	// gets each of them once.
	lastSeen := own.Id
	s.cancel()
	for _, text := range []string{"Első, amíg nem figyelt", "Második"} {
		if _, err := live.Send(ctx, c, sid, ag, text); err != nil {
			t.Fatal(err)
		}
	}
	r := e.follow(key, sid, lastSeen)
	if got := r.message(); got.Text != "Első, amíg nem figyelt" {
		t.Errorf("resumed 1 = %+v", got)
	}
	if got := r.message(); got.Text != "Második" {
		t.Errorf("resumed 2 = %+v", got)
	}
	third, _ := live.Send(ctx, c, sid, ag, "Harmadik")
	if got := r.message(); got.Id != third.ID {
		t.Errorf("after the resume = %+v, want id %d", got, third.ID)
	}

	// A second stream of the session ends the first.
	r2 := e.follow(key, sid, third.ID)
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		t.Error("the older stream of the session stayed open")
	}
	fourth, _ := live.Send(ctx, c, sid, ag, "Negyedik")
	if got := r2.message(); got.Id != fourth.ID {
		t.Errorf("the newer stream = %+v", got)
	}
}

// Last-Event-ID, as EventSource sends it, wins over after; the stream is text/event-stream
// with presence first.
func TestChatStreamLastEventID(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, []string{"shop.example.hu"}, true).Key
	ag := e.agent(c, "anna@teszt.hu")
	live := chat.NewLive(e.store, nil)
	// The conversation starts from a server, with the private key: no Origin to check.
	v := &chatter{t: t, e: e, key: e.key(c, auth.Private, nil, true).Key}
	sid := v.send("Szia!", nil).SessionId
	msgs, _ := live.Messages(ctx, c, sid, 0)
	sent, _ := live.Send(ctx, c, sid, ag, "Szia, itt Anna")
	q := url.Values{"api_key": {key}, "session_id": {sid}, "after": {"0"}}
	req, _ := http.NewRequest("GET", e.base+"/api/embed/chat/stream?"+q.Encode(), nil)
	req.Header.Set("Origin", "https://shop.example.hu")
	req.Header.Set("Last-Event-ID", fmt.Sprint(msgs[1].ID))
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	br := bufio.NewReader(resp.Body)
	var got []string
	for len(got) < 6 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.TrimRight(line, "\n"))
	}
	want := []string{"event: presence", `data: {"agents_online":true}`, "",
		"event: message", fmt.Sprintf("id: %d", sent.ID)}
	if strings.Join(got[:5], "|") != strings.Join(want, "|") || !strings.HasPrefix(got[5], `data: {"agent_name":"anna"`) {
		t.Errorf("stream =\n%s", strings.Join(got, "\n"))
	}
}

func TestChatStreamRefused(t *testing.T) {
	e := start(t)
	a, b := e.company(plan.Free, -1), e.company(plan.Free, -1)
	pubA := e.key(a, auth.Public, []string{"shop.example.hu"}, true).Key
	pubB := e.key(b, auth.Public, nil, true).Key
	privA := e.key(a, auth.Private, nil, true).Key
	v := &chatter{t: t, e: e, key: privA}
	sid := v.send("Szia!", nil).SessionId
	shop := map[string]string{"Origin": "https://shop.example.hu"}
	for _, path := range []string{"/api/embed/chat/stream", "/api/embed/chat/messages"} {
		for _, tt := range []struct {
			name   string
			query  url.Values
			header map[string]string
			status int
			code   string
		}{
			{"no key", url.Values{"session_id": {sid}}, shop, 400, "missing_api_key"},
			{"unknown key", url.Values{"api_key": {"lc_pub_nincsilyen"}, "session_id": {sid}}, shop, 401, "invalid_api_key"},
			{"private key from a server", url.Values{"api_key": {privA}, "session_id": {sid}}, nil, 403, "public_key_required"},
			{"private key from a browser", url.Values{"api_key": {privA}, "session_id": {sid}}, shop, 403, "private_key_from_browser"},
			{"wrong domain", url.Values{"api_key": {pubA}, "session_id": {sid}}, map[string]string{"Origin": "https://evil.example"}, 403, "origin_not_allowed"},
			{"malformed session", url.Values{"api_key": {pubA}, "session_id": {"rövid"}}, shop, 400, "invalid_session_id"},
			{"unknown session", url.Values{"api_key": {pubA}, "session_id": {"no-such-session-000000001"}}, shop, 404, "not_found"},
			{"another company's session", url.Values{"api_key": {pubB}, "session_id": {sid}}, nil, 404, "not_found"},
			{"negative after", url.Values{"api_key": {pubA}, "session_id": {sid}, "after": {"-1"}}, shop, 400, "invalid_field"},
		} {
			t.Run(path+" "+tt.name, func(t *testing.T) {
				resp, body := e.do("GET", path+"?"+tt.query.Encode(), "", tt.header)
				wantError(t, resp, body, tt.status, tt.code)
			})
		}
	}
	resp, body := e.do("GET", "/api/embed/chat/stream?"+url.Values{"api_key": {pubA}, "session_id": {sid}}.Encode(), "",
		map[string]string{"Origin": "https://shop.example.hu", "Last-Event-ID": "nem-szám"})
	wantError(t, resp, body, 400, "invalid_field")
}

func TestChatStreamsPerAddress(t *testing.T) {
	e := start(t)
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	var sessions []string
	for i := 0; i <= limits.StreamsPerIP; i++ {
		v := &chatter{t: t, e: e, key: key}
		sessions = append(sessions, v.send("Szia!", nil).SessionId)
	}
	for _, sid := range sessions[:limits.StreamsPerIP] {
		s := e.follow(key, sid, 0)
		s.presence()
	}
	_, err := e.sdk(key).ConversationMessages(context.Background(), sessions[0], 0)
	if err != nil {
		t.Fatalf("the JSON endpoint is not a stream: %v", err)
	}
	over := e.follow(key, sessions[limits.StreamsPerIP], 0)
	select {
	case err := <-over.done:
		var apiErr *leadclient.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || apiErr.Code != leadclient.ErrorCodeRateLimited {
			t.Errorf("stream %d: %v", limits.StreamsPerIP+1, err)
		}
	case <-over.ch:
		t.Errorf("stream %d was opened", limits.StreamsPerIP+1)
	}
	// A second stream of a session already open replaces it, within the limit.
	again := e.follow(key, sessions[0], 0)
	again.presence()
}

// An idle stream sends a comment every StreamPing, so proxies keep it open.
func TestChatStreamPings(t *testing.T) {
	e := startWith(t, func(c *service.Config) { c.StreamPing = 50 * time.Millisecond })
	c := e.company(plan.Free, -1)
	key := e.key(c, auth.Public, nil, true).Key
	sid := (&chatter{t: t, e: e, key: key}).send("Szia!", nil).SessionId
	q := url.Values{"api_key": {key}, "session_id": {sid}}
	resp, err := http.Get(e.base + "/api/embed/chat/stream?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	pings := 0
	for pings < 3 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("after %d pings: %v", pings, err)
		}
		if line == ": ping\n" {
			pings++
		}
	}
}
