package postgres

import (
	"bufio"
	"context"
	"net"
	"time"
)

// deadPeer bounds how long a connection to a database host that stopped answering takes to
// fail. A failover where the old primary's machine vanishes (a power cut, a partition) resets
// no connection, unlike a server that is killed or restarted; left to the kernel, a query in
// flight on such a connection would wait the minutes it takes TCP to give up, and the change
// listener would go on believing it is connected.
const deadPeer = 10 * time.Second

// dialer opens lib/pq's connections, the pool's and the listener's, with TCP keepalive probes
// every few seconds and, where the system has one, a TCP user timeout of deadPeer, so such a
// connection fails within seconds and the pool and the listener open new ones to whichever
// host takes writes.
type dialer struct{ d net.Dialer }

func newDialer() dialer {
	return dialer{net.Dialer{
		KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: deadPeer / 2, Interval: deadPeer / 10, Count: 5},
		Control:         userTimeout(deadPeer),
	}}
}

func (d dialer) Dial(network, address string) (net.Conn, error) {
	return readBuffered(d.d.Dial(network, address))
}

func (d dialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return readBuffered(d.d.DialContext(ctx, network, address))
}

func (d dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return readBuffered(d.d.DialContext(ctx, network, address))
}

// readBufferSize is how much of the server's answer one read from the socket may take.
// PostgreSQL sends its rows in chunks of up to 8 KB; lib/pq reads through a buffer of 4 KB, so a
// list page of 50 leads (some 17 KB) took six reads from the socket, two of them finding it
// empty. Through this buffer a read takes what has arrived, up to the size.
const readBufferSize = 32 << 10

// bufferedConn is a connection whose reads go through a buffer of readBufferSize; everything
// else (writes, deadlines, closing) is the connection's own. What the buffer holds is what the
// server has sent and lib/pq would read next, so reading through it changes no answer.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// readBuffered is the dialled connection c reading through a buffer, or err.
func readBuffered(c net.Conn, err error) (net.Conn, error) {
	if err != nil {
		return nil, err
	}
	return &bufferedConn{Conn: c, r: bufio.NewReaderSize(c, readBufferSize)}, nil
}
