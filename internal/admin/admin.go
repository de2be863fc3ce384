// Package admin holds the staff's commands: companies, users, keys and leads. Their names and flags are
// part of the product's interface; --json prints one JSON object, or one array for a list.
//
// A command speaks as the others do when it parses its flags with flags and parse (help, and
// one-line errors that name the flag as typed), refuses a missing flag with required or
// uuidFlag, and names what the store did not find with notFound; cmd/leadchat passes what it
// returns through Explain, which keeps driver text off the terminal.
package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/postgres"
)

// Env is what a command runs with.
type Env struct {
	Store *postgres.Store
	// PublicURL is where browsers reach the service (one-time links point there).
	PublicURL string
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	// AllowPrivateWebhooks lets `webhook add` take an http or private URL
	// (LEADCHAT_WEBHOOK_ALLOW_PRIVATE=on).
	AllowPrivateWebhooks bool
}

// Command is one admin subcommand.
type Command struct {
	// Path is the words that name it, like "key create".
	Path string
	// Usage is its flags, as `leadchat help` shows them; --help names flag values after it.
	Usage string
	Run   func(ctx context.Context, env Env, args []string) error
}

// Commands lists every admin command.
func Commands() []Command {
	return append([]Command{
		{"company create", "--name NAME --plan free|starter|pro|business|enterprise [--lead-limit N|none] [--json]", companyCreate},
		{"company list", "[--json]", companyList},
		{"company set", "--company ID [--name N] [--plan P] [--lead-limit N|none|plan] [--retention-months N|none] [--json]", companySet},
		{"user create", "--company ID --email E --role owner|member [--password-stdin] [--json]", userCreate},
		{"user list", "--company ID [--json]", userList},
		{"user remove", "--user ID [--company ID] [--json]", userRemove},
		{"key create", "--company ID --kind public|private [--domain HOST]... [--no-hostname-check] [--json]", keyCreate},
		{"key revoke", "--key-id ID [--json]", keyRevoke},
		{"key list", "--company ID [--json]", keyList},
		{"leads list", "--company ID [--status STATUS] [--source SOURCE] [--since TIME] [--until TIME] [--limit N] [--json|--csv]", leadsList},
		{"leads erase", "--company ID (--email E | --lead ID) [--json]", leadsErase},
		{"leads export", "--company ID --email E", leadsExport},
		{"widget set", "--company ID [--welcome-message TEXT] [--quick-button LABEL]... [--contact-prompt TEXT] [--require-phone[=false]] [--gate-quote[=false]] [--primary-hex #RRGGBB] [--accent-hex #RRGGBB] [--header-title TEXT] [--border-radius 8..28] [--hide-powered-by[=false]] [--language hu|en|auto] [--privacy-url URL] [--marketing-consent-text TEXT] [--json]", widgetSet},
		{"assistant set", "--company ID --profile FILE [--json]", assistantSet},
	}, webhookCommands()...)
}

// Find returns the command named by the first words of args and the remaining arguments.
func Find(args []string) (Command, []string, bool) {
	for _, c := range Commands() {
		words := strings.Fields(c.Path)
		if len(args) >= len(words) && strings.Join(args[:len(words)], " ") == c.Path {
			return c, args[len(words):], true
		}
	}
	return Command{}, nil, false
}

// idArgs parses the arguments of a command that takes one required id flag and --json.
func idArgs(env Env, name, flagName, usage string, args []string) (id uuid.UUID, asJSON bool, err error) {
	fs := flags(env, name)
	v := newIDFlag(fs, flagName, usage)
	j := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return uuid.Nil, false, err
	}
	id, err = v.id()
	return id, *j, err
}

// printJSON writes v as indented JSON, with the runes a terminal would act on escaped
// (escapeJSON).
func printJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSON(buf.Bytes()))
	return err
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// SetProfile stores a company's assistant profile; `leadchat dev` uses it for the demo.
func SetProfile(ctx context.Context, store *postgres.Store, companyID uuid.UUID, p assistant.Profile) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return store.SetAssistantProfile(ctx, companyID, raw)
}
