// Package buildinfo tells which build of leadchat is running: the release version, the commit,
// when that commit was made and the Go version. `make dist` writes the first three into the
// binary with -ldflags -X; a binary built otherwise (go build, go install, make build) takes the
// commit and its time from what the Go toolchain stamps into every binary built in a checkout.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by the linker (-ldflags "-X github.com/leadchat/leadchat/internal/buildinfo.version=…");
// empty in a plain build.
var (
	version string
	commit  string
	date    string
)

// Info is one build's identity.
type Info struct {
	// Version is the release version (e.g. 1.2.0, or 0.0.0~git20261127.f3ad068 between tags),
	// "devel" for a build that was not given one.
	Version string `json:"version"`
	// Commit is the full git commit the binary was built from, "unknown" outside a checkout,
	// with "-dirty" appended when the work tree had uncommitted changes.
	Commit string `json:"commit"`
	// Time is the commit's time (RFC 3339, UTC), not the build's, so that two builds of one
	// commit are the same bytes; "unknown" when neither the linker nor the toolchain gave it.
	Time string `json:"build_time"`
	// GoVersion is the toolchain that built the binary.
	GoVersion string `json:"go_version"`
}

// Get is the running binary's Info.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(version, commit, date, bi)
}

// resolve prefers what the linker set and falls back to the toolchain's vcs stamps in bi
// (nil when the binary carries none).
func resolve(version, commit, date string, bi *debug.BuildInfo) Info {
	info := Info{Version: version, Commit: commit, Time: date, GoVersion: runtime.Version()}
	if bi != nil {
		var rev, at string
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if info.Commit == "" && rev != "" {
			info.Commit = rev
			if modified {
				info.Commit += "-dirty"
			}
		}
		if info.Time == "" {
			info.Time = at
		}
		// `go install module@version` stamps the module's version, a build in a checkout a
		// pseudo-version made of the commit (Go 1.24 and later) or "(devel)".
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			info.GoVersion = bi.GoVersion
		}
	}
	if info.Version == "" {
		info.Version = "devel"
	}
	if info.Commit == "" {
		info.Commit = "unknown"
	}
	if info.Time == "" {
		info.Time = "unknown"
	}
	return info
}

// String is what `leadchat version` prints: a line per field, a name and a value.
func (i Info) String() string {
	return fmt.Sprintf("version:    %s\ncommit:     %s\nbuild time: %s\ngo:         %s\n", i.Version, i.Commit, i.Time, i.GoVersion)
}
