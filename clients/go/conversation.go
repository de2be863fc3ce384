package leadclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"time"
)

// ConversationMessages returns a chat conversation's messages after the one with id after (0:
// all), oldest first, at most 200 a call: the visitor's, the assistant's and those of the
// company's people (ConversationRoleAgent, with AgentName). Call it again with the last id to
// poll. Needs the public key; a session that is not the company's is an *APIError with
// ErrorCodeNotFound.
func (c *SDK) ConversationMessages(ctx context.Context, sessionID string, after int64) ([]ConversationMessage, error) {
	params := &ListChatMessagesParams{ApiKey: c.key, SessionId: sessionID, After: &after}
	var msgs ConversationMessages
	err := c.read(ctx, &msgs, func(ctx context.Context) (*http.Response, error) {
		return c.api.ListChatMessages(ctx, params)
	})
	if err != nil {
		return nil, err
	}
	return msgs.Data, nil
}

// StreamEvent is one event of a conversation's stream: a new message, or whether a person of
// the company can answer now.
type StreamEvent struct {
	Message      *ConversationMessage
	AgentsOnline *bool
}

// StreamConversation follows a chat conversation's stream, first with every message after the
// id after, then with each new one, until ctx ends, the server ends the stream (another stream
// of the session opened) or the connection fails; it does not reconnect: start it again with
// the last message's id to go on, and nothing is missed. The SDK's HTTP client must not time
// out the stream (http.Client.Timeout covers reading the body).
func (c *SDK) StreamConversation(ctx context.Context, sessionID string, after int64) iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		params := &StreamChatParams{ApiKey: c.key, SessionId: sessionID, After: &after}
		resp, err := c.api.StreamChat(ctx, params)
		if err != nil {
			yield(StreamEvent{}, fmt.Errorf("leadchat: %w", err))
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
			yield(StreamEvent{}, newAPIError(resp, body, time.Now()))
			return
		}
		for ev, err := range readEvents(resp.Body) {
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// readEvents parses the server-sent events the conversation stream sends.
func readEvents(r io.Reader) iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), 64<<10)
		var name string
		var data strings.Builder
		for sc.Scan() {
			line := sc.Text()
			if line != "" {
				field, value, _ := strings.Cut(line, ":")
				value = strings.TrimPrefix(value, " ")
				switch field {
				case "event":
					name = value
				case "data":
					if data.Len() > 0 {
						data.WriteByte('\n')
					}
					data.WriteString(value)
				}
				continue
			}
			var ev StreamEvent
			var err error
			switch name {
			case "message":
				ev.Message = &ConversationMessage{}
				err = json.Unmarshal([]byte(data.String()), ev.Message)
			case "presence":
				var p struct {
					AgentsOnline bool `json:"agents_online"`
				}
				if err = json.Unmarshal([]byte(data.String()), &p); err == nil {
					ev.AgentsOnline = &p.AgentsOnline
				}
			}
			known := name == "message" || name == "presence"
			name = ""
			data.Reset()
			if err != nil {
				yield(StreamEvent{}, fmt.Errorf("leadchat: unreadable stream event: %w", err))
				return
			}
			if known && !yield(ev, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(StreamEvent{}, fmt.Errorf("leadchat: %w", err))
		}
	}
}
