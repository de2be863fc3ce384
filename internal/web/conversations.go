package web

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

// conversationsData is the page Beszélgetések: the list, and the open conversation if any.
type conversationsData struct {
	List []chat.Conversation
	// Open is the conversation shown, with its messages; nil on the list alone.
	Open     *chat.Conversation
	Messages []chat.Message
	// Mine is true when the viewer has the open conversation.
	Mine  bool
	Error string
	Text  string
}

// Waiting counts the conversations with unread visitor messages, for the title badge.
func (c conversationsData) Waiting() int {
	n := 0
	for _, x := range c.List {
		if x.Unread > 0 {
			n++
		}
	}
	return n
}

// conversations lists the company's conversations of the last day.
func (d *dashboard) conversations(w http.ResponseWriter, r *http.Request, v viewer) {
	d.renderConversations(w, r, v, http.StatusOK, conversationsData{})
}

// conversation shows one conversation and marks it read.
func (d *dashboard) conversation(w http.ResponseWriter, r *http.Request, v viewer) {
	d.renderConversations(w, r, v, http.StatusOK, conversationsData{Open: &chat.Conversation{SessionID: r.PathValue("id")}})
}

func (d *dashboard) renderConversations(w http.ResponseWriter, r *http.Request, v viewer, status int, data conversationsData) {
	ctx := r.Context()
	if data.Open != nil {
		c, err := d.live.Conversation(ctx, v.CompanyID, data.Open.SessionID)
		if errs.Is(err, errs.NotFound) {
			d.errorPage(w, r, http.StatusNotFound)
			return
		}
		if err != nil {
			d.serverError(w, r, err)
			return
		}
		msgs, err := d.live.Messages(ctx, v.CompanyID, c.SessionID, 0)
		if err != nil {
			d.serverError(w, r, err)
			return
		}
		if len(msgs) > 0 {
			if err := d.live.MarkSeen(ctx, v.CompanyID, c.SessionID, msgs[len(msgs)-1].ID); err != nil {
				d.serverError(w, r, err)
				return
			}
		}
		c.Unread = 0
		data.Open, data.Messages = &c, msgs
		data.Mine = c.Agent != nil && c.Agent.ID == v.ID
	}
	list, err := d.live.Conversations(ctx, v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	data.List = list
	d.render(w, r, status, "conversations", &v, data)
}

// conversationAction runs one of the viewer's actions on a conversation, then shows it again.
func (d *dashboard) conversationAction(act func(ctx context.Context, v viewer, session string, r *http.Request) error, flash string) func(http.ResponseWriter, *http.Request, viewer) {
	return func(w http.ResponseWriter, r *http.Request, v viewer) {
		session := r.PathValue("id")
		if chat.CheckSession(session) != nil {
			d.errorPage(w, r, http.StatusNotFound)
			return
		}
		err := act(r.Context(), v, session, r)
		if e := errs.As(err); e != nil && e.Kind == errs.Invalid {
			d.renderConversations(w, r, v, http.StatusUnprocessableEntity, conversationsData{
				Open:  &chat.Conversation{SessionID: session},
				Error: fmt.Sprintf("Az üzenet 1–%d karakter lehet.", limits.AgentMessageLen), Text: r.PostFormValue("text")})
			return
		}
		d.done(w, r, err, flash, "/app/conversations/"+session)
	}
}

func (d *dashboard) takeOver(ctx context.Context, v viewer, session string, _ *http.Request) error {
	return d.live.TakeOver(ctx, v.CompanyID, session, v.ID)
}

func (d *dashboard) handBack(ctx context.Context, v viewer, session string, _ *http.Request) error {
	return d.live.HandBack(ctx, v.CompanyID, session)
}

func (d *dashboard) reply(ctx context.Context, v viewer, session string, r *http.Request) error {
	_, err := d.live.Send(ctx, v.CompanyID, session, chat.Agent{ID: v.ID, Name: chat.AgentName(v.Email)}, r.PostFormValue("text"))
	return err
}

// conversationEvents is the page's live feed: an event "changed" whenever a conversation of
// the company has news, on which the page reads itself again; a comment every 25 s. While it
// is open the viewer counts as online for the company's visitors.
func (d *dashboard) conversationEvents(w http.ResponseWriter, r *http.Request, v viewer) {
	sub, err := d.hub.Dashboard(v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	defer d.hub.Release(sub)
	ctx := r.Context()
	present := func(open bool) {
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := d.live.Present(pctx, v.CompanyID, v.ID, open); err != nil {
			d.log.Warn("dashboard presence", "err", err.Error())
		}
	}
	present(true)
	defer present(false)
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	write := func(s string) bool {
		if _, err := w.Write([]byte(s)); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write("retry: 2000\n\n") {
		return
	}
	ping := time.NewTicker(d.streamPing)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.Ended:
			return
		case <-ping.C:
			present(true)
			if !write(": ping\n\n") {
				return
			}
		case <-sub.Wake:
			if !write("event: changed\ndata: {}\n\n") {
				return
			}
		}
	}
}
