//go:build !linux

package pgtest

// clusterParent is the usual temporary folder where there is no /dev/shm to prefer.
func clusterParent() string { return "" }
