package service

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"

	apispec "github.com/leadchat/leadchat/api"
	"github.com/leadchat/leadchat/internal/apidocs"
	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/assistant/openai"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/cache"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/delivery"
	"github.com/leadchat/leadchat/internal/exepages"
	"github.com/leadchat/leadchat/internal/httpapi"
	"github.com/leadchat/leadchat/internal/insight"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/live"
	leadmail "github.com/leadchat/leadchat/internal/mail"
	"github.com/leadchat/leadchat/internal/metrics"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/ratelimit"
	"github.com/leadchat/leadchat/internal/web"
	"github.com/leadchat/leadchat/internal/webhook"
	"github.com/leadchat/leadchat/internal/widget"
)

// Service is a configured leadchat, ready to serve.
type Service struct {
	cfg      Config
	log      *slog.Logger
	store    *postgres.Store
	sessions *postgres.SessionStore
	keys     *auth.Keyring
	caches   cache.Group
	hub      *live.Hub
	live     *chat.Live
	http     http.Handler
	// deliveries sends lead events (webhooks, e-mail) over small pools of its own: jobsDB
	// for River, workStore for the dispatches' and attempts' statements.
	deliveries *delivery.Runner
	jobsDB     io.Closer
	workStore  io.Closer
	// tally adds up the widget's funnel events and writes them once a second.
	tally *insight.Tally
}

// Open connects to the database, applies pending migrations and builds the HTTP handler.
// extra mounts more GET handlers by path (the demo page of `leadchat dev`).
func Open(ctx context.Context, cfg Config, logOut io.Writer, extra map[string]http.Handler) (*Service, error) {
	if cfg.DatabaseURL == "" {
		return nil, errors.New("DATABASE_URL is not set (use `leadchat dev` for a local database)")
	}
	log := slog.New(slog.NewJSONHandler(logOut, &slog.HandlerOptions{Level: cfg.LogLevel}))
	store, err := postgres.Open(ctx, cfg.DatabaseURL, postgres.Options{MaxOpenConns: cfg.MaxDBConns, FileReads: cfg.DBFileReads,
		LeadBatch: cfg.LeadBatch, LeadWriters: cfg.LeadWriters})
	if err != nil {
		return nil, err
	}
	if err := postgres.Migrate(ctx, store.DB(), io.Discard); err != nil {
		store.Close()
		return nil, err
	}
	if err := store.Prepare(ctx); err != nil {
		store.Close()
		return nil, err
	}
	keys := auth.NewKeyring(store)
	configs := widget.NewConfigs(store)
	var model assistant.Assistant
	if cfg.AI.BaseURL != "" {
		m, err := openai.New(openai.Config{BaseURL: cfg.AI.BaseURL, APIKey: cfg.AI.APIKey, Model: cfg.AI.Model, Timeout: cfg.AI.Timeout})
		if err != nil {
			store.Close()
			return nil, fmt.Errorf("LEADCHAT_AI_*: %w", err)
		}
		model = m
	}
	m := metrics.New()
	chats := chat.New(store, configs, model)
	conversations := chat.NewLive(store, nil)
	hub := live.NewHub()
	ips, err := ratelimit.NewClientIP(cfg.TrustedProxies)
	if err != nil {
		store.Close()
		return nil, err
	}
	var limits *httpapi.Limits
	if cfg.RateLimit {
		rates := httpapi.Rates{
			LeadsPublic: cfg.RateLeadsPublic, LeadsPrivate: cfg.RateLeadsPrivate, Config: cfg.RateConfig, Chat: cfg.RateChat,
			AuthFailures: cmp.Or(cfg.AuthFailLimit, DefaultAuthFailLimit), Buckets: cmp.Or(cfg.RateBuckets, ratelimit.DefaultBuckets),
		}
		if cfg.SharedRateLimits {
			rates.Shared = store
		}
		limits = httpapi.NewLimits(rates)
	}
	metricsNets := cfg.MetricsNetworks
	if metricsNets == nil {
		if metricsNets, err = metricsNetworks(""); err != nil {
			store.Close()
			return nil, err
		}
	}
	docs := apidocs.Handler(apispec.YAML(), apispec.DocsHTML())
	static := map[string]http.Handler{
		"/embed.js":      httpapi.ScriptHandler(),
		apidocs.SpecPath: docs,
		apidocs.DocsPath: docs,
	}
	for path, h := range extra {
		static[path] = h
	}
	deviceSecret, err := store.ServerSecret(ctx, "device_cookie")
	if err != nil {
		store.Close()
		return nil, err
	}
	sessions := store.SessionStore(5 * time.Minute)
	webCfg := web.Config{Store: store, Sessions: sessions, PublicURL: cfg.PublicURL,
		AllowPrivateWebhooks: cfg.Events.AllowPrivate, Log: log, ClientIP: ips, DeviceSecret: deviceSecret,
		Live: conversations, Hub: hub, StreamPing: cfg.StreamPing}
	if cfg.Events.SMTP != nil {
		webCfg.Invitations = leadmail.NewSender(*cfg.Events.SMTP, cfg.Events.MailFrom, cfg.PublicURL)
	}
	dashboard := web.New(webCfg)
	tally := insight.NewTally(store)
	h, err := httpapi.New(httpapi.Config{
		Keys: keys, Leads: store, Configs: configs, Chat: chats, Log: log, Static: static,
		Metrics: m, MetricsNetworks: metricsNets, Limits: limits, ClientIP: ips, Ready: store.Ready, Dashboard: dashboard,
		RequestTimeout: cfg.RequestTimeout, Deadline: cfg.Deadline, Live: conversations, Hub: hub, StreamPing: cfg.StreamPing,
		WidgetEvents: tally, Contract: cfg.Contract,
	})
	if err != nil {
		sessions.StopCleanup()
		store.Close()
		return nil, err
	}
	svc := &Service{cfg: cfg, log: log, store: store, tally: tally, sessions: sessions, keys: keys, caches: cache.Group{keys.Cache(), configs.Cache(), chats.Cache(), store.TeamCache()}, http: h,
		hub: hub, live: conversations}
	if err := svc.openDeliveries(ctx); err != nil {
		store.Close()
		return nil, err
	}
	return svc, nil
}

