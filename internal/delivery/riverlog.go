package delivery

import (
	"context"
	"log/slog"
)

// riverLogger is the logger River gets. River reports its routine at info level (the client
// and each producer and periodic job starting, "entering poll only mode"), a dozen lines that
// in `leadchat dev` push the banner with the demo login off the screen; here they are debug
// records, and River's warnings and errors keep their level.
func riverLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return nil
	}
	return slog.New(demoted{l.Handler()})
}

// demoted passes records below warning level on at debug level.
type demoted struct{ h slog.Handler }

func demote(l slog.Level) slog.Level {
	if l < slog.LevelWarn {
		return min(l, slog.LevelDebug)
	}
	return l
}

func (d demoted) Enabled(ctx context.Context, l slog.Level) bool { return d.h.Enabled(ctx, demote(l)) }

func (d demoted) Handle(ctx context.Context, r slog.Record) error {
	r.Level = demote(r.Level)
	return d.h.Handle(ctx, r)
}

func (d demoted) WithAttrs(as []slog.Attr) slog.Handler { return demoted{d.h.WithAttrs(as)} }
func (d demoted) WithGroup(name string) slog.Handler    { return demoted{d.h.WithGroup(name)} }
