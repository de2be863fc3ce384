package postgres

import (
	"bytes"
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// TestDialedConnectionReadsWhatHasArrived: a connection the dialer opens hands over what the
// server has sent as soon as it arrives, in order, without waiting to fill its buffer (a
// notification must not wait for more bytes), and a large answer whole.
func TestDialedConnectionReadsWhatHasArrived(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	big := bytes.Repeat([]byte("0123456789abcdef"), 3*readBufferSize/16+5)
	sent := make(chan error, 1)
	go func() {
		s, err := ln.Accept()
		if err != nil {
			sent <- err
			return
		}
		defer s.Close()
		if _, err := s.Write([]byte("N!")); err != nil {
			sent <- err
			return
		}
		var ack [1]byte
		if _, err := io.ReadFull(s, ack[:]); err != nil {
			sent <- err
			return
		}
		_, err = s.Write(big)
		sent <- err
	}()
	c, err := newDialer().DialContext(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 4096)
	n, err := io.ReadAtLeast(c, got, 2)
	if err != nil || string(got[:n]) != "N!" {
		t.Fatalf("first read: %q, %v; want the two bytes sent", got[:n], err)
	}
	if _, err := c.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(io.LimitReader(c, int64(len(big))))
	if err != nil || !bytes.Equal(rest, big) {
		t.Fatalf("read %d bytes (%v); want the %d sent, in order", len(rest), err, len(big))
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
}
