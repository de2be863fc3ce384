//go:build !linux

package postgres

import (
	"syscall"
	"time"
)

// userTimeout does nothing where TCP_USER_TIMEOUT is not known: the keepalive probes alone find a
// vanished host, once no query is in flight on the connection.
func userTimeout(time.Duration) func(network, address string, c syscall.RawConn) error { return nil }
