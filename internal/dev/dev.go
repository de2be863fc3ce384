// Package dev is `leadchat dev`: the service with everything it needs on a developer's machine,
// a PostgreSQL cluster of its own (unless DATABASE_URL is set), a demo company with keys and a
// demo page with the widget.
package dev

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/httpapi"
	"github.com/leadchat/leadchat/internal/pgembed"
	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/widget"
)

// URLFile, in the data folder, holds the address of the running dev database, so the admin
// commands find it without DATABASE_URL.
const URLFile = "database_url"

// keysFile, in the data folder, keeps the demo keys so every start can print them again. It is a
// developer convenience for demo keys only, in plain text and readable by its owner alone;
// real keys are shown once and stored as hashes.
const keysFile = "demo-keys.json"

// clusterDir, in the data folder, holds the local PostgreSQL cluster.
const clusterDir = "pg"

// DemoCompany is the name the demo company is found by.
const DemoCompany = "Napfény Napelem Kft. (demo)"

// Options configure a dev run.
type Options struct {
	Config  service.Config
	DataDir string
	// Reset starts the demo over: the local cluster and the demo keys are deleted first, so
	// the database, the demo company and its keys are made anew.
	Reset bool
}

// Run starts everything and serves until ctx ends; then it stops the server and the database.
func Run(ctx context.Context, opt Options, stdout, stderr io.Writer) error {
	dataDir, err := filepath.Abs(opt.DataDir)
	if err != nil {
		return err
	}
	cfg := opt.Config
	// The folder must be enterable by the postgres user when run as root; its secrets are 0600.
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return err
	}
	if err := os.Chmod(dataDir, 0o755); err != nil {
		return err
	}
	if opt.Reset {
		if err := reset(dataDir, cfg.DatabaseURL != "", stdout); err != nil {
			return err
		}
	}
	if cfg.DatabaseURL == "" {
		fmt.Fprintf(stdout, "Starting a local PostgreSQL in %s ...\n", dataDir)
		cluster, err := pgembed.Start(ctx, pgembed.Options{DataDir: filepath.Join(dataDir, clusterDir), Durable: true, Log: stdout})
		if errors.Is(err, pgembed.ErrNotInstalled) {
			return fmt.Errorf("%w\n(or set DATABASE_URL to a PostgreSQL database of your own)", err)
		}
		if err != nil {
			return err
		}
		defer func() {
			fmt.Fprintln(stdout, "Stopping the local PostgreSQL ...")
			stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := cluster.Stop(stopCtx); err != nil {
				fmt.Fprintln(stderr, "leadchat dev: stopping PostgreSQL:", err)
			}
			os.Remove(filepath.Join(dataDir, URLFile))
		}()
		cfg.DatabaseURL = cluster.DSN("postgres")
		if err := os.WriteFile(filepath.Join(dataDir, URLFile), []byte(cfg.DatabaseURL+"\n"), 0o600); err != nil {
			return err
		}
	}

	keysPath := filepath.Join(dataDir, keysFile)
	demo, err := provision(ctx, cfg.DatabaseURL, keysPath)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s (set LEADCHAT_ADDR to another address): %w", cfg.Addr, err)
	}
	if cfg.PublicURL == "http://"+opt.Config.Addr {
		cfg.PublicURL = "http://" + ln.Addr().String()
	}
	profile, err := assistant.ParseProfile(demoProfile)
	if err != nil {
		return fmt.Errorf("the demo profile: %w", err)
	}
	svc, err := service.Open(ctx, cfg, stderr, map[string]http.Handler{
		"/": httpapi.DemoPage(cfg.PublicURL, demo.PublicKey, profile),
	})
	if err != nil {
		ln.Close()
		return err
	}
	defer svc.Close()
	printWelcome(stdout, cfg.PublicURL, demo, keysPath)
	return svc.Serve(ctx, ln)
}

