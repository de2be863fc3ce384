package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "f3ad068aaaa"}, {Key: "vcs.time", Value: "2026-11-27T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  Info
	}{
		{"linker wins", "1.2.0", "abc", "2026-01-02T03:04:05Z", stamped,
			Info{Version: "1.2.0", Commit: "abc", Time: "2026-01-02T03:04:05Z", GoVersion: "go1.26.8"}},
		{"toolchain stamps", "", "", "", stamped,
			Info{Version: "devel", Commit: "f3ad068aaaa-dirty", Time: "2026-11-27T10:00:00Z", GoVersion: "go1.26.8"}},
		{"go install", "", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.3.0"}},
			Info{Version: "v1.3.0", Commit: "unknown", Time: "unknown", GoVersion: "go1.26.8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := resolve(tc.version, tc.commit, tc.date, tc.bi); got != tc.want {
				t.Errorf("resolve = %+v, want %+v", got, tc.want)
			}
		})
	}
	// No build info at all: every field still says something.
	got := resolve("", "", "", nil)
	if got.Version != "devel" || got.Commit != "unknown" || got.Time != "unknown" || !strings.HasPrefix(got.GoVersion, "go") {
		t.Errorf("resolve without build info = %+v", got)
	}
}
