package web_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// deadlines lets a test's time pass at once for the deadlines a service keeps: those of the
// requests (service.Config.Deadline) and those the HTTP server and the handlers set on the
// connections (through listener). pass(d) ends, now, every one of them that would have passed
// within d, as if d went by while nothing else happened; those set after it run on the wall
// clock as usual. So a test of what outlives a deadline does not wait for it.
type deadlines struct {
	mu    sync.Mutex
	reqs  map[*requestDeadline]struct{}
	conns map[*passingConn]struct{}
}

func newDeadlines() *deadlines {
	return &deadlines{reqs: map[*requestDeadline]struct{}{}, conns: map[*passingConn]struct{}{}}
}

// pass ends every deadline, of a request or of a connection, that is due within d from now.
func (ds *deadlines) pass(d time.Duration) {
	until := time.Now().Add(d)
	ds.mu.Lock()
	var reqs []*requestDeadline
	for r := range ds.reqs {
		if !r.at.After(until) {
			reqs = append(reqs, r)
		}
	}
	conns := make([]*passingConn, 0, len(ds.conns))
	for c := range ds.conns {
		conns = append(conns, c)
	}
	ds.mu.Unlock()
	for _, r := range reqs {
		r.end(context.DeadlineExceeded)
	}
	for _, c := range conns {
		c.pass(until)
	}
}

// request is a service.Config.Deadline: context.WithTimeout, whose deadline pass can bring
// forward.
func (ds *deadlines) request(parent context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	r := &requestDeadline{parent: parent, at: time.Now().Add(timeout), done: make(chan struct{})}
	ds.mu.Lock()
	ds.reqs[r] = struct{}{}
	ds.mu.Unlock()
	stopParent := context.AfterFunc(parent, func() { r.end(parent.Err()) })
	timer := time.AfterFunc(timeout, func() { r.end(context.DeadlineExceeded) })
	return r, func() {
		stopParent()
		timer.Stop()
		r.end(context.Canceled)
		ds.mu.Lock()
		delete(ds.reqs, r)
		ds.mu.Unlock()
	}
}

// requestDeadline is a context that ends with DeadlineExceeded at its deadline or when pass
// reaches it, with Canceled when cancelled, and with its parent.
type requestDeadline struct {
	parent context.Context
	at     time.Time
	done   chan struct{}
	mu     sync.Mutex
	err    error
}

func (r *requestDeadline) Deadline() (time.Time, bool) { return r.at, true }
func (r *requestDeadline) Done() <-chan struct{}       { return r.done }
func (r *requestDeadline) Value(key any) any           { return r.parent.Value(key) }

func (r *requestDeadline) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// end ends the context with err, unless it has ended already.
func (r *requestDeadline) end(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
		close(r.done)
	}
}

// readDeadline is the read deadline last set on the service's connection from the client
// address remote; zero when there is none, or no such connection.
func (ds *deadlines) readDeadline(remote string) time.Time {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	for c := range ds.conns {
		if c.RemoteAddr().String() == remote {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.read
		}
	}
	return time.Time{}
}

// listener wraps a service's listener, so that pass reaches the deadlines of its connections.
func (ds *deadlines) listener(ln net.Listener) net.Listener { return passingListener{ln, ds} }

type passingListener struct {
	net.Listener
	ds *deadlines
}

func (l passingListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &passingConn{Conn: conn, ds: l.ds}
	l.ds.mu.Lock()
	l.ds.conns[c] = struct{}{}
	l.ds.mu.Unlock()
	return c, nil
}

// passingConn is a connection that remembers its deadlines, so that pass can end those due.
type passingConn struct {
	net.Conn
	ds          *deadlines
	mu          sync.Mutex
	read, write time.Time // as last set; zero is none
}

func (c *passingConn) SetDeadline(t time.Time) error {
	return errors.Join(c.SetReadDeadline(t), c.SetWriteDeadline(t))
}

func (c *passingConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.read = t
	return c.Conn.SetReadDeadline(t)
}

func (c *passingConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.write = t
	return c.Conn.SetWriteDeadline(t)
}

// pass ends the connection's deadlines that are due by until.
func (c *passingConn) pass(until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if !c.read.IsZero() && !c.read.After(until) {
		c.read = now
		_ = c.Conn.SetReadDeadline(now)
	}
	if !c.write.IsZero() && !c.write.After(until) {
		c.write = now
		_ = c.Conn.SetWriteDeadline(now)
	}
}

func (c *passingConn) Close() error {
	c.ds.mu.Lock()
	delete(c.ds.conns, c)
	c.ds.mu.Unlock()
	return c.Conn.Close()
}
