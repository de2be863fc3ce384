package postgres

import (
	"context"
	"time"

	"github.com/lib/pq"

	"github.com/leadchat/leadchat/internal/cache"
)

// cacheChannel carries "something cached changed" notifications between instances and the
// admin commands. The payload names what changed: "keys", "companies" or "widget".
const cacheChannel = "leadchat_cache"

// ListenCache follows cacheChannel until ctx ends, reporting to ev. It reconnects by itself.
// While the connection is down ev is told so, since a change may be missed.
func (s *Store) ListenCache(ctx context.Context, ev cache.Follower) error {
	return s.Listen(ctx, ev, nil)
}

// Listen follows cacheChannel for caches and, unless chats is nil, chatChannel for chats (new
// chat messages and who has a conversation), on one connection, until ctx ends; see ListenCache.
func (s *Store) Listen(ctx context.Context, caches, chats cache.Follower) error {
	ev := cache.Group{caches}
	if chats != nil {
		ev = append(ev, chats)
	}
	l := pq.NewDialListener(newDialer(), s.dsn, 100*time.Millisecond, 5*time.Second, func(e pq.ListenerEventType, err error) {
		switch e {
		case pq.ListenerEventReconnected: // pq has listened again before it reports this
			ev.Live(true)
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			ev.Live(false)
		}
	})
	defer l.Close()
	if err := l.Listen(cacheChannel); err != nil {
		return translate(err)
	}
	if chats != nil {
		if err := l.Listen(chatChannel); err != nil {
			return translate(err)
		}
	}
	ev.Live(true)
	ping := time.NewTicker(30 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			ev.Live(false)
			return nil
		case n := <-l.Notify:
			if n == nil { // reconnected: anything may have changed meanwhile
				ev.Changed("")
				continue
			}
			if n.Channel == chatChannel {
				chats.Changed(n.Extra)
				continue
			}
			caches.Changed(n.Extra)
		case <-ping.C:
			_ = l.Ping()
		}
	}
}

const notifyCache = `SELECT pg_notify('` + cacheChannel + `', $1)`

// NotifyCache tells every listening instance that what changed.
func (s *Store) NotifyCache(ctx context.Context, what string) error {
	_, err := s.db.ExecContext(ctx, notifyCache, what)
	return translate(err)
}
