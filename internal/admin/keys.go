package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/postgres"
)

// CreatedKey is a new key with the key itself, shown this once.
type CreatedKey struct {
	auth.KeyInfo
	Key string `json:"key"`
}

// CreateKey generates a key for a company and stores its hash; `leadchat dev` uses it too.
func CreateKey(ctx context.Context, store *postgres.Store, companyID uuid.UUID, kind auth.Kind, domains []string, hostnameCheck bool) (CreatedKey, error) {
	if _, err := store.Company(ctx, companyID); err != nil {
		return CreatedKey{}, notFound(err, "company", companyID, "company")
	}
	key, nk, err := auth.Create(kind, domains, hostnameCheck)
	var de *auth.DomainError
	switch {
	case errors.As(err, &de):
		return CreatedKey{}, fmt.Errorf("--domain %q: %w", de.Entry, de.Err)
	case errors.Is(err, auth.ErrDomainsOnPrivate):
		return CreatedKey{}, fmt.Errorf("--domain applies to public keys only: a private key may never be used from a browser")
	case err != nil:
		return CreatedKey{}, err
	}
	info, err := store.CreateKey(ctx, companyID, nk)
	if err != nil {
		return CreatedKey{}, err
	}
	return CreatedKey{KeyInfo: info, Key: key}, nil
}

func keyCreate(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "key create")
	company := companyFlag(fs)
	kindName := fs.String("kind", "", "public (for web pages) or private (for servers)")
	var domains stringList
	fs.Var(&domains, "domain", "a host (example.com) or wildcard (*.example.com) a public key may be used from; repeatable")
	noCheck := fs.Bool("no-hostname-check", false, "let a public key create leads from any site despite its domain list")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	if err := required(fs, "kind"); err != nil {
		return err
	}
	kind, err := auth.ParseKind(*kindName)
	if err != nil {
		return fmt.Errorf("--kind %q: want public or private", *kindName)
	}
	k, err := CreateKey(ctx, env.Store, id, kind, domains, !*noCheck)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, k)
	}
	fmt.Fprintf(env.Stdout, "%s key %s for company %s\n\n  %s\n\nStore it now: it is shown only this once.\n", k.Kind, k.ID, k.CompanyID, k.Key)
	if len(k.AllowedDomains) > 0 {
		fmt.Fprintf(env.Stdout, "Allowed domains: %s (hostname check %s)\n", strings.Join(k.AllowedDomains, ", "), onOff(k.HostnameCheck))
	}
	return nil
}

func keyRevoke(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "key revoke")
	keyID := newIDFlag(fs, "key-id", "the key's id (key list shows it)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := keyID.id()
	if err != nil {
		return err
	}
	k, err := env.Store.RevokeKey(ctx, id)
	if err != nil {
		return notFound(err, "key", id, "key-id")
	}
	if *asJSON {
		return printJSON(env.Stdout, k)
	}
	fmt.Fprintf(env.Stdout, "key %s (%s…) revoked at %s\n", k.ID, k.Prefix, k.RevokedAt.Format("2006-01-02 15:04:05Z07:00"))
	return nil
}

func keyList(ctx context.Context, env Env, args []string) error {
	fs := flags(env, "key list")
	company := companyFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := company.id()
	if err != nil {
		return err
	}
	if _, err := env.Store.Company(ctx, id); err != nil {
		return notFound(err, "company", id, "company")
	}
	keys, err := env.Store.ListKeys(ctx, id)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, keys)
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tPREFIX\tDOMAINS\tHOSTNAME CHECK\tCREATED\tREVOKED")
	for _, k := range keys {
		revoked := "-"
		if k.RevokedAt != nil {
			revoked = k.RevokedAt.Format("2006-01-02 15:04")
		}
		domains := strings.Join(k.AllowedDomains, ",")
		if domains == "" {
			domains = "(any)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s…\t%s\t%s\t%s\t%s\n", k.ID, k.Kind, k.Prefix, domains, onOff(k.HostnameCheck),
			k.CreatedAt.Format("2006-01-02 15:04"), revoked)
	}
	return tw.Flush()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
