//go:build !linux

package service

import "syscall"

// deferAccept does nothing where TCP_DEFER_ACCEPT is not available: a connection is accepted at
// once, and HeaderTimeout closes it if it sends nothing.
func deferAccept(_, _ string, _ syscall.RawConn) error { return nil }
