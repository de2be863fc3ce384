package admin

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/csvexport"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// seeded is how many leads the listing tests store: more than two of the store's pages, so the
// table is written in three batches.
const seeded = 450

// listedLead is what these tests read of a printed Lead object.
type listedLead struct {
	ID        uuid.UUID `json:"lead_id"`
	LastName  *string   `json:"last_name"`
	CreatedAt time.Time `json:"created_at"`
}

func TestLeadsListStreamsEveryForm(t *testing.T) {
	t.Parallel()
	ls := newLister(t)
	pgtest.SeedLeads(t, ls.dsn, ls.company, seeded)

	var leads []listedLead
	out := ls.list("--json")
	if err := json.Unmarshal([]byte(out), &leads); err != nil || len(leads) != seeded {
		t.Fatalf("--json: %d leads, %v", len(leads), err)
	}
	t.Run("json is what one encoding of the whole list would be", func(t *testing.T) {
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(out), &raw); err != nil {
			t.Fatal(err)
		}
		var whole bytes.Buffer
		if err := printJSON(&whole, raw); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(whole.String(), out); diff != "" {
			t.Errorf("streamed JSON differs (-whole +streamed):\n%s", diff)
		}
	})
	for i, l := range leads {
		if want := fmt.Sprintf("No. %d", i+1); l.LastName == nil || *l.LastName != want {
			t.Fatalf("lead %d is %v, want %s: not newest first", i, l.LastName, want)
		}
	}

	t.Run("csv has a header and every lead", func(t *testing.T) {
		out, bom := strings.CutPrefix(ls.list("--csv"), csvexport.BOM)
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if !bom {
			t.Error("the CSV does not start with the UTF-8 BOM")
		}
		if err != nil || len(rows) != seeded+1 || rows[0][0] != "id" || rows[1][0] != leads[0].ID.String() ||
			rows[seeded][0] != leads[seeded-1].ID.String() {
			t.Errorf("%d rows, %v", len(rows), err)
		}
	})

	t.Run("the table keeps its columns through every batch", func(t *testing.T) {
		lines := strings.Split(strings.TrimSuffix(ls.list(), "\n"), "\n")
		if len(lines) != seeded+2 || lines[len(lines)-1] != "450 leads" {
			t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
		}
		idAt := strings.Index(lines[0], "ID")
		for i, line := range lines[1 : seeded+1] {
			if got := strings.Index(line, leads[i].ID.String()); got != idAt {
				t.Fatalf("row %d has its id at %d, the header at %d:\n%s\n%s", i, got, idAt, lines[0], line)
			}
		}
	})

	t.Run("filters", func(t *testing.T) {
		since, until := leads[19].CreatedAt.Format(time.RFC3339Nano), leads[9].CreatedAt.Format(time.RFC3339Nano)
		for _, tt := range []struct {
			args       []string
			want       int
			first, all string // the last name of the first lead, and what every lead has
		}{
			{[]string{"--status", "over_limit"}, seeded / 4, "No. 4", `"status": "over_limit"`},
			{[]string{"--source", "chat"}, seeded / 3, "No. 3", `"source": "chat"`},
			{[]string{"--source", "chat", "--status", "over_limit"}, seeded / 12, "No. 12", `"source": "chat"`},
			{[]string{"--since", since, "--until", until}, 10, "No. 11", `"first_name": "Lead"`},
			{[]string{"--limit", "5"}, 5, "No. 1", `"first_name": "Lead"`},
			{[]string{"--limit", "5000"}, seeded, "No. 1", `"first_name": "Lead"`},
		} {
			var got []listedLead
			out := ls.list(append(tt.args, "--json")...)
			if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != tt.want {
				t.Errorf("%v: %d leads, want %d (%v)", tt.args, len(got), tt.want, err)
				continue
			}
			if *got[0].LastName != tt.first || strings.Count(out, tt.all) != tt.want {
				t.Errorf("%v: first %s, %d with %s", tt.args, *got[0].LastName, strings.Count(out, tt.all), tt.all)
			}
		}
		if out := ls.list("--limit", "2"); !strings.HasSuffix(out, "\n2 leads (--limit 2: there may be more)\n") {
			t.Errorf("--limit 2 ends:\n%s", out)
		}
		if out := ls.list("--status", "won"); out != "CREATED  STATUS  SOURCE  NAME  EMAIL  PHONE  SERVICE  ID\n0 leads\n" {
			t.Errorf("no lead:\n%s", out)
		}
		if out := ls.list("--status", "won", "--json"); out != "[]\n" {
			t.Errorf("no lead, --json: %q", out)
		}
	})
}

func TestTableNeverNarrows(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	tb := table{w: &out}
	tb.row("A", "B", "C")
	tb.row("wide cell", "x", "last")
	if err := tb.flush(); err != nil {
		t.Fatal(err)
	}
	tb.row("n", "y", "z")
	tb.row("árvíztűrő", "yy", "z")
	if err := tb.flush(); err != nil {
		t.Fatal(err)
	}
	tb.row("wider than before", "z", "z")
	if err := tb.flush(); err != nil {
		t.Fatal(err)
	}
	want := "A          B  C\n" +
		"wide cell  x  last\n" +
		"n          y   z\n" +
		"árvíztűrő  yy  z\n" +
		"wider than before  z   z\n"
	if out.String() != want {
		t.Errorf("table:\n%s\nwant\n%s", out.String(), want)
	}
}

// The table names a lead as the dashboard does: a Hungarian name family name first, another
// given name first.
func TestLeadsTableNamesAsTheDashboard(t *testing.T) {
	ls := newLister(t)
	for _, l := range []lead.Lead{
		{FirstName: "Péter", LastName: "Kovács", Email: "p@example.hu", Source: lead.SourceForm},
		{FirstName: "John", LastName: "Smith", Email: "j@example.com", Source: lead.SourceAPI},
	} {
		l.ID = lead.NewID()
		if _, err := ls.store.CreateLead(context.Background(), ls.company, l, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	out := ls.list()
	for _, want := range []string{"Kovács Péter", "John Smith"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}
