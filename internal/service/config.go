// Package service is the running leadchat service: its configuration from the environment and
// its lifecycle (database, migrations, caches, HTTP server, graceful shutdown).
package service

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/ratelimit"
)

// Config is everything the service reads from its environment.
type Config struct {
	// Addr is where HTTP is served (LEADCHAT_ADDR, default 127.0.0.1:8080).
	Addr string
	// DatabaseURL is the PostgreSQL DSN (DATABASE_URL, or a file named by DATABASE_URL_FILE).
	DatabaseURL string
	// MaxDBConns bounds the connection pool (LEADCHAT_DB_MAX_CONNS, default 32).
	MaxDBConns int
	// LeadBatch is the most lead creates stored in one transaction (LEADCHAT_LEAD_BATCH, default
	// postgres.DefaultLeadBatch; 1 stores each alone); LeadWriters how many such groups are
	// stored at once (LEADCHAT_LEAD_WRITERS, default postgres.DefaultLeadWriters).
	LeadBatch, LeadWriters int
	// ShutdownGrace is how long in-flight requests may finish after SIGTERM
	// (LEADCHAT_SHUTDOWN_GRACE, default 30s).
	ShutdownGrace time.Duration
	// LogLevel is debug, info, warn or error (LEADCHAT_LOG_LEVEL, default info).
	LogLevel slog.Level
	// PublicURL is the address browsers reach the service at, used in the embed snippet and the
	// demo page (LEADCHAT_PUBLIC_URL, default http://<Addr>).
	PublicURL string
	// AI configures an OpenAI-compatible model (LEADCHAT_AI_BASE_URL, LEADCHAT_AI_API_KEY or
	// LEADCHAT_AI_API_KEY_FILE, LEADCHAT_AI_MODEL, LEADCHAT_AI_TIMEOUT default 10s); without a
	// base URL the built-in assistant answers.
	AI AIConfig
	// RateLimit turns every rate limit off when false (LEADCHAT_RATE_LIMIT=off).
	RateLimit bool
	// Per-minute limits (LEADCHAT_RATE_LEADS_PUBLIC 10 per client IP and key,
	// LEADCHAT_RATE_LEADS_PRIVATE 600 per key, LEADCHAT_RATE_CONFIG 120 and
	// LEADCHAT_RATE_CHAT 20 per client IP).
	RateLeadsPublic, RateLeadsPrivate, RateConfig, RateChat int
	// TrustedProxies lists the proxies whose X-Forwarded-For is believed
	// (LEADCHAT_TRUSTED_PROXIES, comma-separated addresses or CIDR ranges; default none).
	TrustedProxies string
	// Events is how lead events leave: webhooks and e-mail (eventsconfig.go).
	Events EventsConfig
}

// AIConfig is the optional model's configuration.
type AIConfig struct {
	BaseURL string
	APIKey  string
	Model   string
	Timeout time.Duration
}

