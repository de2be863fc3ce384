//go:build soak

package soak

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// attacks are what an attacker tried from outside against a service on its defaults, run
// against the server while real leads flow. Each kind records what the server answered.
type attacks struct {
	base, addr string
	public     string   // a valid public key, for the config endpoint
	revoked    string   // a revoked key
	fakes      []string // well-formed keys never issued

	mu       sync.Mutex
	answers  map[string]map[string]int // attack -> answer ("401", "transport"...) -> count
	refused  map[string]bool           // well-formed refused keys answered 401: each may cost a lookup
	networks map[string]bool           // distinct /64s that read the config
	opened   atomic.Int64              // connections the connection attacks opened
}

func newAttacks(base, public, revoked string, fakes []string) *attacks {
	return &attacks{base: base, addr: strings.TrimPrefix(base, "http://"), public: public, revoked: revoked, fakes: fakes,
		answers: map[string]map[string]int{}, refused: map[string]bool{}, networks: map[string]bool{}}
}

func (a *attacks) record(attack, answer string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.answers[attack] == nil {
		a.answers[attack] = map[string]int{}
	}
	a.answers[attack][answer]++
}

// run runs every attack until ctx ends: slow and idle connections in the given numbers, one
// worker of each request attack.
func (a *attacks) run(ctx context.Context, slow, idle int) {
	client := &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var wg sync.WaitGroup
	wg.Go(func() { a.hugeMethods(ctx, client) })
	for range 2 {
		wg.Go(func() { a.fakeKeys(ctx, client) })
	}
	wg.Go(func() { a.rotatingAddresses(ctx, client) })
	for range slow {
		wg.Go(func() { a.slowHeaders(ctx) })
	}
	for range idle {
		wg.Go(func() { a.idleConnection(ctx) })
	}
	wg.Wait()
}

func (a *attacks) send(client *http.Client, attack string, req *http.Request) *http.Response {
	resp, err := client.Do(req)
	if err != nil {
		a.record(attack, "transport")
		return nil
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	a.record(attack, fmt.Sprint(resp.StatusCode))
	return resp
}

// hugeMethods sends made-up methods of 1 to 30 KiB, each a new one, to a route and to nowhere:
// before, each became a metric label for good.
func (a *attacks) hugeMethods(ctx context.Context, client *http.Client) {
	for ctx.Err() == nil {
		method := randomWord(1<<10 + rand.N(29<<10))
		path := "/api/v1/leads"
		if rand.N(2) == 0 {
			path = "/nowhere/" + randomWord(8)
		}
		req, _ := http.NewRequest(method, a.base+path, nil)
		a.send(client, "huge methods", req)
	}
}

// fakeKeys sends well-formed keys never issued, malformed ones and a revoked one, from rotating
// IPv6 addresses through the trusted proxy and from one fixed address.
func (a *attacks) fakeKeys(ctx context.Context, client *http.Client) {
	for ctx.Err() == nil {
		key, wellFormed := a.fakes[rand.N(len(a.fakes))], true
		switch rand.N(10) {
		case 0: // another last character breaks the checksum
			last := byte('0')
			if key[len(key)-1] == last {
				last = '1'
			}
			key, wellFormed = key[:len(key)-1]+string(last), false
		case 1:
			key = a.revoked
		}
		from := randomIPv6()
		if rand.N(10) == 0 {
			from = "198.51.100.1"
		}
		req, _ := http.NewRequest(http.MethodPost, a.base+"/api/v1/leads",
			strings.NewReader(`{"first_name": "Támadó", "email": "attacker@example.hu"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Api-Key", key)
		req.Header.Set("X-Forwarded-For", from)
		if resp := a.send(client, "fake keys", req); resp != nil && resp.StatusCode == 401 && wellFormed {
			a.mu.Lock()
			a.refused[key] = true
			a.mu.Unlock()
		}
	}
}

// rotatingAddresses reads the widget config from a new IPv6 network each time: before, each
// address had a rate-limit bucket of its own for good.
func (a *attacks) rotatingAddresses(ctx context.Context, client *http.Client) {
	for ctx.Err() == nil {
		from := randomIPv6()
		req, _ := http.NewRequest(http.MethodGet, a.base+"/api/embed/config?api_key="+a.public, nil)
		req.Header.Set("X-Forwarded-For", from)
		a.send(client, "rotating IPv6", req)
		a.mu.Lock()
		a.networks[strings.Join(strings.Split(from, ":")[:4], ":")] = true
		a.mu.Unlock()
	}
}

// slowHeaders opens a connection and sends headers of 1 KiB every 100 ms, never finishing, until
// the server ends it; then another.
func (a *attacks) slowHeaders(ctx context.Context) {
	line := "X-Slow: " + strings.Repeat("s", 1<<10) + "\r\n"
	for ctx.Err() == nil {
		conn, err := net.DialTimeout("tcp", a.addr, 5*time.Second)
		if err != nil {
			a.record("slow headers", "dial failed")
			pause(ctx, 50*time.Millisecond, 100*time.Millisecond)
			continue
		}
		a.opened.Add(1)
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		_, err = io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
		for err == nil && ctx.Err() == nil {
			pause(ctx, 100*time.Millisecond, 101*time.Millisecond)
			_, err = io.WriteString(conn, line)
		}
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		if resp, rerr := http.ReadResponse(bufio.NewReader(conn), nil); rerr == nil {
			a.record("slow headers", fmt.Sprint(resp.StatusCode))
		} else if ctx.Err() == nil {
			a.record("slow headers", "closed")
		}
		stop()
		conn.Close()
	}
}

// idleConnection holds a connection open without a byte until the server ends it; then another.
// On Linux the server's kernel holds such a connection unaccepted for half a minute, then the
// server gives it its header timeout: in a short run it lasts the whole run.
func (a *attacks) idleConnection(ctx context.Context) {
	for ctx.Err() == nil {
		conn, err := net.DialTimeout("tcp", a.addr, 5*time.Second)
		if err != nil {
			a.record("idle connections", "dial failed")
			pause(ctx, 50*time.Millisecond, 100*time.Millisecond)
			continue
		}
		a.opened.Add(1)
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		io.Copy(io.Discard, conn)
		stop()
		conn.Close()
	}
}

// randomIPv6 is an address in a random /64 of the documentation prefix.
func randomIPv6() string {
	return fmt.Sprintf("2001:db8:%x:%x:%x:%x:%x:%x", rand.N(1<<16), rand.N(1<<16),
		rand.N(1<<16), rand.N(1<<16), rand.N(1<<16), rand.N(1<<16))
}

func randomWord(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'A' + byte(rand.N(26))
	}
	return string(b)
}