// reset deletes what a dev run keeps in dataDir, refusing while a dev run uses it. With a
// database of the developer's own (DATABASE_URL) it refuses too: the demo company and its leads
// are there among other data, which is not this command's to delete.
func reset(dataDir string, ownDatabase bool, stdout io.Writer) error {
	if ownDatabase {
		return fmt.Errorf("--reset starts over the local database in %s, and DATABASE_URL is set: "+
			"to start over on that database, empty it yourself (or unset DATABASE_URL)", dataDir)
	}
	err := pgembed.Remove(filepath.Join(dataDir, clusterDir))
	if errors.Is(err, pgembed.ErrAlreadyRunning) {
		return fmt.Errorf("--reset: a `leadchat dev` is running from %s: stop it (Ctrl-C) first", dataDir)
	}
	if err != nil {
		return err
	}
	for _, f := range []string{keysFile, URLFile} {
		if err := os.Remove(filepath.Join(dataDir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	fmt.Fprintf(stdout, "Starting the demo over: the local database and the demo keys in %s are deleted.\n", dataDir)
	return nil
}

// demoKeys is what keysFile holds.
type demoKeys struct {
	CompanyID  string `json:"company_id"`
	PublicKey  string `json:"public_key"`
	PrivateKey string `json:"private_key"`
	// OwnerPassword is the demo owner's dashboard password (a development convenience too).
	OwnerPassword string `json:"owner_password"`
}

// DemoOwner is the demo company's dashboard owner.
const DemoOwner = "tulajdonos@napfeny-demo.hu"

// provision migrates the database and creates the demo company and its keys on first start.
func provision(ctx context.Context, dsn, keysPath string) (demoKeys, error) {
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 2})
	if err != nil {
		return demoKeys{}, err
	}
	defer store.Close()
	if err := postgres.Migrate(ctx, store.DB(), io.Discard); err != nil {
		return demoKeys{}, err
	}
	var keys demoKeys
	if b, err := os.ReadFile(keysPath); err == nil && json.Unmarshal(b, &keys) == nil {
		if c, err := store.CompanyByName(ctx, DemoCompany); err == nil && c.ID.String() == keys.CompanyID {
			return keys, demoOwner(ctx, store, c.ID, &keys, keysPath)
		}
	}
	c, err := store.CompanyByName(ctx, DemoCompany)
	if errs.Is(err, errs.NotFound) {
		c, err = createDemoCompany(ctx, store)
	}
	if err != nil {
		return demoKeys{}, err
	}
	// The demo public key has no allowed domains, so it allows every origin: the demo page is
	// served at LEADCHAT_PUBLIC_URL, which may change between runs while the key is kept in
	// keysFile. A real site's key lists its domains.
	pub, err := admin.CreateKey(ctx, store, c.ID, auth.Public, nil, true)
	if err != nil {
		return demoKeys{}, err
	}
	priv, err := admin.CreateKey(ctx, store, c.ID, auth.Private, nil, true)
	if err != nil {
		return demoKeys{}, err
	}
	keys = demoKeys{CompanyID: c.ID.String(), PublicKey: pub.Key, PrivateKey: priv.Key}
	return keys, demoOwner(ctx, store, c.ID, &keys, keysPath)
}

// demoOwner makes sure the demo company has its dashboard owner with the password in keys,
// making one (and a new password) when either is missing, and saves keys.
func demoOwner(ctx context.Context, store *postgres.Store, companyID uuid.UUID, keys *demoKeys, keysPath string) error {
	u, _, err := store.UserByEmail(ctx, DemoOwner)
	if err == nil {
		// The account is the demo owner when it is a member of the demo company.
		if _, merr := store.User(ctx, companyID, u.ID); merr == nil {
			u.CompanyID = companyID
		} else if !errs.Is(merr, errs.NotFound) {
			return merr
		}
	}
	switch {
	case err == nil && u.CompanyID == companyID && keys.OwnerPassword != "":
		// A file from before it was made private, or copied since, is made private again.
		return os.Chmod(keysPath, 0o600)
	case err == nil:
		if _, err := store.RemoveUser(ctx, u.ID); err != nil {
			return err
		}
	case !errs.Is(err, errs.NotFound):
		return err
	}
	keys.OwnerPassword = rand.Text()[:16]
	if _, _, err := user.Create(ctx, store, companyID, DemoOwner, user.Owner, keys.OwnerPassword); err != nil {
		return fmt.Errorf("the demo owner: %w", err)
	}
	b, _ := json.MarshalIndent(keys, "", "  ")
	if err := os.WriteFile(keysPath, b, 0o600); err != nil {
		return err
	}
	return os.Chmod(keysPath, 0o600) // WriteFile keeps the mode of a file that was there
}

//go:embed demo-profile.yaml
var demoProfile []byte

// createDemoCompany creates the demo company with a realistic profile and a themed widget.
func createDemoCompany(ctx context.Context, store *postgres.Store) (company.Company, error) {
	c, err := store.CreateCompany(ctx, DemoCompany, plan.Business, plan.Override{})
	if err != nil {
		return c, err
	}
	profile, err := assistant.ParseProfile(demoProfile)
	if err != nil {
		return c, fmt.Errorf("the demo profile: %w", err)
	}
	if err := admin.SetProfile(ctx, store, c.ID, profile); err != nil {
		return c, err
	}
	str := func(s string) *string { return &s }
	radius, hide := 16, false
	settings := widget.Settings{
		Language:       widget.LanguageAuto, // an English visitor is answered in English
		WelcomeMessage: str("Üdvözöljük a Napfény Napelemnél! Miben segíthetünk? – Welcome! How can we help?"),
		QuickButtons:   []string{"Mennyibe kerül egy napelem?", "Visszahívást kérek", "Nyitvatartás"},
		ContactPrompt:  str("Hagyja meg az elérhetőségét, és egy kollégánk 24 órán belül jelentkezik."),
		GateQuote:      true,
		PrimaryHex:     str("#0A7C66"), AccentHex: str("#F2B705"), HeaderTitle: str("Napfény Napelem"),
		BorderRadiusPx: &radius, HidePoweredBy: &hide,
	}
	return c, store.SetWidgetSettings(ctx, c.ID, settings)
}

func printWelcome(w io.Writer, base string, k demoKeys, keysPath string) {
	fmt.Fprintf(w, `
leadchat is running at %[1]s

  Demo company:  %[5]s
  Company id:    %[2]s
  Public key:    %[3]s
  Private key:   %[4]s

  Demo page with the chat widget:  %[1]s/

  Dashboard:  %[1]s/app/
    email:     %[6]s
    password:  %[7]s

  Create a lead:
    curl -i -X POST %[1]s/api/v1/leads \
      -H 'Content-Type: application/json' -H 'x-api-key: %[4]s' \
      -d '{"first_name": "Kovács Péter", "email": "peter.kovacs@example.hu", "phone": "+36 30 123 4567"}'

  See the leads:
    bin/leadchat leads list --company %[2]s

  The demo keys and password are kept in plain text in %[8]s (readable by you alone),
  so that every start prints them again. make reset (leadchat dev --reset) starts the demo over.

Press Ctrl-C to stop.
`, base, k.CompanyID, k.PublicKey, k.PrivateKey, DemoCompany, DemoOwner, k.OwnerPassword, keysPath)
}
