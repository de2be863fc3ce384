package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// TestMain runs the tests, or, in a child process that a test started with childEnv set, the
// program itself (main), so that a test can measure it as a process of its own.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
		os.Exit(0)
	}
	pgtest.Main(m)
}

// childEnv, set to 1, makes the test binary run leadchat's main.
const childEnv = "LEADCHAT_TEST_RUN_MAIN"

// cli runs leadchat in process against one database.
type cli struct {
	t   *testing.T
	dsn string
	in  string // standard input
}

func (c cli) stdin() io.Reader { return strings.NewReader(c.in) }

func (c cli) run(args ...string) (string, error) {
	c.t.Helper()
	out, _, err := c.exec(args...)
	return out, err
}

// exec runs leadchat and returns what it wrote to stdout and to stderr.
func (c cli) exec(args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	getenv := func(k string) string {
		if k == "DATABASE_URL" {
			return c.dsn
		}
		return ""
	}
	err = run(context.Background(), args, getenv, c.stdin(), &out, &errOut)
	return out.String(), errOut.String(), err
}

func (c cli) json(v any, args ...string) {
	c.t.Helper()
	out, err := c.run(args...)
	if err != nil {
		c.t.Fatalf("leadchat %s: %v", strings.Join(args, " "), err)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		c.t.Fatalf("leadchat %s printed no JSON: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func TestAdminCommands(t *testing.T) {
	t.Parallel()
	c := cli{t: t, dsn: pgtest.NewDSN(t)}
	if _, err := c.run("migrate"); err != nil {
		t.Fatal(err)
	}

	var company struct {
		ID        string `json:"id"`
		Plan      string `json:"plan"`
		LeadLimit *int   `json:"lead_limit"`
	}
	c.json(&company, "company", "create", "--name", "Teszt Kft.", "--plan", "pro", "--lead-limit", "3", "--json")
	if company.ID == "" || company.Plan != "pro" || company.LeadLimit == nil || *company.LeadLimit != 3 {
		t.Fatalf("company = %+v", company)
	}
	var unlimited struct {
		LeadLimit *int `json:"lead_limit"`
	}
	c.json(&unlimited, "company", "create", "--name", "Nagy Zrt.", "--plan", "free", "--lead-limit", "none", "--json")
	if unlimited.LeadLimit != nil {
		t.Errorf("--lead-limit none gave limit %d", *unlimited.LeadLimit)
	}

	var pub, priv struct {
		ID             string   `json:"id"`
		Key            string   `json:"key"`
		Kind           string   `json:"kind"`
		Prefix         string   `json:"prefix"`
		AllowedDomains []string `json:"allowed_domains"`
		HostnameCheck  bool     `json:"hostname_check"`
	}
	c.json(&pub, "key", "create", "--company", company.ID, "--kind", "public", "--domain", "Example.HU", "--domain", "*.shop.example.com", "--json")
	c.json(&priv, "key", "create", "--company", company.ID, "--kind", "private", "--json")
	if !strings.HasPrefix(pub.Key, "lc_pub_") || !strings.HasPrefix(priv.Key, "lc_priv_") || pub.Kind != "public" {
		t.Errorf("keys = %+v, %+v", pub, priv)
	}
	if strings.Join(pub.AllowedDomains, ",") != "example.hu,*.shop.example.com" || !pub.HostnameCheck {
		t.Errorf("domains = %v, check %v", pub.AllowedDomains, pub.HostnameCheck)
	}

	var keys []map[string]any
	c.json(&keys, "key", "list", "--company", company.ID, "--json")
	if len(keys) != 2 {
		t.Fatalf("key list = %v", keys)
	}
	for _, k := range keys {
		if _, has := k["key"]; has {
			t.Error("key list shows a key")
		}
	}
	text, err := c.run("key", "list", "--company", company.ID)
	if err != nil || !strings.Contains(text, pub.Prefix) || strings.Contains(text, pub.Key) {
		t.Errorf("key list text: %v\n%s", err, text)
	}

	var revoked struct {
		RevokedAt *string `json:"revoked_at"`
	}
	c.json(&revoked, "key", "revoke", "--key-id", priv.ID, "--json")
	if revoked.RevokedAt == nil {
		t.Error("revoke printed no revoked_at")
	}

	var cfg map[string]any
	c.json(&cfg, "widget", "set", "--company", company.ID, "--primary-hex", "#0a7c66", "--accent-hex", "#ffffff",
		"--quick-button", "Ár", "--quick-button", "Hívjanak", "--gate-quote", "--require-phone", "--json")
	theme, _ := cfg["chat_theme"].(map[string]any)
	if theme["primary_hex"] != "#0A7C66" || theme["accent_hex"] != nil || cfg["gate_quote"] != true {
		t.Errorf("widget set on pro = %v (accent is business only)", cfg)
	}
	_, stderr, err := c.exec("widget", "set", "--company", company.ID, "--accent-hex", "#ffffff", "--header-title", "Szia",
		"--primary-hex", "#0a7c66", "--language", "auto")
	if err != nil || !strings.Contains(stderr, "plan pro does not show --accent-hex, --header-title;") || strings.Contains(stderr, "primary") {
		t.Errorf("widget set of business-only settings on pro: %v, stderr %q", err, stderr)
	}
	c.json(&cfg, "widget", "set", "--company", company.ID, "--gate-quote=false", "--json")
	if cfg["gate_quote"] != false || cfg["require_phone"] != true || len(cfg["quick_buttons"].([]any)) != 2 {
		t.Errorf("a second widget set lost earlier settings: %v", cfg)
	}
	if cfg["privacy_url"] != nil || cfg["marketing_consent_text"] != nil {
		t.Errorf("privacy settings before any were set: %v", cfg)
	}
	c.json(&cfg, "widget", "set", "--company", company.ID, "--privacy-url", "https://ceg.example/adatvedelem",
		"--marketing-consent-text", "Kérek híreket.", "--json")
	if cfg["privacy_url"] != "https://ceg.example/adatvedelem" || cfg["marketing_consent_text"] != "Kérek híreket." || cfg["gate_quote"] != false {
		t.Errorf("widget set of the privacy settings = %v", cfg)
	}
	c.json(&cfg, "widget", "set", "--company", company.ID, "--privacy-url=", "--json")
	if cfg["privacy_url"] != nil || cfg["marketing_consent_text"] != "Kérek híreket." {
		t.Errorf("an empty --privacy-url should unset only it: %v", cfg)
	}
	c.json(&cfg, "widget", "set", "--company", company.ID, "--marketing-consent-text", "", "--json")
	if cfg["marketing_consent_text"] != nil {
		t.Errorf("an empty --marketing-consent-text should unset it: %v", cfg)
	}

	profile := filepath.Join(t.TempDir(), "profile.yaml")
	if err := os.WriteFile(profile, []byte("company_name: Teszt Kft.\ndescription: Bútorfelújítás.\nopening_hours: H–P 8–16\nfaq:\n  - question: Mennyi a garancia?\n    answer: Két év.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := c.run("assistant", "set", "--company", company.ID, "--profile", profile); err != nil || !strings.Contains(out, "1 FAQ") {
		t.Errorf("assistant set: %v\n%s", err, out)
	}
	badProfile := filepath.Join(t.TempDir(), "bad.yaml")
	_ = os.WriteFile(badProfile, []byte("company_nam: typo\n"), 0o600)

	for _, tt := range []struct {
		name string
		args []string
	}{
		{"profile with an unknown field", []string{"assistant", "set", "--company", company.ID, "--profile", badProfile}},
		{"missing profile file", []string{"assistant", "set", "--company", company.ID, "--profile", "/nonexistent.yaml"}},
		{"bad plan", []string{"company", "create", "--name", "X", "--plan", "gold"}},
		{"bad limit", []string{"company", "create", "--name", "X", "--plan", "free", "--lead-limit", "-1"}},
		{"bad kind", []string{"key", "create", "--company", company.ID, "--kind", "secret"}},
		{"bad domain", []string{"key", "create", "--company", company.ID, "--kind", "public", "--domain", "https://x.hu/"}},
		{"domain on a private key", []string{"key", "create", "--company", company.ID, "--kind", "private", "--domain", "x.hu"}},
		{"unknown company", []string{"leads", "list", "--company", "00000000-0000-0000-0000-000000000000"}},
		{"bad colour", []string{"widget", "set", "--company", company.ID, "--primary-hex", "zöld"}},
		{"radius out of range", []string{"widget", "set", "--company", company.ID, "--border-radius", "40"}},
		{"unknown command", []string{"lead", "list"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := c.run(tt.args...); err == nil {
				t.Errorf("leadchat %s succeeded, want an error", strings.Join(tt.args, " "))
			}
		})
	}

	// A lead through the API, then listed.
	h := newServer(t, c.dsn)
	req, _ := http.NewRequest("POST", "/api/v1/leads", strings.NewReader(
		`{"first_name": "Kovács Péter", "email": "p@example.hu", "details": "Tető 120 m²", "referral_data": {"utm_source": "google"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://www.shop.example.com")
	req.Header.Set("X-Api-Key", pub.Key)
	if code := h(req); code != 201 {
		t.Fatalf("create lead: %d", code)
	}
	var leads []map[string]any
	c.json(&leads, "leads", "list", "--company", company.ID, "--json")
	if len(leads) != 1 {
		t.Fatalf("leads = %v", leads)
	}
	l := leads[0]
	for _, f := range []string{"lead_id", "first_name", "last_name", "email", "phone", "service", "details", "source", "referral_data", "status", "created_at"} {
		if _, ok := l[f]; !ok {
			t.Errorf("leads list --json lacks %s", f)
		}
	}
	if l["last_name"] != nil || l["details"].(map[string]any)["note"] != "Tető 120 m²" || l["referral_data"].(map[string]any)["utm_source"] != "google" {
		t.Errorf("lead = %v", l)
	}
	out, err := c.run("leads", "list", "--company", company.ID, "--csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(out, "\uFEFF"))).ReadAll()
	if err != nil || len(rows) != 2 || rows[0][0] != "id" || rows[1][3] != "p@example.hu" {
		t.Errorf("csv = %v, %v", rows, err)
	}

	// A person's request: everything held on them, the company's notes included, then erased.
	var seller struct {
		ID string `json:"id"`
	}
	c.json(&seller, "user", "create", "--company", company.ID, "--email", "ertekesito@example.com", "--role", "member", "--json")
	store, err := postgres.Open(context.Background(), c.dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.AddLeadNote(context.Background(), uuid.MustParse(company.ID), uuid.MustParse(l["lead_id"].(string)),
		uuid.MustParse(seller.ID), "Holnap visszahívni."); err != nil {
		t.Fatal(err)
	}
	var export struct {
		Email string
		Leads []struct {
			Lead     map[string]any
			Messages []any
			History  []map[string]any
			Notes    []map[string]any
		}
	}
	c.json(&export, "leads", "export", "--company", company.ID, "--email", "P@Example.hu")
	if len(export.Leads) != 1 || export.Leads[0].Lead["email"] != "p@example.hu" || export.Leads[0].Lead["first_name"] != "Kovács Péter" ||
		export.Leads[0].Messages == nil || export.Leads[0].History == nil || len(export.Leads[0].Notes) != 1 ||
		export.Leads[0].Notes[0]["text"] != "Holnap visszahívni." || export.Leads[0].Notes[0]["author"] != "ertekesito@example.com" {
		t.Errorf("leads export = %+v", export)
	}
	var erased map[string]int
	c.json(&erased, "leads", "erase", "--company", company.ID, "--email", "p@EXAMPLE.hu", "--json")
	if erased["erased"] != 1 {
		t.Errorf("leads erase = %v, want 1 erased", erased)
	}
	c.json(&erased, "leads", "erase", "--company", company.ID, "--lead", l["lead_id"].(string), "--json")
	if erased["erased"] != 0 {
		t.Errorf("erasing the erased lead again = %v, want 0", erased)
	}
	c.json(&leads, "leads", "list", "--company", company.ID, "--json")
	c.json(&export, "leads", "export", "--company", company.ID, "--email", "p@example.hu")
	if len(leads) != 0 || len(export.Leads) != 0 {
		t.Errorf("after the erasure: list %v, export %+v", leads, export)
	}
	if out, err := c.run("leads", "erase", "--company", company.ID, "--email", "p@example.hu", "--lead", l["lead_id"].(string)); err == nil {
		t.Errorf("leads erase with both --email and --lead: %q, want an error", out)
	}
}

// A serving process gets the default soft memory limit, unless GOMEMLIMIT set one.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(math.MaxInt64)
	limitMemory(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got != defaultMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, defaultMemoryLimit)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	limitMemory(func(name string) string { return map[string]string{"GOMEMLIMIT": "1GiB"}[name] })
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the limit became %d; want it left to the runtime", got)
	}
}
