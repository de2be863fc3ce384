package postgres_test

import (
	"context"
	"testing"

	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/postgres"
)

// A group of chat turns stores each session's turn at the version it read: of two turns of one
// session in a group the later loses (conflict, nothing written), a turn that read an old
// version loses, and a repeated message id fails alone while the rest of the group is stored.
func TestTurnGroup(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	c := company(t, s, "A")
	turn := func(session string, version int, messageID string) chat.Write {
		return chat.Write{Session: chat.Session{ID: session, Version: version, VisitorMessages: version + 1},
			Message: "kérdés", MessageID: messageID, Answered: chat.Answered{Reply: "válasz"}}
	}
	const a, b, d = "session-a-000000000000001", "session-b-000000000000001", "session-d-000000000000001"
	if errs := postgres.StoreTurnGroup(s, c, []chat.Write{turn(a, 0, "m1"), turn(d, 0, "")}); errs[0] != nil || errs[1] != nil {
		t.Fatalf("first turns: %v", errs)
	}
	got := postgres.StoreTurnGroup(s, c, []chat.Write{
		turn(a, 1, "m2"), // stored
		turn(a, 1, "m3"), // same session, same version read: loses
		turn(b, 0, "m1"), // another session may reuse a message id
		turn(d, 0, "x"),  // read before d's first turn was stored: loses
		turn(a, 1, "m1"), // a's m1 again: fails, alone
	})
	want := []errs.Kind{-1, errs.Conflict, -1, errs.Conflict, errs.Conflict}
	for i, err := range got {
		switch {
		case want[i] == -1 && err != nil:
			t.Errorf("turn %d: %v, want stored", i, err)
		case want[i] != -1 && !errs.Is(err, want[i]):
			t.Errorf("turn %d: %v, want a conflict", i, err)
		}
	}
	for _, tt := range []struct {
		session      string
		version, msg int
	}{{a, 2, 4}, {b, 1, 2}, {d, 1, 2}} {
		st, err := s.ReadTurn(ctx, c, tt.session, "")
		if err != nil {
			t.Fatal(err)
		}
		if st.Session.Version != tt.version || len(st.History) != tt.msg {
			t.Errorf("%s: version %d with %d messages, want %d and %d", tt.session, st.Session.Version, len(st.History), tt.version, tt.msg)
		}
	}
	// A message id the session already holds fails the turn even at the right version.
	if err := postgres.StoreTurnGroup(s, c, []chat.Write{turn(b, 1, "m1")})[0]; !errs.Is(err, errs.Conflict) {
		t.Errorf("b's m1 again: %v, want a conflict", err)
	}
	if st, _ := s.ReadTurn(ctx, c, b, ""); st.Session.Version != 1 {
		t.Errorf("b at version %d after a refused turn, want 1", st.Session.Version)
	}
	if st, _ := s.ReadTurn(ctx, c, a, "m2"); st.Answered == nil || st.Answered.Reply != "válasz" {
		t.Errorf("a's m2 answer = %+v, want the stored reply", st.Answered)
	}
}
