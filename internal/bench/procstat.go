package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is Linux's USER_HZ, the unit of the CPU times in /proc; it is 100 on every
// architecture Go runs on.
const clockTick = 10 * time.Millisecond

// procTimes is one process's line of /proc/<pid>/stat, the fields the bench reads.
type procTimes struct {
	ppid                         int
	utime, stime, cutime, cstime time.Duration
}

// own is the CPU time the process itself used; children adds that of its waited-for children.
func (t procTimes) own() time.Duration      { return t.utime + t.stime }
func (t procTimes) children() time.Duration { return t.cutime + t.cstime }

func readProcTimes(pid string) (procTimes, error) {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return procTimes{}, err
	}
	// The command name, in parentheses, may hold spaces; the numbers follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procTimes{}, fmt.Errorf("/proc/%s/stat: no ')'", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 15 {
		return procTimes{}, fmt.Errorf("/proc/%s/stat: %d fields", pid, len(f))
	}
	// f[0] is field 3 (state) of proc(5): ppid is field 4, utime..cstime are 14..17.
	n := func(k int) int64 { v, _ := strconv.ParseInt(f[k-3], 10, 64); return v }
	return procTimes{ppid: int(n(4)), utime: time.Duration(n(14)) * clockTick, stime: time.Duration(n(15)) * clockTick,
		cutime: time.Duration(n(16)) * clockTick, cstime: time.Duration(n(17)) * clockTick}, nil
}

// processCPU is the CPU time a running process has used so far, all its threads together.
func processCPU(pid int) time.Duration {
	t, err := readProcTimes(strconv.Itoa(pid))
	if err != nil {
		return 0
	}
	return t.own()
}

// ProcessesCPU is the CPU time the processes pids (PostgreSQL's backends, say) have used so
// far, all their threads together, from /proc in clock ticks of 10 ms (so a benchmark needs many
// requests); a process it cannot read is an error that names it.
func ProcessesCPU(pids []int) (time.Duration, error) {
	var sum time.Duration
	for _, pid := range pids {
		t, err := readProcTimes(strconv.Itoa(pid))
		if err != nil {
			return 0, err
		}
		sum += t.own()
	}
	return sum, nil
}

// selfCPU is this process's CPU time including that of the children it has waited for
// (pgbench, go build): everything of the bench's own that is not a server it measures.
func selfCPU() time.Duration {
	t, err := readProcTimes("self")
	if err != nil {
		return 0
	}
	return t.own() + t.children()
}

// treeCPU is the CPU time of a process and its children: the PostgreSQL postmaster and its
// backends. Children that exited count once the postmaster has reaped them.
func treeCPU(root int) time.Duration {
	rt, err := readProcTimes(strconv.Itoa(root))
	if err != nil {
		return 0
	}
	total := rt.own() + rt.children()
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		if t, err := readProcTimes(name); err == nil && t.ppid == root {
			total += t.own()
		}
	}
	return total
}

// childCount is how many processes have root as their parent.
func childCount(root int) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		name := e.Name()
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		if t, err := readProcTimes(name); err == nil && t.ppid == root {
			n++
		}
	}
	return n
}

// machineBusy is the CPU time all processors have spent busy since boot (everything in the
// first line of /proc/stat except idle and iowait).
func machineBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	var ticks int64
	// cpu user nice system idle iowait irq softirq steal guest guest_nice; guest time is
	// already inside user.
	for i, v := range f {
		if i == 0 || i == 4 || i == 5 || i > 8 {
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * clockTick
}

// peakRSS is the process's peak resident set (VmHWM), in bytes.
func peakRSS(pid int) int64 { return procStatus(pid, "VmHWM:") }

// residentRSS is the process's resident set now (VmRSS), in bytes.
func residentRSS(pid int) int64 { return procStatus(pid, "VmRSS:") }

// procStatus is a size in /proc/PID/status (field "VmHWM:", "VmRSS:"), in bytes; 0 when it
// cannot be read.
func procStatus(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// resetPeakRSS starts the process's peak resident set over from its current size, so each step
// reports its own peak (proc(5), clear_refs value 5).
func resetPeakRSS(pid int) error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}
