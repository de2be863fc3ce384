package postgres

import (
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
	return d.d.Dial(network, address)
}

func (d dialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.d.DialContext(ctx, network, address)
}

func (d dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return d.d.DialContext(ctx, network, address)
}
