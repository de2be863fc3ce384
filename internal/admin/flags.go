package admin

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// The commands parse their flags with the standard library's flag package, through flags and
// parse, which speak the way the commands are documented: --name rather than Go's -name, and
// an error is one line that says what to do, without the usage dump the package prints. --help
// prints the command's help to stdout. The flag package's errors are plain text, so
// parseFailure matches them; TestParseErrors pins each one, so a Go release that rewords one
// fails there rather than on an operator's terminal.

// Flags returns the flag set of `leadchat NAME`: synopsis is its usage after the name (the
// flags, as in `leadchat help`), which also gives each flag's value its name in the help;
// --help writes to stdout. Parse it with Parse.
func Flags(name, synopsis string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("leadchat "+name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() { writeHelp(fs.Output(), fs, synopsis) }
	return fs
}

// flags is Flags for an admin command, with the synopsis of its entry in Commands.
func flags(env Env, name string) *flag.FlagSet {
	synopsis := ""
	for _, c := range Commands() {
		if c.Path == name {
			synopsis = c.Usage
		}
	}
	return Flags(name, synopsis, env.Stdout)
}

// Parse parses args into fs and refuses positional arguments. Asked for help (-h, --help), it
// prints the help and returns flag.ErrHelp, which the caller treats as success.
func Parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package would print the error and the usage there
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return flag.ErrHelp
	case err != nil:
		return parseFailure(fs, args, err)
	case fs.NArg() > 0:
		return unexpectedArg(fs, args)
	}
	return nil
}

// parse is Parse, under the name this package's commands call it by.
func parse(fs *flag.FlagSet, args []string) error { return Parse(fs, args) }

// The errors of flag.FlagSet.Parse, as its source writes them.
var (
	flagUnknown   = regexp.MustCompile(`^flag provided but not defined: -(.*)$`)
	flagNoValue   = regexp.MustCompile(`^flag needs an argument: -(.*)$`)
	flagBadValue  = regexp.MustCompile(`^invalid value (".*") for flag -([^:]*): (.*)$`)
	flagBadBool   = regexp.MustCompile(`^invalid boolean value (".*") for -([^:]*): (.*)$`)
	flagBadSyntax = regexp.MustCompile(`^bad flag syntax: (.*)$`)
)

