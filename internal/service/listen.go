package service

import (
	"context"
	"net"
)

// Listen opens the server's TCP listener on addr. Where the system can (Linux), a connection is
// handed to the server only once its first bytes have arrived, or after half a minute: a client
// that opens connections and sends nothing is held by the kernel, and costs the process no
// goroutine, buffers or connection slot, where each cost it about 20 KiB until HeaderTimeout
// closed it.
func Listen(ctx context.Context, addr string) (net.Listener, error) {
	lc := net.ListenConfig{Control: deferAccept}
	return lc.Listen(ctx, "tcp", addr)
}
