//go:build !linux

package exepages

// Release does nothing where the process's mappings cannot be read.
func Release() (Released, error) { return Released{}, nil }

// Narrow does nothing where the process's mappings cannot be read.
func Narrow() (Released, error) { return Released{}, nil }
