//go:build soak

package soak

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// The attacks on reading a company's leads: crafted list cursors on the API and the dashboard,
// and the company's CSV export downloaded by more clients at once than it may run.
// The owner they log in as is the login flood's (provisionOwner).
const (
	// parallelExports is how many clients download the export at once, over its limit of 2.
	parallelExports = 4
)

// dashboardLogin logs the owner in and returns the cookies it set (the session's and the
// device's) as a Cookie header's value, as a browser sends them back.
func dashboardLogin(base string) (string, error) {
	client := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.PostForm(base+"/app/login", url.Values{"email": {ownerEmail}, "password": {ownerPassword}})
	if err != nil {
		return "", fmt.Errorf("dashboard login: %w", err)
	}
	res.Body.Close()
	var cookies []string
	for _, c := range res.Cookies() {
		if c.Value != "" {
			cookies = append(cookies, c.Name+"="+c.Value)
		}
	}
	if res.StatusCode != http.StatusSeeOther || len(cookies) == 0 {
		return "", fmt.Errorf("dashboard login: status %d", res.StatusCode)
	}
	return strings.Join(cookies, "; "), nil
}

// runReadAttacks runs the attacks on reading leads until ctx ends, with the company's private key
// and its owner's session.
func (a *attacks) runReadAttacks(ctx context.Context, private, cookie string) {
	client := &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	var wg sync.WaitGroup
	wg.Go(func() { a.craftedCursors(ctx, client, private, cookie) })
	for range parallelExports {
		wg.Go(func() { a.exports(ctx, cookie) })
	}
	wg.Wait()
}

// craftedCursor is a list cursor with a valid checksum at any time, in the first version's form
// (its checksum covers no filter), as someone who read the format would make it.
func craftedCursor(micros int64) string {
	b := make([]byte, 25, 29)
	b[0] = 1
	binary.BigEndian.PutUint64(b[1:9], uint64(micros))
	id := uuid.New()
	copy(b[9:], id[:])
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(append(b, sum[:4]...))
}

// craftedCursors sends cursors no page gave out, to the API's list and the dashboard's: times at
// the ends of int64 and before 1970, wrong lengths, bytes that are not base64url. Before, a time
// PostgreSQL cannot hold was a 500. Every answer should be 400.
func (a *attacks) craftedCursors(ctx context.Context, client *http.Client, private, cookie string) {
	for ctx.Err() == nil {
		var c string
		switch rand.N(6) {
		case 0:
			c = craftedCursor(math.MinInt64)
		case 1:
			c = craftedCursor(math.MaxInt64)
		case 2:
			c = craftedCursor(-rand.Int64N(1 << 62))
		case 3:
			c = craftedCursor(math.MinInt64)[:1+rand.N(38)]
		case 4:
			c = craftedCursor(1)[:39] + randomWord(1+rand.N(8))
		default:
			c = strings.Repeat("*", 39)
		}
		var req *http.Request
		if rand.N(2) == 0 {
			req, _ = http.NewRequest(http.MethodGet, a.base+"/api/v1/leads?cursor="+url.QueryEscape(c), nil)
			req.Header.Set("X-Api-Key", private)
		} else {
			req, _ = http.NewRequest(http.MethodGet, a.base+"/app/leads?after="+url.QueryEscape(c), nil)
			req.Header.Set("Cookie", cookie)
		}
		a.send(client, "crafted cursors", req)
	}
}

// exports downloads the company's CSV export again and again, one of parallelExports clients
// at once, and records each answer: "200" for a whole file (its last record read, the body
// ended as the server ends it), "cut" for a file that broke off, else the status. At most two
// run at once; the others should be refused with 429.
func (a *attacks) exports(ctx context.Context, cookie string) {
	client := &http.Client{}
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.base+"/app/leads.csv", nil)
		req.Header.Set("Cookie", cookie)
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() == nil {
				a.record("exports", "transport")
			}
			continue
		}
		answer := fmt.Sprint(resp.StatusCode)
		if resp.StatusCode == http.StatusOK {
			r := csv.NewReader(bufio.NewReader(resp.Body))
			r.ReuseRecord = true
			for err == nil {
				_, err = r.Read()
			}
			if !errors.Is(err, io.EOF) {
				answer = "cut"
			}
		} else {
			io.Copy(io.Discard, resp.Body)
		}
		resp.Body.Close()
		if ctx.Err() == nil { // one the run's end broke off counts for nothing
			a.record("exports", answer)
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			pause(ctx, 50*time.Millisecond, 100*time.Millisecond)
		}
	}
}

// readProblems are what the attacks on reading leads got that they should not have: a crafted
// cursor answered other than 400, an export other than whole or 429, or no export at all.
func (a *attacks) readProblems() []string {
	var out []string
	for answer, n := range a.answers["crafted cursors"] {
		if answer != "400" {
			out = append(out, fmt.Sprintf("crafted cursors: %d answered %s, want 400", n, answer))
		}
	}
	for answer, n := range a.answers["exports"] {
		if answer != "200" && answer != "429" {
			out = append(out, fmt.Sprintf("exports: %d answered %s, want a whole file or 429", n, answer))
		}
	}
	if a.answers["exports"]["200"] == 0 {
		out = append(out, "exports: not one whole file")
	}
	return out
}
