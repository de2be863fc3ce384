package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/live"
)

// StreamPing is how often an idle stream sends a comment, so proxies keep it open.
const StreamPing = 25 * time.Second

// streamQueryTimeout bounds each database read of a stream.
const streamQueryTimeout = 5 * time.Second

func handledBy(r chat.Reply) api.ChatReplyHandledBy {
	if r.ByAgent {
		return api.HandledByAgent
	}
	return api.HandledByAssistant
}

func chatMessage(m chat.Message) api.ConversationMessage {
	out := api.ConversationMessage{Id: m.ID, Role: api.ConversationMessageRole(m.Role), Text: m.Text, CreatedAt: m.At.UTC()}
	if m.AgentName != "" {
		out.AgentName = &m.AgentName
	}
	return out
}

// ListChatMessages answers a conversation's messages after an id.
func (s *server) ListChatMessages(ctx context.Context, req api.ListChatMessagesRequestObject) (api.ListChatMessagesResponseObject, error) {
	p, ok := principal(ctx)
	if !ok || s.live == nil {
		return nil, errs.Internalf("chat messages without a principal or live service")
	}
	var after int64
	if req.Params.After != nil {
		after = *req.Params.After
	}
	msgs, err := s.live.Messages(ctx, p.CompanyID, req.Params.SessionId, after)
	if err != nil {
		return nil, err
	}
	body := api.ConversationMessages{Data: make([]api.ConversationMessage, len(msgs))}
	for i, m := range msgs {
		body.Data[i] = chatMessage(m)
	}
	return api.ListChatMessages200JSONResponse{Body: body}, nil
}

// StreamChat checks the request, reads what the client missed and opens the session's one
// stream; the stream itself runs when the response is written.
func (s *server) StreamChat(ctx context.Context, req api.StreamChatRequestObject) (api.StreamChatResponseObject, error) {
	p, ok := principal(ctx)
	if !ok || s.live == nil || s.hub == nil {
		return nil, errs.Internalf("chat stream without a principal or live service")
	}
	var after int64
	if req.Params.After != nil {
		after = *req.Params.After
	}
	if v := req.Params.LastEventID; v != nil && strings.TrimSpace(*v) != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(*v), 10, 64)
		if err != nil || n < 0 {
			return nil, errs.Field(errs.CodeInvalidField, "Last-Event-ID")
		}
		after = n
	}
	sid := req.Params.SessionId
	st := stateOf(ctx)
	sub, backlog, err := live.Follow(s.hub, p.CompanyID, sid, st.client, func() ([]chat.Message, error) {
		return s.live.Messages(ctx, p.CompanyID, sid, after)
	})
	if err != nil {
		return nil, err
	}
	base := st.base
	if base == nil {
		base = context.WithoutCancel(ctx)
	}
	return &chatStream{s: s, ctx: base, p: p, session: sid, after: after, backlog: backlog, sub: sub, proto: st.proto}, nil
}

// chatStream is one open visitor stream.
type chatStream struct {
	s       *server
	ctx     context.Context
	p       auth.Principal
	session string
	after   int64
	// unread is set while a read the database refused is still to be made again.
	unread  bool
	backlog []chat.Message
	sub     *live.Sub
	online  *bool
	buf     []byte
	proto   int // the request's HTTP major version
}

// VisitStreamChatResponse writes the stream until the client leaves, the hub ends it (another
// stream of the session, shutdown) or a write fails. Over HTTP/1.1 the connection is taken
// from the server: the stream then runs in a goroutine of its own, holding neither the
// request's call stack nor the server's read and write buffers, which is most of what an idle
// stream would otherwise cost; the body ends when the connection closes.
func (c *chatStream) VisitStreamChatResponse(w http.ResponseWriter) error {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	c.presence()
	c.messages(c.backlog)
	c.backlog = nil
	if conn := c.hijack(w, rc); conn != nil {
		// The request's context ends as this returns; the stream ends with the hub or the
		// connection.
		c.ctx = context.WithoutCancel(c.ctx)
		go c.run(func(b []byte) bool {
			_, err := conn.Write(b)
			return err == nil
		}, conn.Close)
		return nil
	}
	// The server's read and write deadlines are for requests, not for a stream held for hours.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	w.WriteHeader(http.StatusOK)
	c.run(func(b []byte) bool {
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}, func() error { return nil })
	return nil
}

