package postgres

import (
	"strings"
	"syscall"
	"time"
)

// tcpUserTimeout is TCP_USER_TIMEOUT of linux/tcp.h: how long sent data may stay unacknowledged
// (keepalive probes included) before the kernel drops the connection.
const tcpUserTimeout = 0x12

// userTimeout sets TCP_USER_TIMEOUT on TCP sockets before they connect.
func userTimeout(d time.Duration) func(network, address string, c syscall.RawConn) error {
	return func(network, _ string, c syscall.RawConn) error {
		if !strings.HasPrefix(network, "tcp") {
			return nil
		}
		var err error
		ctrl := c.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, tcpUserTimeout, int(d.Milliseconds()))
		})
		if ctrl != nil {
			return ctrl
		}
		return err
	}
}
