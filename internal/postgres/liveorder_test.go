package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// A stream resumes after the last message id it sent, so a session's ids must become visible
// in their order: were a message with a later id visible while one with an earlier id is still
// uncommitted, a stream reading between the two commits would send the later one and skip the
// earlier for good. Two writers of one session race here: the first has written and holds its
// transaction open; the second writes meanwhile (on another instance it would); a stream reads
// after each step. Every message stored must reach the stream, once, whichever commits first.
func TestSessionMessagesBecomeVisibleInIDOrder(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	u, err := s.CreateUser(ctx, c, "munkatars@ceg.hu", user.Member, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	agent := chat.Agent{ID: u.ID, Name: "Munkatárs"}

	// A writer either leaves its write open (first) or makes it as the service does (second);
	// version is the session's version when the writer starts.
	type writer struct {
		name   string
		n      int // messages it stores
		open   func(session string, version int) (*postgres.OpenWrite, error)
		commit func(session string, version int) error
	}
	turn := func(session string, version int) chat.Write {
		return chat.Write{Session: chat.Session{ID: session, Version: version, VisitorMessages: version + 1},
			Message: fmt.Sprintf("kérdés %d", version), Answered: chat.Answered{Reply: "válasz"}}
	}
	agentWriter := writer{"a person's message", 1,
		func(session string, _ int) (*postgres.OpenWrite, error) {
			return postgres.AgentMessageOpen(ctx, s, c, session, agent, "első")
		},
		func(session string, _ int) error {
			_, err := s.AgentMessage(ctx, c, session, agent, "második")
			return err
		}}
	turnWriter := writer{"a visitor's turn", 2,
		func(session string, version int) (*postgres.OpenWrite, error) {
			return postgres.TurnOpen(ctx, s, c, turn(session, version))
		},
		func(session string, version int) error {
			return postgres.StoreTurnGroup(s, c, []chat.Write{turn(session, version)})[0]
		}}

	for _, first := range []writer{agentWriter, turnWriter} {
		for _, second := range []writer{agentWriter, turnWriter} {
			t.Run(first.name+" then "+second.name, func(t *testing.T) {
				session := "session-order-" + uuid.NewString()
				if err := postgres.StoreTurnGroup(s, c, []chat.Write{turn(session, 0)})[0]; err != nil {
					t.Fatal(err)
				}
				// The stream, as chatStream reads: after the last id sent.
				var after int64
				sent := map[int64]int{}
				read := func() {
					msgs, err := s.Messages(ctx, c, session, after, 100)
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range msgs {
						sent[m.ID]++
						after = m.ID
					}
				}
				read()

				open, err := first.open(session, 1)
				if err != nil {
					t.Fatal(err)
				}
				defer open.Rollback()
				// Each write moves the session's version on, so the second writes version 2.
				done := make(chan error, 1)
				go func() { done <- second.commit(session, 2) }()
				// Until the first commits, the second either waits for it or has committed.
				var secondErr error
				committed := false
				for !committed {
					select {
					case secondErr = <-done:
						committed = true
						continue
					default:
					}
					if waitsFor(t, s, open.PID) {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
				if committed && secondErr != nil {
					t.Fatalf("the second write: %v", secondErr)
				}
				read() // between the two commits
				if err := open.Commit(); err != nil {
					t.Fatal(err)
				}
				if !committed {
					if err := <-done; err != nil {
						t.Fatalf("the second write: %v", err)
					}
				}
				read()

				all, err := s.Messages(ctx, c, session, 0, 100)
				if err != nil {
					t.Fatal(err)
				}
				if want := 2 + first.n + second.n; len(all) != want { // the session's first turn stored two
					t.Fatalf("%d messages stored, want %d", len(all), want)
				}
				for _, m := range all {
					if n := sent[m.ID]; n != 1 {
						t.Errorf("message %d (%q) reached the stream %d times, want once", m.ID, m.Text, n)
					}
				}
			})
		}
	}
}

// waitsFor reports whether some server process waits for a lock pid holds.
func waitsFor(t *testing.T, s *postgres.Store, pid int) bool {
	t.Helper()
	var waits bool
	err := s.DB().QueryRow(`SELECT EXISTS (SELECT FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid)))`, pid).Scan(&waits)
	if err != nil {
		t.Fatal(err)
	}
	return waits
}