// openDeliveries builds the workers that deliver lead events, unless this instance makes none;
// Serve runs them.
func (s *Service) openDeliveries(ctx context.Context) error {
	ev := s.cfg.Events
	if ev.RecordOnly {
		return nil
	}
	db, err := postgres.OpenPlain(s.cfg.DatabaseURL, 8)
	if err != nil {
		return err
	}
	// The deliveries' coordination and records need not wait for the disk at each commit
	// (delivery.Config.Work); the rest (erasure, e-mail counts) stays on the main store.
	work, err := postgres.Open(ctx, s.cfg.DatabaseURL, postgres.Options{MaxOpenConns: 8, AsyncCommit: true})
	if err != nil {
		db.Close()
		return err
	}
	dc := delivery.Config{DB: db, Store: s.store, Work: work, Webhooks: webhook.NewSender(webhook.Options{AllowPrivate: ev.AllowPrivate}),
		Schedule: ev.Retry, Workers: ev.Workers, InFlight: ev.PerCompany, Log: s.log}
	if ev.SMTP != nil {
		sender := leadmail.NewSender(*ev.SMTP, ev.MailFrom, s.cfg.PublicURL)
		dc.Mail, dc.Notices = sender, sender
	}
	r, err := delivery.New(dc)
	if err != nil {
		work.Close()
		db.Close()
		return err
	}
	s.deliveries, s.jobsDB, s.workStore = r, db, work
	return nil
}

// Handler is the service's HTTP handler.
func (s *Service) Handler() http.Handler { return s.http }

// Store is the service's database store.
func (s *Service) Store() *postgres.Store { return s.store }

// Close stops the session cleanup and the deliveries' pool, and releases the database.
func (s *Service) Close() error {
	s.sessions.StopCleanup()
	if s.jobsDB != nil {
		s.jobsDB.Close()
		s.workStore.Close()
	}
	return s.store.Close()
}

