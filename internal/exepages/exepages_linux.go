package exepages

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Release drops the pages of the executable's read-only mappings (its code, read-only data and
// function tables) from the process's resident memory; the kernel maps each page again, from
// the page cache, when it is next read. Starting a service reads much that it never reads again:
// init functions, migrations, the decoding of embedded data (the language data's lines are
// read once to build their tables), and the kernel maps 64 KiB of file around each page read.
// Called once the service is built, it leaves resident only what serving reads. The writable
// mapping (initialised data) is never touched: dropping its private pages would lose what the
// process wrote there.
func Release() (Released, error) {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/exe", &st); err != nil {
		return Released{}, fmt.Errorf("the executable: %w", err)
	}
	// On an overlay file system (a container's) the maps may name the file below it, by the
	// same path and another device: either tells the executable.
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return Released{}, fmt.Errorf("the executable: %w", err)
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return Released{}, err
	}
	var r Released
	s := bufio.NewScanner(bytes.NewReader(maps))
	for s.Scan() {
		m, ok := parseMapping(s.Text())
		if !ok || m.writable || (m.dev != st.Dev || m.inode != st.Ino) && m.path != exe {
			continue
		}
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_DONTNEED); errno != 0 {
			return r, fmt.Errorf("madvise %x-%x: %w", m.start, m.end, errno)
		}
		r.Mappings++
		r.Bytes += int64(m.end - m.start)
	}
	return r, s.Err()
}

// mapping is a line of /proc/self/maps: "start-end perms offset major:minor inode path".
type mapping struct {
	start, end uintptr
	writable   bool
	dev, inode uint64
	path       string // "" for an anonymous mapping
}

func parseMapping(line string) (mapping, bool) {
	f := strings.Fields(line)
	if len(f) < 5 {
		return mapping{}, false
	}
	var path string
	if len(f) > 5 {
		path = strings.Join(f[5:], " ")
	}
	lo, hi, ok1 := strings.Cut(f[0], "-")
	major, minor, ok2 := strings.Cut(f[3], ":")
	if !ok1 || !ok2 || len(f[1]) < 2 {
		return mapping{}, false
	}
	start, err1 := strconv.ParseUint(lo, 16, 64)
	end, err2 := strconv.ParseUint(hi, 16, 64)
	maj, err3 := strconv.ParseUint(major, 16, 32)
	mnr, err4 := strconv.ParseUint(minor, 16, 32)
	inode, err5 := strconv.ParseUint(f[4], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil || end <= start || inode == 0 {
		return mapping{}, false
	}
	return mapping{start: uintptr(start), end: uintptr(end), writable: f[1][1] == 'w',
		dev: unix.Mkdev(uint32(maj), uint32(mnr)), inode: inode, path: path}, true
}
