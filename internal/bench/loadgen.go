package bench

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Load is a closed-loop HTTP/1.1 load: Conns connections, each sending its next request the
// moment the previous answer has been read, over one kept-alive connection. A closed loop
// measures the server's capacity at that concurrency, not its behaviour at a given arrival rate.
type Load struct {
	// Addr is the server's host:port.
	Addr  string
	Conns int
	// Next returns the raw request (request line, headers, body) that connection conn sends as
	// its seq-th; prebuilt bytes keep the client's own cost per request small.
	Next func(conn, seq int) []byte
}

// Result is what one measured run saw.
type Result struct {
	// OK counts 2xx answers; Errors counts other answers and transport failures.
	OK, Errors int
	Elapsed    time.Duration
	// P50 and P99 are of the successful requests, nearest rank.
	P50, P99 time.Duration
}

// RPS is successful requests per second.
func (r Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.OK) / r.Elapsed.Seconds()
}

// Run runs the load for d: no connection starts a request after d, and the run ends when the
// last request in flight has been answered.
func (l Load) Run(ctx context.Context, d time.Duration) Result {
	return resultOf(l.measure(ctx, d))
}

// measured is one run's record: each connection's part and how long the run took.
type measured struct {
	parts   []part
	elapsed time.Duration
}

func (l Load) measure(ctx context.Context, d time.Duration) measured {
	start := time.Now()
	deadline := start.Add(d)
	parts := make([]part, l.Conns)
	var wg sync.WaitGroup
	for c := range l.Conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[c] = l.connection(ctx, c, deadline)
		}()
	}
	wg.Wait()
	var end time.Time
	for _, p := range parts {
		if p.end.After(end) {
			end = p.end
		}
	}
	return measured{parts: parts, elapsed: end.Sub(start)}
}

// resultOf is what runs saw together: their answers and time added up, the percentiles of all
// their latencies.
func resultOf(runs ...measured) Result {
	var r Result
	var lat []time.Duration
	for _, rn := range runs {
		r.Elapsed += rn.elapsed
		for _, p := range rn.parts {
			r.OK += len(p.latencies)
			r.Errors += p.errors
			lat = append(lat, p.latencies...)
		}
	}
	slices.Sort(lat)
	r.P50, r.P99 = percentile(lat, 0.50), percentile(lat, 0.99)
	return r
}

// part is one connection's share of a run.
type part struct {
	latencies []time.Duration
	errors    int
	end       time.Time
}

func (l Load) connection(ctx context.Context, c int, deadline time.Time) part {
	p := part{latencies: make([]time.Duration, 0, 1024)}
	var conn net.Conn
	var br *bufio.Reader
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for seq := 0; ctx.Err() == nil; seq++ {
		now := time.Now()
		if !now.Before(deadline) {
			break
		}
		if conn == nil {
			var err error
			conn, err = net.DialTimeout("tcp", l.Addr, 5*time.Second)
			if err != nil {
				p.errors++
				time.Sleep(10 * time.Millisecond) // a refused dial would otherwise spin
				continue
			}
			// One deadline per connection, not per request: it only stops a hung server from
			// hanging the bench.
			conn.SetDeadline(deadline.Add(30 * time.Second))
			br = bufio.NewReaderSize(conn, 16<<10)
		}
		req := l.Next(c, seq)
		start := time.Now()
		status, keep, err := roundTrip(conn, br, req)
		took := time.Since(start)
		switch {
		case err != nil:
			p.errors++
		case status < 200 || status > 299:
			p.errors++
		default:
			p.latencies = append(p.latencies, took)
		}
		if err != nil || !keep {
			conn.Close()
			conn = nil
		}
	}
	p.end = time.Now()
	return p
}

// roundTrip writes one request and reads its whole answer.
func roundTrip(conn net.Conn, br *bufio.Reader, req []byte) (status int, keepAlive bool, err error) {
	if _, err := conn.Write(req); err != nil {
		return 0, false, err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, false, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, !resp.Close, err
}

// percentile is the nearest-rank percentile of sorted latencies.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
