package insight_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/insight"
)

// sink records what a flush writes, or fails.
type sink struct {
	got  []map[uuid.UUID]insight.Counts
	fail bool
}

func (s *sink) AddWidgetEvents(_ context.Context, counts map[uuid.UUID]insight.Counts) error {
	if s.fail {
		return errors.New("database down")
	}
	s.got = append(s.got, counts)
	return nil
}

// A flush writes every company's counts once; counts a failed flush could not write are kept
// for the next one; a flush with nothing counted writes nothing.
func TestTally(t *testing.T) {
	s := &sink{}
	tally := insight.NewTally(s)
	ctx := context.Background()
	a, b := uuid.New(), uuid.New()
	for _, ev := range []struct {
		id  uuid.UUID
		typ insight.EventType
	}{{a, insight.Shown}, {a, insight.Shown}, {a, insight.Opened}, {b, insight.Shown}} {
		_ = tally.CountWidgetEvent(ctx, ev.id, ev.typ)
	}
	s.fail = true
	if err := tally.Flush(ctx); err == nil {
		t.Fatal("a failed write reported no error")
	}
	s.fail = false
	_ = tally.CountWidgetEvent(ctx, b, insight.Opened)
	if err := tally.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tally.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if len(s.got) != 1 || s.got[0][a] != (insight.Counts{Shown: 2, Opened: 1}) || s.got[0][b] != (insight.Counts{Shown: 1, Opened: 1}) {
		t.Errorf("written %+v; want one write of A 2/1 and B 1/1", s.got)
	}
}