// parseFailure rewrites an error of fs.Parse as one line that names the flag as it was typed.
func parseFailure(fs *flag.FlagSet, args []string, err error) error {
	msg := err.Error()
	help := fmt.Sprintf("run `%s --help`", fs.Name())
	if m := flagUnknown.FindStringSubmatch(msg); m != nil {
		if near := nearestFlag(fs, m[1]); near != "" {
			return fmt.Errorf("unknown flag %s: did you mean --%s?", typed(args, m[1]), near)
		}
		return fmt.Errorf("unknown flag %s: %s for its flags", typed(args, m[1]), help)
	}
	if m := flagNoValue.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s needs a value: %s", typed(args, m[1]), flagWants(fs, m[1]))
	}
	if m := flagBadValue.FindStringSubmatch(msg); m != nil {
		value, _ := strconv.Unquote(m[1])
		return fmt.Errorf("%s %q: %s", typed(args, m[2]), value, valueProblem(fs.Lookup(m[2]), m[3]))
	}
	if m := flagBadBool.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s=%s: want true or false", typed(args, m[2]), strings.Trim(m[1], `"`))
	}
	if m := flagBadSyntax.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%q is not a flag: flags are written --name or --name=value; %s", m[1], help)
	}
	return fmt.Errorf("%s: %s", msg, help)
}

// valueProblem says what a flag wants, for the reason the flag package gave for refusing a
// value: its own "parse error" and "value out of range" for numbers and durations, or the
// text of a Value of this package.
func valueProblem(f *flag.Flag, reason string) string {
	if f == nil || (reason != "parse error" && reason != "value out of range") {
		return reason
	}
	switch kind, _ := flag.UnquoteUsage(f); kind {
	case "int", "uint":
		if reason == "value out of range" {
			return "too large"
		}
		return "want a whole number"
	case "float":
		return "want a number"
	case "duration":
		return "want a duration such as 90s, 15m or 24h"
	}
	return reason
}

// typed is how the user wrote flag name in args: --name or -name; --name when it is not there.
func typed(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		flagPart, _, _ := strings.Cut(a, "=")
		if flagPart == "-"+name || flagPart == "--"+name {
			return flagPart
		}
	}
	return "--" + name
}

// nearestFlag is the defined flag that name most likely misspells ("compnay") or shortens
// ("comp"): within two edits, or one that starts with it; "" when none is close.
func nearestFlag(fs *flag.FlagSet, name string) string {
	best, bestDist := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(name, f.Name)
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// unexpectedArg explains the first positional argument; a common one is a yes/no flag's value
// written after a space, which the flag package takes for an argument.
func unexpectedArg(fs *flag.FlagSet, args []string) error {
	stray := fs.Arg(0)
	i := len(args) - fs.NArg()
	if i > 0 {
		if f := fs.Lookup(strings.TrimLeft(args[i-1], "-")); f != nil && isBool(f) {
			if _, err := strconv.ParseBool(stray); err == nil {
				return fmt.Errorf("unexpected argument %q: write %s=%s", stray, args[i-1], stray)
			}
		}
	}
	return fmt.Errorf("unexpected argument %q: `%s` takes flags only (see --help)", stray, fs.Name())
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// required refuses a flag of fs that was not given, naming what it wants.
func required(fs *flag.FlagSet, names ...string) error {
	for _, name := range names {
		if !isSet(fs, name) {
			return fmt.Errorf("--%s is required: %s", name, flagWants(fs, name))
		}
	}
	return nil
}

// isSet reports whether flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// flagWants is what flag name wants, from its help: "the company's id".
func flagWants(fs *flag.FlagSet, name string) string {
	if f := fs.Lookup(name); f != nil {
		_, usage := flag.UnquoteUsage(f)
		return usage
	}
	return "see --help"
}

// idFlag is a flag holding a required id, named once where it is declared and read.
type idFlag struct {
	name  string
	value *string
}

// newIDFlag declares the id flag --name.
func newIDFlag(fs *flag.FlagSet, name, usage string) idFlag {
	return idFlag{name: name, value: fs.String(name, "", usage)}
}

// companyFlag declares --company, the company a command works on.
func companyFlag(fs *flag.FlagSet) idFlag { return newIDFlag(fs, "company", "the company's id") }

// webhookFlag declares --webhook, the endpoint a webhook command works on.
func webhookFlag(fs *flag.FlagSet) idFlag {
	return newIDFlag(fs, "webhook", "webhook id (from webhook list)")
}

// id is the flag's id, or what is wrong with it (uuidFlag).
func (f idFlag) id() (uuid.UUID, error) { return uuidFlag(f.name, *f.value) }

// uuidFlag checks a required id flag (--company, --key-id).
func uuidFlag(flagName, v string) (uuid.UUID, error) {
	if v == "" {
		return uuid.Nil, fmt.Errorf("--%s is required: give an id such as 0190f5c2-6d0e-7cc4-9a6e-3f1b2c4d5e6f", flagName)
	}
	id, err := uuid.Parse(v)
	if err != nil {
		return uuid.Nil, fmt.Errorf("--%s %q: want an id such as 0190f5c2-6d0e-7cc4-9a6e-3f1b2c4d5e6f", flagName, v)
	}
	return id, nil
}

// oneOf writes choices for a message: "a, b or c".
func oneOf[S ~string](choices []S) string {
	s := make([]string, len(choices))
	for i, c := range choices {
		s[i] = string(c)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// synopsisValue finds the name a synopsis gives a flag's value: ID in "--company ID",
// public|private in "--kind public|private"; "" for a flag shown without one.
var synopsisValue = regexp.MustCompile(`--([a-z0-9-]+)[ =]([^\s\[\]]+)`)

// writeHelp prints the help of a command: its usage, then each flag with its value's name and
// what it does.
func writeHelp(w io.Writer, fs *flag.FlagSet, synopsis string) {
	values := map[string]string{}
	for _, m := range synopsisValue.FindAllStringSubmatch(synopsis, -1) {
		if !strings.HasPrefix(m[2], "-") {
			values[m[1]] = m[2]
		}
	}
	fmt.Fprintf(w, "Usage: %s %s\n", fs.Name(), synopsis)
	var lines [][2]string
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		left := "--" + f.Name
		if !isBool(f) {
			left += " " + valueName(f, values[f.Name])
		}
		_, usage := flag.UnquoteUsage(f)
		lines = append(lines, [2]string{left, usage})
		width = max(width, len(left))
	})
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "\nFlags:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l[0], l[1])
	}
}

// valueName is what the help calls flag f's value: the name the synopsis gives it, or the one
// its usage quotes (`FILE`), or else the flag's own name in capitals.
func valueName(f *flag.Flag, fromSynopsis string) string {
	if fromSynopsis != "" {
		return fromSynopsis
	}
	name, _ := flag.UnquoteUsage(f)
	if name == "string" || name == "value" {
		return strings.ToUpper(f.Name)
	}
	return strings.ToUpper(name)
}
