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
func Release() (Released, error) { return each(unix.MADV_DONTNEED) }

// Narrow is Release that also leaves the process mapping the pages it reads and few others
// from then on. On a read of a page not resident, the kernel maps, besides it, every page of the
// 64 KiB around it that the page cache holds, and the cache holds the whole executable once
// anything read it all (the build that wrote it, a start-up): under the hostile run's attacks
// the function tables (which every collection reads for each goroutine's stack) and the
// read-only data were resident at that grain, beside the password hash's 19 MiB. So Narrow
// marks the read-only mappings for random reads, with which a page missing from the cache is
// read alone, and drops the executable's pages from the cache (those another process maps
// stay); a page read after it is read from the disk, once, and stays cached. Release, later,
// keeps that grain: a page read again maps only the cached pages around it, those read since.
// (The code's mapping gains less: kernels read executable code ahead in larger units.)
func Narrow() (Released, error) {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return Released{}, fmt.Errorf("the executable: %w", err)
	}
	defer f.Close()
	// Written pages not yet on the disk (a binary just built) cannot leave the cache. A file
	// system that refuses (a read-only one) has none.
	_ = unix.Fdatasync(int(f.Fd()))
	if _, err := each(unix.MADV_RANDOM); err != nil {
		return Released{}, err
	}
	// MADV_PAGEOUT unmaps and frees the pages together, where a release and then an eviction
	// would miss those that the service's other goroutines map again in between (and with them
	// the large folios that hold them). A kernel without it (before Linux 5.4) leaves those.
	_, _ = each(unix.MADV_PAGEOUT)
	r, err := each(unix.MADV_DONTNEED)
	if err != nil {
		return r, err
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return r, fmt.Errorf("fadvise of the executable: %w", err)
	}
	return r, nil
}

// each gives advice to the executable's read-only mappings, one madvise each.
func each(advice int) (Released, error) {
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
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, uintptr(advice)); errno != 0 {
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