// hijack takes an HTTP/1.1 connection from the server and writes the response's head on it;
// nil when the connection cannot be taken (HTTP/2, a test recorder).
func (c *chatStream) hijack(w http.ResponseWriter, rc *http.ResponseController) net.Conn {
	if c.proto != 1 {
		return nil
	}
	conn, _, err := rc.Hijack()
	if err != nil {
		return nil
	}
	_ = conn.SetDeadline(time.Time{})
	head := []byte("HTTP/1.1 200 OK\r\n")
	var hb bytes.Buffer
	_ = w.Header().Write(&hb)
	head = append(head, hb.Bytes()...)
	head = append(head, "Connection: close\r\n\r\n"...)
	c.buf = append(head, c.buf...)
	return conn
}

// run sends what is buffered, then every wake-up's news and a ping comment every streamPing,
// until the hub ends the stream, the request's context ends or write fails; then it closes.
func (c *chatStream) run(write func([]byte) bool, closeConn func() error) {
	defer closeConn()
	defer c.s.hub.Release(c.sub)
	if !c.flush(write) {
		return
	}
	ping := time.NewTicker(c.s.streamPing)
	defer ping.Stop()
	// retry fires after a read the database refused (a restart, a failover): the news that
	// woke the stream is read again then, since no other wake-up may come for it.
	var retry <-chan time.Time
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.sub.Ended:
			return
		case <-ping.C:
			// Presence changes come as wake-ups (a take over, a dashboard opened or closed);
			// the ping only keeps proxies from closing an idle stream.
			c.buf = append(c.buf, ": ping\n\n"...)
		case <-retry:
			retry = nil
			if !c.readNew() || !c.flush(write) {
				return
			}
			c.presence()
		case <-c.sub.Wake:
			// The news first; whether someone is online is read after it is sent.
			if !c.readNew() || !c.flush(write) {
				return
			}
			c.presence()
		}
		if c.unread && retry == nil {
			retry = time.After(streamRetry)
		}
		if !c.flush(write) {
			return
		}
	}
}

// streamRetry is how soon a stream reads again after the database refused a read.
const streamRetry = 500 * time.Millisecond

// readNew reads and buffers every message after the last one sent; false when the session is
// gone (erased).
func (c *chatStream) readNew() bool {
	for {
		ctx, cancel := context.WithTimeout(c.ctx, streamQueryTimeout)
		msgs, err := c.s.live.Messages(ctx, c.p.CompanyID, c.session, c.after)
		cancel()
		if errs.Is(err, errs.NotFound) {
			return false
		}
		if err != nil {
			// The database is away: the stream reads again from the same id after streamRetry.
			c.s.log.Warn("chat stream read", "err", err.Error())
			c.unread = true
			return true
		}
		c.unread = false
		c.messages(msgs)
		if len(msgs) < limits.ListMax { // a full page: there may be more
			return true
		}
	}
}

// presence buffers the presence event when it changed.
func (c *chatStream) presence() {
	ctx, cancel := context.WithTimeout(c.ctx, streamQueryTimeout)
	on, err := c.s.live.AgentsOnline(ctx, c.p.CompanyID, c.session)
	cancel()
	if err != nil || (c.online != nil && *c.online == on) {
		return
	}
	c.online = &on
	c.buf = append(c.buf, "event: presence\ndata: "...)
	if on {
		c.buf = append(c.buf, `{"agents_online":true}`...)
	} else {
		c.buf = append(c.buf, `{"agents_online":false}`...)
	}
	c.buf = append(c.buf, "\n\n"...)
}

func (c *chatStream) messages(msgs []chat.Message) {
	for _, m := range msgs {
		if m.ID <= c.after {
			continue
		}
		data, err := json.Marshal(chatMessage(m))
		if err != nil {
			continue
		}
		c.buf = append(c.buf, "event: message\nid: "...)
		c.buf = strconv.AppendInt(c.buf, m.ID, 10)
		c.buf = append(c.buf, "\ndata: "...)
		c.buf = append(c.buf, data...)
		c.buf = append(c.buf, "\n\n"...)
		c.after = m.ID
	}
}

// flush writes what is buffered; false when the client is gone.
func (c *chatStream) flush(write func([]byte) bool) bool {
	if len(c.buf) == 0 {
		return true
	}
	ok := write(c.buf)
	c.buf = c.buf[:0]
	return ok
}
