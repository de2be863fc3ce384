package main

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// millionLeads is how many leads the memory test lists; maxListRSS is the most memory the
// process listing them may hold at its peak.
const (
	millionLeads = 1_000_000
	maxListRSS   = 64 << 20
)

// leads list streams: a company's million leads go out as CSV in the memory of a page, not of
// the list. The listing runs as a process of its own (this test binary running main), whose
// peak resident memory the kernel reports when it ends.
func TestLeadsListMillionCSVInFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a million leads take minutes to seed: make test runs this, make test-fast does not")
	}
	dsn := pgtest.NewDSN(t)
	c := cli{t: t, dsn: dsn}
	var company struct {
		ID string `json:"id"`
	}
	c.json(&company, "company", "create", "--name", "Millió Kft.", "--plan", "enterprise", "--json")
	start := time.Now()
	pgtest.SeedLeads(t, dsn, uuid.MustParse(company.ID), millionLeads)
	t.Logf("seeded %d leads in %v", millionLeads, time.Since(start).Round(time.Second))

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "leads", "list", "--company", company.ID, "--csv")
	cmd.Env = append(os.Environ(), childEnv+"=1", "DATABASE_URL="+dsn)
	var out lineCounter
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start = time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("leads list --csv: %v\n%s", err, errOut.String())
	}
	rss, err := peakRSS(cmd.ProcessState)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("listed %d lines (%d MiB of CSV) in %v; peak RSS %.1f MiB", out.lines, out.bytes>>20,
		time.Since(start).Round(time.Second), float64(rss)/(1<<20))
	if out.lines != millionLeads+1 {
		t.Errorf("%d lines, want a header and %d leads", out.lines, millionLeads)
	}
	if rss > maxListRSS {
		t.Errorf("peak RSS %.1f MiB, want at most %d MiB", float64(rss)/(1<<20), maxListRSS>>20)
	}
}

// lineCounter counts what is written to it, keeping none of it.
type lineCounter struct{ lines, bytes int }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.lines += bytes.Count(p, []byte{'\n'})
	c.bytes += len(p)
	return len(p), nil
}