// ConfigFromEnv reads and checks the configuration, naming every bad variable at once.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{Addr: "127.0.0.1:8080", MaxDBConns: 32, ShutdownGrace: 30 * time.Second, RateLimit: true,
		RateLeadsPublic: 10, RateLeadsPrivate: 600, RateConfig: 120, RateChat: 20,
		LeadBatch: postgres.DefaultLeadBatch, LeadWriters: postgres.DefaultLeadWriters}
	var problems []string
	switch v := getenv("LEADCHAT_RATE_LIMIT"); v {
	case "", "on":
	case "off":
		c.RateLimit = false
	default:
		problems = append(problems, fmt.Sprintf("LEADCHAT_RATE_LIMIT=%q: want on or off", v))
	}
	for name, dst := range map[string]*int{
		"LEADCHAT_RATE_LEADS_PUBLIC": &c.RateLeadsPublic, "LEADCHAT_RATE_LEADS_PRIVATE": &c.RateLeadsPrivate,
		"LEADCHAT_RATE_CONFIG": &c.RateConfig, "LEADCHAT_RATE_CHAT": &c.RateChat,
	} {
		if v := getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1_000_000 {
				problems = append(problems, fmt.Sprintf("%s=%q: want requests per minute, 1 to 1000000", name, v))
			}
			*dst = n
		}
	}
	c.TrustedProxies = getenv("LEADCHAT_TRUSTED_PROXIES")
	if _, err := ratelimit.NewClientIP(c.TrustedProxies); err != nil {
		problems = append(problems, "LEADCHAT_TRUSTED_PROXIES: "+err.Error())
	}
	if v := getenv("LEADCHAT_ADDR"); v != "" {
		if _, _, err := net.SplitHostPort(v); err != nil {
			problems = append(problems, fmt.Sprintf("LEADCHAT_ADDR=%q is not host:port", v))
		}
		c.Addr = v
	}
	var err error
	if c.DatabaseURL, err = secret(getenv, "DATABASE_URL"); err != nil {
		problems = append(problems, err.Error())
	}
	for _, p := range []struct {
		name     string
		dst      *int
		min, max int
	}{
		{"LEADCHAT_DB_MAX_CONNS", &c.MaxDBConns, 2, 1000},
		{"LEADCHAT_LEAD_BATCH", &c.LeadBatch, 1, 1000},
		{"LEADCHAT_LEAD_WRITERS", &c.LeadWriters, 1, 64},
	} {
		if v := getenv(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < p.min || n > p.max {
				problems = append(problems, fmt.Sprintf("%s=%q: want a number from %d to %d", p.name, v, p.min, p.max))
			}
			*p.dst = n
		}
	}
	if v := getenv("LEADCHAT_SHUTDOWN_GRACE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			problems = append(problems, fmt.Sprintf("LEADCHAT_SHUTDOWN_GRACE=%q: want a duration of at least 1s, like 30s", v))
		}
		c.ShutdownGrace = d
	}
	if v := getenv("LEADCHAT_LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			problems = append(problems, fmt.Sprintf("LEADCHAT_LOG_LEVEL=%q: want debug, info, warn or error", v))
		}
	}
	c.AI = AIConfig{BaseURL: getenv("LEADCHAT_AI_BASE_URL"), Model: getenv("LEADCHAT_AI_MODEL"), Timeout: 10 * time.Second}
	if c.AI.APIKey, err = secret(getenv, "LEADCHAT_AI_API_KEY"); err != nil {
		problems = append(problems, err.Error())
	}
	if v := getenv("LEADCHAT_AI_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 100*time.Millisecond || d > time.Minute {
			problems = append(problems, fmt.Sprintf("LEADCHAT_AI_TIMEOUT=%q: want a duration from 100ms to 1m", v))
		}
		c.AI.Timeout = d
	}
	if c.AI.BaseURL != "" && c.AI.Model == "" {
		problems = append(problems, "LEADCHAT_AI_BASE_URL is set but LEADCHAT_AI_MODEL is not")
	}
	c.PublicURL = strings.TrimRight(getenv("LEADCHAT_PUBLIC_URL"), "/")
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.Addr
	} else if !strings.HasPrefix(c.PublicURL, "http://") && !strings.HasPrefix(c.PublicURL, "https://") {
		problems = append(problems, fmt.Sprintf("LEADCHAT_PUBLIC_URL=%q: want an http:// or https:// address", c.PublicURL))
	}
	var eventProblems []string
	c.Events, eventProblems = eventsFromEnv(getenv)
	problems = append(problems, eventProblems...)
	if len(problems) > 0 {
		return Config{}, fmt.Errorf("configuration: %s", strings.Join(problems, "; "))
	}
	return c, nil
}

// secret reads NAME, or the file named by NAME_FILE (trailing newline trimmed).
func secret(getenv func(string) string, name string) (string, error) {
	v, file := getenv(name), getenv(name+"_FILE")
	if v != "" && file != "" {
		return "", fmt.Errorf("set %s or %s_FILE, not both", name, name)
	}
	if file == "" {
		return v, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("%s_FILE: %w", name, err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}
