//go:build unix

package main

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the most resident memory an ended process held, in bytes, from getrusage:
// Linux reports it in KiB, macOS and the BSDs' Darwin relatives in bytes.
func peakRSS(ps *os.ProcessState) (int64, error) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, fmt.Errorf("no resource usage for process %d", ps.Pid())
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return ru.Maxrss, nil
	}
	return ru.Maxrss << 10, nil
}
