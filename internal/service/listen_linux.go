package service

import (
	"syscall"
	"time"
)

// silentHold is how long the kernel holds a connection that has sent nothing before it hands
// it to the server (Linux rounds it up to its SYN-ACK retries: 31 s), which then gives it
// HeaderTimeout. Held, a silent connection costs the kernel a small request entry; handed over,
// it costs the process a goroutine and two 4 KiB buffers. With HeaderTimeout here (2 s, 3 s
// after rounding), 200 connections opening again as soon as they were closed were in the
// process two seconds of every five, all at once. Every HTTP client sends its request at once.
const silentHold = 30 * time.Second

// deferAccept sets TCP_DEFER_ACCEPT: the kernel completes a connection for accept only when data
// arrives, waiting for it silentHold.
func deferAccept(_, _ string, c syscall.RawConn) error {
	var err error
	if cerr := c.Control(func(fd uintptr) {
		err = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_DEFER_ACCEPT, int(silentHold/time.Second))
	}); cerr != nil {
		return cerr
	}
	return err
}