// Serve serves HTTP on ln until ctx ends, then stops accepting, lets in-flight requests finish
// within the grace period and returns. It also runs the cache listener and housekeeping.
func (s *Service) Serve(ctx context.Context, ln net.Listener) error {
	bg, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBG()
	go func() {
		for bg.Err() == nil {
			if err := s.store.Listen(bg, s.caches, s.hub); err != nil {
				s.log.Warn("cache listener stopped", "err", err.Error())
				select {
				case <-bg.Done():
				case <-time.After(time.Second):
				}
			}
		}
	}()
	go s.housekeeping(bg)
	go s.resumeWaiting(bg)
	go s.tally.Run(bg, time.Second, func(err error) { s.log.Warn("writing widget events", "err", err.Error()) })
	if s.deliveries != nil {
		if err := s.deliveries.Start(bg); err != nil {
			return fmt.Errorf("starting the delivery workers: %w", err)
		}
		defer s.stopDeliveries()
	}

	srv := &http.Server{
		Handler:           s.http,
		ReadHeaderTimeout: HeaderTimeout,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      cmp.Or(s.cfg.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:       120 * time.Second,
		// httpapi answers headers over limits.HeaderBytes with its JSON 431; the server
		// itself reads no more than this.
		MaxHeaderBytes: limits.ServerHeaderBytes,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	// Streams wait for news, not for the shutdown: they end when it starts.
	srv.RegisterOnShutdown(s.hub.Close)
	// Past the cap a connection waits in the kernel's backlog until one closes, rather than
	// being refused: a burst is slowed, not failed.
	ln = netutil.LimitListener(ln, cmp.Or(s.cfg.MaxConns, DefaultMaxConns))
	// Starting read much of the binary that serving never reads again (init, migrations, the
	// embedded data's tables: about 15 MiB resident); it leaves the resident memory, and
	// serving reads back what it needs.
	if r, err := exepages.Release(); err != nil {
		s.log.Warn("releasing the binary's pages", "err", err.Error())
	} else {
		s.log.Debug("released the binary's pages", "mappings", r.Mappings, "bytes", r.Bytes)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	s.log.Info("serving", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}
	s.log.Info("shutting down", "grace", s.cfg.ShutdownGrace.String())
	shutCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	// The events counted since the last flush are written before the database is closed.
	if err := s.tally.Flush(shutCtx); err != nil {
		s.log.Warn("writing widget events", "err", err.Error())
	}
	return nil
}

// HeaderTimeout is how long a connection may take to send a request's line and headers, from
// its first byte (or, on a new connection, from its opening). A client sending headers slowly
// holds what it has sent until then, up to limits.ServerHeaderBytes: at the 10 KiB a second of
// `make hostile`'s slow connections that was 50 KiB each with 5 s, 20 KiB with this. A browser
// or proxy sends its headers at once.
const HeaderTimeout = 2 * time.Second

// stopDeliveries lets the attempts in hand finish within the shutdown grace; the rest are
// tried again later, by this instance or another.
func (s *Service) stopDeliveries() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace)
	defer cancel()
	if err := s.deliveries.Stop(ctx); err != nil {
		s.log.Warn("stopping the delivery workers", "err", err.Error())
	}
}

// housekeeping deletes idempotency keys past their 24 hours, hourly, and with shared rate
// limits the buckets untouched for a minute, every minute. Every instance does it; a second
// delete of the same rows finds none.
func (s *Service) housekeeping(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for i := 0; ; i++ {
		if i%60 == 0 {
			s.purge(ctx, "idempotency keys", slog.LevelInfo, s.store.PurgeIdempotencyKeys)
		}
		if s.cfg.RateLimit && s.cfg.SharedRateLimits {
			s.purge(ctx, "rate-limit buckets", slog.LevelDebug, s.store.PurgeRateBuckets)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// resumeWaiting gives conversations whose visitor waited too long for a person back to the
// assistant, every 15 seconds. Every instance does it; a conversation is given back once.
func (s *Service) resumeWaiting(ctx context.Context) {
	t := time.NewTicker(15 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.purge(ctx, "waiting conversations", slog.LevelInfo, func(ctx context.Context) (int64, error) {
			n, err := s.live.ResumeWaiting(ctx)
			return int64(n), err
		})
	}
}

// purge runs one of the store's purges, logging what it deleted at level.
func (s *Service) purge(ctx context.Context, what string, level slog.Level, purge func(context.Context) (int64, error)) {
	if n, err := purge(ctx); err != nil && ctx.Err() == nil {
		s.log.Warn("purging "+what, "err", err.Error())
	} else if n > 0 {
		s.log.Log(ctx, level, "purged "+what, "count", n)
	}
}

// CacheLive reports whether the key cache follows the database's change feed; until it does,
// every key is looked up in the database.
func (s *Service) CacheLive() bool { return s.keys.IsLive() }
