package service

import (
	"syscall"
	"time"
)

// deferAccept sets TCP_DEFER_ACCEPT: the kernel completes a connection for accept only when data
// arrives, waiting for it about HeaderTimeout (the time a connection has for its headers anyway).
func deferAccept(_, _ string, c syscall.RawConn) error {
	var err error
	if cerr := c.Control(func(fd uintptr) {
		err = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_DEFER_ACCEPT, int(HeaderTimeout/time.Second))
	}); cerr != nil {
		return cerr
	}
	return err
}
