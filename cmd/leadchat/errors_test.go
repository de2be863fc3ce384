package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// A flag in Go's single-dash form (" -company"), which the commands never write.
var singleDash = regexp.MustCompile(`(^|[ "'(])-[a-z]`)

// fails runs leadchat, wants it to fail printing nothing, and returns its one-line message.
func (c cli) fails(args ...string) string {
	c.t.Helper()
	out, errOut, err := c.exec(args...)
	if err == nil {
		c.t.Fatalf("leadchat %s succeeded:\n%s", strings.Join(args, " "), out)
	}
	msg := err.Error()
	if out != "" || errOut != "" {
		c.t.Errorf("leadchat %s printed besides its error:\n%s%s", strings.Join(args, " "), out, errOut)
	}
	if strings.ContainsAny(msg, "\r\n") {
		c.t.Errorf("leadchat %s: the error is not one line: %q", strings.Join(args, " "), msg)
	}
	for _, driver := range []string{"sql:", "pq:", "not_found", "no rows"} {
		if strings.Contains(msg, driver) {
			c.t.Errorf("leadchat %s: driver text %q in %q", strings.Join(args, " "), driver, msg)
		}
	}
	return msg
}

func TestEveryCommandHasHelpAndRefusesUnknownFlags(t *testing.T) {
	// No database at all: neither --help nor a refused flag needs one.
	c := cli{t: t}
	paths := []string{"serve", "dev", "migrate"}
	for _, cmd := range admin.Commands() {
		paths = append(paths, cmd.Path)
	}
	for _, path := range paths {
		words := strings.Fields(path)
		t.Run(path, func(t *testing.T) {
			for _, help := range [][]string{{"--help"}, {"-h"}, {"--json", "--help"}} {
				out, errOut, err := c.exec(append(words, help...)...)
				if err != nil || errOut != "" || !strings.HasPrefix(out, "Usage: leadchat "+path) {
					t.Errorf("%s %s: %v\n%s%s", path, help, err, out, errOut)
				}
			}
			helped, _, _ := c.exec(append([]string{"help"}, words...)...)
			if !strings.HasPrefix(helped, "Usage: leadchat "+path) {
				t.Errorf("leadchat help %s:\n%s", path, helped)
			}
			if path == "serve" || path == "dev" || path == "migrate" {
				// The admin commands reach the database before their flags; these do not.
				if msg := c.fails(append(words, "--colour")...); !strings.HasPrefix(msg, "unknown flag --colour: ") {
					t.Errorf("unknown flag: %s", msg)
				}
			}
		})
	}
}

