package service_test

import (
	"context"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/service"
)

// A connection that sends nothing is not handed to the server: the first accepted is the one
// opened after it that sent a request line.
func TestListenAcceptsOnlyConnectionsThatSend(t *testing.T) {
	ln, err := service.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	silent, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	talking, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer talking.Close()
	const line = "GET / HTTP/1.1\r\n"
	if _, err := io.WriteString(talking, line); err != nil {
		t.Fatal(err)
	}
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Already there if c is the talking connection; the silent one would never send it.
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	got := make([]byte, len(line))
	if _, err := io.ReadFull(c, got); err != nil || string(got) != line {
		t.Fatalf("the first connection accepted read %q, %v: want the one that sent %q", got, err, line)
	}
}

// A silent connection is held by the kernel for half a minute, not for the header timeout:
// the listener asks for it (Linux reports the value rounded up to its SYN-ACK retries).
func TestListenHoldsSilentConnectionsHalfAMinute(t *testing.T) {
	ln, err := service.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	rc, err := ln.(*net.TCPListener).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var secs int
	var optErr error
	if err := rc.Control(func(fd uintptr) {
		secs, optErr = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_DEFER_ACCEPT)
	}); err != nil {
		t.Fatal(err)
	}
	if optErr != nil {
		t.Fatal(optErr)
	}
	if secs < 30 || secs > 63 {
		t.Errorf("TCP_DEFER_ACCEPT %d s: want half a minute (30 s, rounded up by the kernel)", secs)
	}
}
