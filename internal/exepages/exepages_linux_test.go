package exepages

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// written starts in the executable's initialised data (a private, writable mapping of the
// file): dropping its pages would bring back these bytes and lose what the test wrote.
var written = [3 * 4096]byte{1, 2, 3}

func TestReleaseDropsReadOnlyPagesOnly(t *testing.T) {
	for i := range written {
		written[i] = 7
	}
	before := rssFile(t)
	r, err := Release()
	if err != nil {
		t.Fatal(err)
	}
	after := rssFile(t)
	// The code, the read-only data and the function tables: two mappings or more.
	if r.Mappings < 2 || r.Bytes < 1<<20 {
		t.Errorf("released %d mappings of %d bytes: want the executable's read-only ones", r.Mappings, r.Bytes)
	}
	if after >= before {
		t.Errorf("file-backed resident memory %d kB before, %d kB after: want less after", before, after)
	}
	for i, b := range written {
		if b != 7 {
			t.Fatalf("written[%d] = %d after Release: a writable mapping was dropped", i, b)
		}
	}
	// The released code runs again, read back from the page cache.
	if _, err := Release(); err != nil {
		t.Fatal(err)
	}
}

func TestParseMapping(t *testing.T) {
	dev := unix.Mkdev(0xfe, 0x01)
	for _, tc := range []struct {
		name, line string
		want       mapping
		ok         bool
	}{
		{"code", "00400000-00fc2000 r-xp 00000000 fe:01 11889521 /tmp/leadchat",
			mapping{start: 0x400000, end: 0xfc2000, dev: dev, inode: 11889521, path: "/tmp/leadchat"}, true},
		{"data", "023b3000-0254b000 rw-p 01fb3000 fe:01 11889521 /tmp/leadchat",
			mapping{start: 0x23b3000, end: 0x254b000, writable: true, dev: dev, inode: 11889521, path: "/tmp/leadchat"}, true},
		{"replaced binary", "00fc2000-023b3000 r--p 00bc2000 fe:01 42 /tmp/leadchat (deleted)",
			mapping{start: 0xfc2000, end: 0x23b3000, dev: dev, inode: 42, path: "/tmp/leadchat (deleted)"}, true},
		{"anonymous", "33f4f4800000-33f4f7000000 rw-p 00000000 00:00 0", mapping{}, false},
		{"path with a space", "00400000-00401000 r--p 00000000 fe:01 7 /opt/my apps/leadchat",
			mapping{start: 0x400000, end: 0x401000, dev: dev, inode: 7, path: "/opt/my apps/leadchat"}, true},
		{"garbled", "nonsense", mapping{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseMapping(tc.line)
			if ok != tc.ok || got != tc.want {
				t.Errorf("parseMapping(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// rssFile is the process's file-backed resident memory, in kB.
func rssFile(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}

// Narrow releases the read-only mappings as Release does and marks them for random reads
// (VmFlags "rr"), which leaves the kernel reading a missing page alone; the written data stays.
func TestNarrowMarksRandomReads(t *testing.T) {
	for i := range written {
		written[i] = 9
	}
	r, err := Narrow()
	if err != nil {
		t.Fatal(err)
	}
	if r.Mappings < 2 || r.Bytes < 1<<20 {
		t.Errorf("narrowed %d mappings of %d bytes: want the executable's read-only ones", r.Mappings, r.Bytes)
	}
	flags := exeFlags(t)
	if len(flags) < 3 {
		t.Fatalf("%d mappings of the executable in /proc/self/smaps, want its code, read-only and written data", len(flags))
	}
	for m, f := range flags {
		random := slices.Contains(f, "rr")
		if writable := slices.Contains(f, "wr"); random == writable {
			t.Errorf("mapping %s has VmFlags %v: want rr on the read-only mappings alone", m, f)
		}
	}
	for i, b := range written {
		if b != 9 {
			t.Fatalf("written[%d] = %d after Narrow: a writable mapping was dropped", i, b)
		}
	}
}

// exeFlags is the VmFlags of each of the executable's mappings, by address range.
func exeFlags(t *testing.T) map[string][]string {
	t.Helper()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	current := ""
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		switch {
		case len(f) > 5 && strings.Contains(f[0], "-") && strings.Join(f[5:], " ") == exe:
			current = f[0]
		case len(f) > 0 && f[0] == "VmFlags:" && current != "":
			out[current] = f[1:]
			current = ""
		case len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			current = ""
		}
	}
	return out
}
