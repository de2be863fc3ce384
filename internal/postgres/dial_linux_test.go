package postgres

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// TestDialerBoundsDeadPeers: the connections lib/pq opens carry keepalive probes and the TCP
// user timeout, so one to a vanished host fails within deadPeer.
func TestDialerBoundsDeadPeers(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := newDialer().DialContext(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, err := c.(*bufferedConn).Conn.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var timeout, keepalive int
	var optErr error
	raw.Control(func(fd uintptr) {
		if timeout, optErr = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, tcpUserTimeout); optErr == nil {
			keepalive, optErr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_KEEPALIVE)
		}
	})
	if optErr != nil {
		t.Fatal(optErr)
	}
	if timeout != int(deadPeer.Milliseconds()) || keepalive != 1 {
		t.Errorf("TCP_USER_TIMEOUT %d ms, SO_KEEPALIVE %d; want %d ms and on", timeout, keepalive, deadPeer.Milliseconds())
	}
}
