//go:build !unix

package main

import (
	"errors"
	"os"
)

// peakRSS fails where there is no getrusage to read the peak from.
func peakRSS(*os.ProcessState) (int64, error) {
	return 0, errors.New("a process's peak RSS is read from getrusage, which this system lacks")
}
