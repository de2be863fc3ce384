package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c, err := ConfigFromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.MaxDBConns != 32 || c.DBFileReads != 0 || c.LeadBatch != 64 || c.LeadWriters != 1 || c.ShutdownGrace != 30*time.Second || !c.RateLimit ||
		c.RateLeadsPublic != 10 || c.RateLeadsPrivate != 600 || c.RateConfig != 120 || c.RateChat != 20 ||
		c.PublicURL != "http://127.0.0.1:8080" || c.AI.BaseURL != "" ||
		c.AuthFailLimit != 30 || c.RateBuckets != 100_000 || c.MaxConns != 2048 || c.SharedRateLimits ||
		fmt.Sprint(c.MetricsNetworks) != "[127.0.0.0/8 ::1/128]" {
		t.Errorf("defaults = %+v", c)
	}
}

func TestConfigHardening(t *testing.T) {
	t.Parallel()
	c, err := ConfigFromEnv(env(map[string]string{
		"LEADCHAT_AUTH_FAIL_LIMIT": "5", "LEADCHAT_RATE_BUCKETS": "5000", "LEADCHAT_MAX_CONNS": "100",
		"LEADCHAT_METRICS_ALLOWED_NETWORKS": "10.0.0.0/8, 192.0.2.7 ,2001:db8::/32",
		"LEADCHAT_RATE_LIMIT_STORE":         "postgres",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.AuthFailLimit != 5 || c.RateBuckets != 5000 || c.MaxConns != 100 || !c.SharedRateLimits ||
		fmt.Sprint(c.MetricsNetworks) != "[10.0.0.0/8 192.0.2.7/32 2001:db8::/32]" {
		t.Errorf("config = %+v", c)
	}
	c, err = ConfigFromEnv(env(map[string]string{"LEADCHAT_METRICS_ALLOWED_NETWORKS": "none"}))
	if err != nil || c.MetricsNetworks == nil || len(c.MetricsNetworks) != 0 {
		t.Errorf("none: %v, %v; want no network (not the default)", c.MetricsNetworks, err)
	}
}

func TestConfigSecretsFromFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbFile, keyFile := filepath.Join(dir, "db"), filepath.Join(dir, "key")
	_ = os.WriteFile(dbFile, []byte("postgres://x@db/leadchat\n"), 0o600)
	_ = os.WriteFile(keyFile, []byte("sk-secret\n"), 0o600)
	c, err := ConfigFromEnv(env(map[string]string{
		"DATABASE_URL_FILE": dbFile, "LEADCHAT_AI_API_KEY_FILE": keyFile,
		"LEADCHAT_AI_BASE_URL": "http://127.0.0.1:11434/v1", "LEADCHAT_AI_MODEL": "llama3",
		"LEADCHAT_RATE_LIMIT": "off", "LEADCHAT_TRUSTED_PROXIES": "10.0.0.0/8",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.DatabaseURL != "postgres://x@db/leadchat" || c.AI.APIKey != "sk-secret" || c.RateLimit {
		t.Errorf("config = %+v", c)
	}
}

func TestConfigNamesEveryBadVariable(t *testing.T) {
	t.Parallel()
	_, err := ConfigFromEnv(env(map[string]string{
		"LEADCHAT_ADDR": "nope", "LEADCHAT_DB_MAX_CONNS": "0", "LEADCHAT_SHUTDOWN_GRACE": "soon",
		"LEADCHAT_LOG_LEVEL": "loud", "LEADCHAT_RATE_LIMIT": "maybe", "LEADCHAT_RATE_CHAT": "-1",
		"LEADCHAT_TRUSTED_PROXIES": "not-an-ip", "LEADCHAT_AI_BASE_URL": "http://x", "LEADCHAT_AI_TIMEOUT": "2h",
		"LEADCHAT_PUBLIC_URL": "ftp://x", "DATABASE_URL": "a", "DATABASE_URL_FILE": "b",
		"LEADCHAT_LEAD_BATCH": "0", "LEADCHAT_LEAD_WRITERS": "many", "LEADCHAT_DB_FILE_READS": "0",
		"LEADCHAT_AUTH_FAIL_LIMIT": "0", "LEADCHAT_RATE_BUCKETS": "10", "LEADCHAT_MAX_CONNS": "lots",
		"LEADCHAT_METRICS_ALLOWED_NETWORKS": "10.0.0.0/33", "LEADCHAT_RATE_LIMIT_STORE": "redis",
	}))
	if err == nil {
		t.Fatal("a bad configuration was accepted")
	}
	for _, name := range []string{"LEADCHAT_ADDR", "LEADCHAT_DB_MAX_CONNS", "LEADCHAT_SHUTDOWN_GRACE", "LEADCHAT_LOG_LEVEL",
		"LEADCHAT_RATE_LIMIT", "LEADCHAT_RATE_CHAT", "LEADCHAT_TRUSTED_PROXIES", "LEADCHAT_AI_MODEL", "LEADCHAT_AI_TIMEOUT",
		"LEADCHAT_PUBLIC_URL", "DATABASE_URL_FILE", "LEADCHAT_LEAD_BATCH", "LEADCHAT_LEAD_WRITERS", "LEADCHAT_DB_FILE_READS",
		"LEADCHAT_AUTH_FAIL_LIMIT", "LEADCHAT_RATE_BUCKETS", "LEADCHAT_MAX_CONNS", "LEADCHAT_METRICS_ALLOWED_NETWORKS",
		"LEADCHAT_RATE_LIMIT_STORE"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the error does not name %s: %v", name, err)
		}
	}
}

func TestConfigDBFileReads(t *testing.T) {
	t.Parallel()
	c, err := ConfigFromEnv(env(map[string]string{"LEADCHAT_DB_FILE_READS": "3"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.DBFileReads != 3 {
		t.Errorf("DBFileReads = %d, want 3", c.DBFileReads)
	}
}
