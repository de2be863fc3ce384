package web_test

import (
	"context"
	"encoding/csv"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/service"
)

// exportLeads is how many leads the export tests give a company: with their notes, an export
// of some 11 MB, more than the kernel buffers between the service and a client that reads it
// slowly, so the export is still writing while that client waits.
const exportLeads = 10000

// seedExport gives c n leads with a long note and returns the oldest one's id, which an export
// ends with.
func seedExport(t *testing.T, f *fixture, c company.Company, n int) string {
	t.Helper()
	// The seed is one long statement, which the service's statement timeout would cut on a busy
	// machine: it runs on a connection of its own without one.
	ctx := context.Background()
	conn, err := f.store.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET statement_timeout = 0"); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = conn.ExecContext(ctx, "RESET statement_timeout") }()
	var oldest uuid.UUID
	if err := conn.QueryRowContext(ctx, `
		WITH made AS (
			INSERT INTO leads (id, company_id, first_name, last_name, email, source, status, details, created_at, updated_at)
			SELECT gen_random_uuid(), $1, 'Anna', 'Kiss', 'lead' || i || '@pelda.hu', 'form', 'new',
			       jsonb_build_object('note', repeat('napelem', 140)), now() - i * interval '1 second', now()
			FROM generate_series(1, $2::int) AS i
			RETURNING id, created_at
		)
		SELECT id FROM made ORDER BY created_at, id LIMIT 1`, c.ID, n).Scan(&oldest); err != nil {
		t.Fatal(err)
	}
	return oldest.String()
}

// slowClient is a logged-in client whose connections take in little at a time (a small
// receive buffer), so a large answer waits in the service until it reads.
func slowClient(t *testing.T, f *fixture, email string) *client {
	c := f.client(t)
	c.login(email)
	c.http.Timeout = 0
	c.http.Transport = &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			err = conn.(*net.TCPConn).SetReadBuffer(256 << 10)
		}
		return conn, err
	}}
	return c
}

// startExport starts an export and returns its open answer.
func (c *client) startExport() *http.Response {
	c.t.Helper()
	resp, err := c.http.Get(c.base + "/app/leads.csv")
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// An export that lasts longer than the server's write timeout and the request deadline every
// other page has delivers every lead, and ends as a whole answer does (the chunked body's end
// is there: the reader sees no error). The server's read timeout never reaches it: its
// connection has no read deadline while it runs.
func TestExportOutlivesTheDeadlines(t *testing.T) {
	t.Parallel()
	// The server's read timeout is 15 s; the export's own, for a client that takes in nothing,
	// exportStall, is longer than the time the test lets pass.
	const timeout, passed = 20 * time.Second, time.Minute
	d := newDeadlines()
	f := startPassing(t, d, func(c *service.Config) { c.WriteTimeout, c.RequestTimeout = timeout, timeout })
	oldest := seedExport(t, f, f.a, exportLeads)
	c := slowClient(t, f, f.owner)

	var local string
	trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { local = i.Conn.LocalAddr().String() }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodGet, c.base+"/app/leads.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d", resp.StatusCode)
	}
	head := make([]byte, 1024)
	if _, err := io.ReadFull(resp.Body, head); err != nil {
		t.Fatal(err)
	}
	// net/http clears a request's read deadline once its body is read (none here) and the
	// handler clears it again. One left would cancel the request when it passed, and the request
	// deadline, which pass ends first, would hide that: the test would need to pass it alone.
	if at := d.readDeadline(local); !at.IsZero() {
		t.Fatalf("the export's connection has a read deadline, %v from now", time.Until(at).Round(time.Millisecond))
	}
	// The export is under way when its request's deadline and its connection's write deadline
	// pass.
	d.pass(passed)
	records, err := csv.NewReader(io.MultiReader(strings.NewReader(string(head)), resp.Body)).ReadAll()
	if err != nil {
		t.Fatalf("after %d records: %v", len(records), err)
	}
	if len(records) != 1+exportLeads {
		t.Errorf("%d records, want a header and %d leads", len(records), exportLeads)
	}
	if last := records[len(records)-1]; last[0] != oldest || !strings.HasSuffix(last[7], "napelem") {
		t.Errorf("the last record is %.80q, want the oldest lead %s whole", last, oldest)
	}
}

// At most two exports of a company run at once: a third is a Hungarian 429 while another
// company exports as usual, and once one of the two ends, the company may export again.
// Company A's exports are large, to stay under way while their client waits; B's need not be.
func TestExportsPerCompany(t *testing.T) {
	t.Parallel()
	const leadsB = 100
	f := start(t)
	seedExport(t, f, f.a, exportLeads)
	seedExport(t, f, f.b, leadsB)
	a := slowClient(t, f, f.owner)
	var running []*http.Response
	for range 2 {
		resp := a.startExport()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("export %d: %d", len(running)+1, resp.StatusCode)
		}
		running = append(running, resp)
	}

	third := a.get("/app/leads.csv")
	if third.status != http.StatusTooManyRequests || !strings.Contains(third.body, "egyszerre legfeljebb 2 exportálás") {
		t.Errorf("the third export: %d\n%.300s", third.status, third.body)
	}
	b := f.client(t)
	b.login(f.ownerB)
	r := b.get("/app/leads.csv")
	if records, err := csv.NewReader(strings.NewReader(r.body)).ReadAll(); r.status != http.StatusOK || err != nil || len(records) != 1+leadsB {
		t.Errorf("company B's export beside them: %d, %d records, %v", r.status, len(records), err)
	}

	// The service notices the closed connection at its next write and frees the slot.
	running[0].Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp := a.startExport()
		if resp.StatusCode == http.StatusOK {
			break
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("an export after one of two ended: %d", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