func TestAdminErrorPaths(t *testing.T) {
	t.Parallel()
	c := cli{t: t, dsn: pgtest.NewDSN(t)}
	var company struct {
		ID string `json:"id"`
	}
	c.json(&company, "company", "create", "--name", "Teszt Kft.", "--plan", "pro", "--json")
	co := company.ID
	const zero = "00000000-0000-0000-0000-000000000000"
	profile := filepath.Join(t.TempDir(), "profile.yaml")
	if err := os.WriteFile(profile, []byte("company_name: Teszt Kft.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const anID = "give an id such as 0190f5c2-6d0e-7cc4-9a6e-3f1b2c4d5e6f"
	const notAnID = "want an id such as 0190f5c2-6d0e-7cc4-9a6e-3f1b2c4d5e6f"

	t.Run("every admin command refuses an unknown flag, as typed", func(t *testing.T) {
		for _, cmd := range admin.Commands() {
			for _, typed := range []string{"--colour", "-colour", "--colour=red"} {
				args := append(strings.Fields(cmd.Path), typed)
				msg := c.fails(args...)
				flagPart, _, _ := strings.Cut(typed, "=")
				want := "unknown flag " + flagPart + ": run `leadchat " + cmd.Path + " --help` for its flags"
				if msg != want {
					t.Errorf("leadchat %s: %s\nwant %s", strings.Join(args, " "), msg, want)
				}
			}
		}
	})

	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"company create without a name", []string{"company", "create", "--plan", "pro"}, "--name is required: the company's name"},
		{"company create without a plan", []string{"company", "create", "--name", "X"}, "--plan is required: the company's plan, one of free, starter, pro, business or enterprise"},
		{"company create, a plan that is none", []string{"company", "create", "--name", "X", "--plan", "gold"}, `--plan "gold": want free, starter, pro, business or enterprise`},
		{"company create, a limit below 0", []string{"company", "create", "--name", "X", "--plan", "free", "--lead-limit", "-1"}, `--lead-limit "-1": want a number of at least 0, or none`},
		{"company create, a flag without its value", []string{"company", "create", "--name"}, "--name needs a value: the company's name"},

		{"key create without a company", []string{"key", "create", "--kind", "public"}, "--company is required: " + anID},
		{"key create without a kind", []string{"key", "create", "--company", co}, "--kind is required: public (for web pages) or private (for servers)"},
		{"key create, a kind that is none", []string{"key", "create", "--company", co, "--kind", "secret"}, `--kind "secret": want public or private`},
		{"key create, an id that is none", []string{"key", "create", "--company", "Teszt", "--kind", "public"}, `--company "Teszt": ` + notAnID},
		{"key create for an unknown company", []string{"key", "create", "--company", zero, "--kind", "public"}, "company " + zero + " not found: check --company"},

		{"key revoke without an id", []string{"key", "revoke"}, "--key-id is required: " + anID},
		{"key revoke, an id that is none", []string{"key", "revoke", "--key-id", "lc_pub_x"}, `--key-id "lc_pub_x": ` + notAnID},
		{"key revoke of an unknown key", []string{"key", "revoke", "--key-id", zero}, "key " + zero + " not found: check --key-id"},

		{"key list without a company", []string{"key", "list"}, "--company is required: " + anID},
		{"key list of an unknown company", []string{"key", "list", "--company", zero}, "company " + zero + " not found: check --company"},
		{"key list with an argument", []string{"key", "list", "--company", co, "all"}, "unexpected argument \"all\": `leadchat key list` takes flags only (see --help)"},

		{"leads list without a company", []string{"leads", "list"}, "--company is required: " + anID},
		{"leads list of an unknown company", []string{"leads", "list", "--company", zero}, "company " + zero + " not found: check --company"},
		{"leads list, a status that is none", []string{"leads", "list", "--company", co, "--status", "open"}, `--status "open": want new, contacted, qualified, won, lost or over_limit`},
		{"leads list, a source that is none", []string{"leads", "list", "--company", co, "--source", "web"}, `--source "web": want form, api, chat or manual`},
		{"leads list, a time that is none", []string{"leads", "list", "--company", co, "--since", "yesterday"}, `--since "yesterday": want a day such as 2024-06-01 (UTC) or a time such as 2024-06-01T08:00:00+02:00`},
		{"leads list, times the wrong way round", []string{"leads", "list", "--company", co, "--since", "2024-07-01", "--until", "2024-06-01"}, "--since 2024-07-01 is not before --until 2024-06-01: no lead can match"},
		{"leads list, a limit of 0", []string{"leads", "list", "--company", co, "--limit", "0"}, "--limit 0: want 1 or more"},
		{"leads list, a limit that is no number", []string{"leads", "list", "--company", co, "--limit", "all"}, `--limit "all": want a whole number`},
		{"leads list in two forms", []string{"leads", "list", "--company", co, "--csv", "--json"}, "--json and --csv together: choose one"},

		{"widget set without a company", []string{"widget", "set", "--gate-quote"}, "--company is required: " + anID},
		{"widget set for an unknown company", []string{"widget", "set", "--company", zero}, "company " + zero + " not found: check --company"},
		{"widget set, a radius that is no number", []string{"widget", "set", "--company", co, "--border-radius", "x"}, `--border-radius "x": want a whole number`},
		{"widget set, a yes/no flag with a value apart", []string{"widget", "set", "--company", co, "--gate-quote", "false"}, `unexpected argument "false": write --gate-quote=false`},
		{"widget set, a yes/no flag with a value that is none", []string{"widget", "set", "--company", co, "--gate-quote=maybe"}, "--gate-quote=maybe: want true or false"},
		{"widget set, a privacy notice over http", []string{"widget", "set", "--company", co, "--privacy-url", "http://ceg.example/adatvedelem"}, `invalid widget settings: --privacy-url "http://ceg.example/adatvedelem": want an https:// address of at most 2048 characters`},
		{"widget set, a colour that is none", []string{"widget", "set", "--company", co, "--primary-hex", "zöld"}, `invalid widget settings: --primary-hex "zöld": want a colour like #1F6FEB`},

		{"assistant set without a profile", []string{"assistant", "set", "--company", co}, "--profile is required: a YAML or JSON file: company_name, description, services, faq, opening_hours"},
		{"assistant set, a file that is not there", []string{"assistant", "set", "--company", co, "--profile", "/nonexistent.yaml"}, "--profile: open /nonexistent.yaml: no such file or directory"},
		{"assistant set for an unknown company", []string{"assistant", "set", "--company", zero, "--profile", profile}, "company " + zero + " not found: check --company"},

		{"a command that is not there", []string{"lead", "list"}, "unknown command \"lead list\": run `leadchat help` for the list"},
		{"a command's first word alone", []string{"key"}, `unknown command "key": did you mean leadchat key create, leadchat key revoke, leadchat key list?`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg := c.fails(tt.args...)
			if msg != tt.want {
				t.Errorf("leadchat %s:\n got %s\nwant %s", strings.Join(tt.args, " "), msg, tt.want)
			}
			if m := singleDash.FindString(msg); m != "" {
				t.Errorf("a flag in single-dash form in %q", msg)
			}
		})
	}
}
