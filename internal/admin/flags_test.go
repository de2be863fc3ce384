package admin

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/errs"
)

// testFlags is a command's flag set with a flag of each kind the commands use.
func testFlags(out *bytes.Buffer) *flag.FlagSet {
	fs := Flags("thing set", "--company ID [--radius 8..28] [--grace 24h] [--domain HOST]... [--json]", out)
	fs.String("company", "", "the company's id")
	fs.Int("radius", 0, "corner radius in pixels")
	fs.Duration("grace", 0, "how long the old secret keeps working")
	var domains stringList
	fs.Var(&domains, "domain", "an allowed host; repeatable")
	fs.Bool("json", false, "print JSON")
	fs.Func("colour", "a colour like #1F6FEB", func(v string) error {
		if !strings.HasPrefix(v, "#") {
			return fmt.Errorf("want a colour like #1F6FEB")
		}
		return nil
	})
	return fs
}

// The flag package's own messages are rewritten; these cases pin each of its texts, so a Go
// release that changes one fails here rather than on an operator's terminal.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--colur2"}, "unknown flag --colur2: did you mean --colour?"},
		{"unknown flag with one dash", []string{"-volume", "3"}, "unknown flag -volume: run `leadchat thing set --help` for its flags"},
		{"unknown flag with a value", []string{"--volume=3"}, "unknown flag --volume: run `leadchat thing set --help` for its flags"},
		{"prefix of a flag", []string{"--comp", "x"}, "unknown flag --comp: did you mean --company?"},
		{"missing value", []string{"--company"}, "--company needs a value: the company's id"},
		{"not a number", []string{"--radius", "x"}, `--radius "x": want a whole number`},
		{"number too large", []string{"-radius=99999999999999999999"}, `-radius "99999999999999999999": too large`},
		{"not a duration", []string{"--grace", "tomorrow"}, `--grace "tomorrow": want a duration such as 90s, 15m or 24h`},
		{"a value's own error", []string{"--colour", "red"}, `--colour "red": want a colour like #1F6FEB`},
		{"bad boolean", []string{"--json=maybe"}, "--json=maybe: want true or false"},
		{"boolean written apart", []string{"--json", "false"}, `unexpected argument "false": write --json=false`},
		{"stray argument", []string{"--company", "x", "extra"}, "unexpected argument \"extra\": `leadchat thing set` takes flags only (see --help)"},
		{"bad syntax", []string{"---company"}, "\"---company\" is not a flag: flags are written --name or --name=value; run `leadchat thing set --help`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Parse(testFlags(&out), tt.args)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Parse(%q) = %v\nwant %s", tt.args, err, tt.want)
			}
			if out.Len() > 0 {
				t.Errorf("Parse printed %q", out.String())
			}
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"-h", "--help", "-help"} {
		var out bytes.Buffer
		err := Parse(testFlags(&out), []string{"--company", "x", arg})
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: %v, want flag.ErrHelp", arg, err)
		}
		want := `Usage: leadchat thing set --company ID [--radius 8..28] [--grace 24h] [--domain HOST]... [--json]

Flags:
  --colour COLOUR  a colour like #1F6FEB
  --company ID     the company's id
  --domain HOST    an allowed host; repeatable
  --grace 24h      how long the old secret keeps working
  --json           print JSON
  --radius 8..28   corner radius in pixels
`
		if out.String() != want {
			t.Errorf("%s printed\n%s\nwant\n%s", arg, out.String(), want)
		}
	}
}

func TestRequired(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	fs := testFlags(&out)
	if err := Parse(fs, []string{"--json"}); err != nil {
		t.Fatal(err)
	}
	if err := required(fs, "json", "company"); err == nil || err.Error() != "--company is required: the company's id" {
		t.Errorf("required = %v", err)
	}
	if err := required(fs, "json"); err != nil {
		t.Errorf("required(json) = %v", err)
	}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	noRows := errors.New("sql: no rows in result set")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"not found after a subject", fmt.Errorf("company 42: %w", errs.Wrap(errs.NotFound, errs.CodeNotFound, noRows)), "company 42 not found: check the id"},
		{"not found alone", errs.Wrap(errs.NotFound, errs.CodeNotFound, noRows), "not found: check the id"},
		{"unavailable", fmt.Errorf("listing: %w", errs.Wrap(errs.Unavailable, errs.CodeUnavailable, errors.New("pq: canceling statement due to statement timeout"))),
			"listing: the database did not answer in time or is unreachable; try again"},
		{"internal", errs.Internalf("pq: relation \"x\" does not exist"), "an unexpected error in the database or in leadchat; if it persists, report it with the command you ran"},
		{"an input error", errs.Field(errs.CodeInvalidStatus, "status"), "invalid status (status)"},
		{"interrupted", fmt.Errorf("page: %w", context.Canceled), "interrupted"},
		{"the command's own, on lines", errors.New("first\nsecond\r\n"), "first; second"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Explain(tt.err); got == nil || got.Error() != tt.want {
				t.Errorf("Explain = %v\nwant %s", got, tt.want)
			}
		})
	}
	if Explain(nil) != nil || !errors.Is(Explain(flag.ErrHelp), flag.ErrHelp) {
		t.Error("Explain changes nil or flag.ErrHelp")
	}
}

func TestPlural(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0 leads", 1: "1 lead", 2: "2 leads", 1000000: "1000000 leads"} {
		if got := plural(n, "lead", "leads"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}
