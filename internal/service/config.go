// Package service is the running leadchat service: its configuration from the environment and
// its lifecycle (database, migrations, caches, HTTP server, graceful shutdown).
package service

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/leadchat/leadchat/internal/httpapi"
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
	// DBFileReads is how many lead pages' reads run at once, the others waiting their turn
	// (LEADCHAT_DB_FILE_READS, default 0: postgres.Options.FileReads's default).
	DBFileReads int
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
	// AuthFailLimit is how many failed authentications a minute one client IP may have before
	// it is refused with 429 (LEADCHAT_AUTH_FAIL_LIMIT, default 30; 0 here means the default).
	// It is a rate limit, so LEADCHAT_RATE_LIMIT=off turns it off too.
	AuthFailLimit int
	// RateBuckets bounds the rate limiters' table of buckets, all limits together
	// (LEADCHAT_RATE_BUCKETS, default ratelimit.DefaultBuckets; 0 here means the default).
	RateBuckets int
	// SharedRateLimits keeps the buckets in PostgreSQL, where every instance shares them
	// (LEADCHAT_RATE_LIMIT_STORE=postgres; default memory, each instance its own).
	SharedRateLimits bool
	// MetricsNetworks are the client networks /metrics answers, by the same client address as
	// the rate limits (LEADCHAT_METRICS_ALLOWED_NETWORKS, comma-separated CIDR ranges or
	// addresses, default DefaultMetricsNetworks; "none" answers nobody; nil here means the
	// default).
	MetricsNetworks []netip.Prefix
	// MaxConns caps the open HTTP connections; past it new ones wait to be accepted
	// (LEADCHAT_MAX_CONNS, default DefaultMaxConns; 0 here means the default).
	MaxConns int
	// Events is how lead events leave: webhooks and e-mail (eventsconfig.go).
	Events EventsConfig
	// WriteTimeout bounds the writing of a response (the dashboard's export clears it for its
	// own), RequestTimeout a request's work; set in code only (tests shorten them), 0 means
	// DefaultWriteTimeout and httpapi.DefaultRequestTimeout.
	WriteTimeout, RequestTimeout time.Duration
	// Deadline makes each request's deadline context, given the time left until the deadline
	// (RequestTimeout from the request's start), when the request first waits on it; nil is
	// context.WithDeadline. Set in code only: a test passes one that follows a clock it moves.
	Deadline func(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc)
	// StreamPing is how often an idle chat stream or dashboard feed sends a comment; 0 is 25 s.
	// Tests shorten it; there is no variable for it.
	StreamPing time.Duration
	// Contract is the API's loaded contract; nil loads it at Open. Set in code only: tests that
	// open many services load it once (httpapi.LoadContract) and share it.
	Contract *httpapi.Contract
}

// Defaults of the hardening settings, also taken when a Config built in code leaves them zero.
const (
	DefaultAuthFailLimit   = 30
	DefaultMaxConns        = 2048
	DefaultMetricsNetworks = "127.0.0.0/8,::1/128"
	DefaultWriteTimeout    = 30 * time.Second
)

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
		AuthFailLimit: DefaultAuthFailLimit, RateBuckets: ratelimit.DefaultBuckets, MaxConns: DefaultMaxConns,
		LeadBatch: postgres.DefaultLeadBatch, LeadWriters: postgres.DefaultLeadWriters}
	var problems []string
	switch v := getenv("LEADCHAT_RATE_LIMIT"); v {
	case "", "on":
	case "off":
		c.RateLimit = false
	default:
		problems = append(problems, fmt.Sprintf("LEADCHAT_RATE_LIMIT=%q: want on or off", v))
	}
	switch v := getenv("LEADCHAT_RATE_LIMIT_STORE"); v {
	case "", "memory":
	case "postgres":
		c.SharedRateLimits = true
	default:
		problems = append(problems, fmt.Sprintf("LEADCHAT_RATE_LIMIT_STORE=%q: want memory or postgres", v))
	}
	for name, dst := range map[string]*int{
		"LEADCHAT_RATE_LEADS_PUBLIC": &c.RateLeadsPublic, "LEADCHAT_RATE_LEADS_PRIVATE": &c.RateLeadsPrivate,
		"LEADCHAT_RATE_CONFIG": &c.RateConfig, "LEADCHAT_RATE_CHAT": &c.RateChat,
		"LEADCHAT_AUTH_FAIL_LIMIT": &c.AuthFailLimit,
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
	var err error
	if c.MetricsNetworks, err = metricsNetworks(getenv("LEADCHAT_METRICS_ALLOWED_NETWORKS")); err != nil {
		problems = append(problems, "LEADCHAT_METRICS_ALLOWED_NETWORKS: "+err.Error())
	}
	if v := getenv("LEADCHAT_ADDR"); v != "" {
		if _, _, err := net.SplitHostPort(v); err != nil {
			problems = append(problems, fmt.Sprintf("LEADCHAT_ADDR=%q is not host:port", v))
		}
		c.Addr = v
	}
	if c.DatabaseURL, err = secret(getenv, "DATABASE_URL"); err != nil {
		problems = append(problems, err.Error())
	}
	for _, p := range []struct {
		name     string
		dst      *int
		min, max int
	}{
		{"LEADCHAT_DB_MAX_CONNS", &c.MaxDBConns, 2, 1000},
		{"LEADCHAT_DB_FILE_READS", &c.DBFileReads, 1, 1000},
		{"LEADCHAT_LEAD_BATCH", &c.LeadBatch, 1, 1000},
		{"LEADCHAT_LEAD_WRITERS", &c.LeadWriters, 1, 64},
		{"LEADCHAT_MAX_CONNS", &c.MaxConns, 1, 1_000_000},
		{"LEADCHAT_RATE_BUCKETS", &c.RateBuckets, 1000, 100_000_000},
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

// metricsNetworks parses LEADCHAT_METRICS_ALLOWED_NETWORKS: empty is the default, "none" no
// network at all.
func metricsNetworks(v string) ([]netip.Prefix, error) {
	switch strings.TrimSpace(v) {
	case "":
		v = DefaultMetricsNetworks
	case "none":
		return []netip.Prefix{}, nil
	}
	p, err := ratelimit.ParseNetworks(v)
	if err == nil && len(p) == 0 {
		err = fmt.Errorf("%q names no network; say none to refuse every client", v)
	}
	return p, err
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
