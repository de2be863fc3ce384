// Package web is the owner's dashboard under /app/: server-rendered Hungarian pages
// (html/template, assets embedded, no script or style inline, no CDN), sessions kept in
// PostgreSQL through scs, and Go's CrossOriginProtection on every state-changing request. It
// talks to domain packages only; the caller hands it the store and the session store.
package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/alexedwards/scs/v2"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/live"
	"github.com/leadchat/leadchat/internal/ratelimit"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/widget"
)

// Store is what the dashboard reads and changes.
type Store interface {
	user.Store
	Users
	Keys
	Settings
	Leads
	Notifications
	Overviews
	Company(ctx context.Context, companyID uuid.UUID) (company.Company, error)
	CompanyUsage(ctx context.Context, companyID uuid.UUID) (company.Usage, error)
	UpdateCompany(ctx context.Context, companyID uuid.UUID, ch company.Changes) (company.Company, error)
}

// Users are a company's dashboard users.
type Users interface {
	User(ctx context.Context, companyID, userID uuid.UUID) (user.User, error)
	Users(ctx context.Context, companyID uuid.UUID) ([]user.User, error)
	RemoveCompanyUser(ctx context.Context, companyID, userID uuid.UUID) (user.User, error)
	// Memberships are the companies a user may switch between.
	Memberships(ctx context.Context, userID uuid.UUID) ([]user.Membership, error)
	// Viewer is a user of a company, the company, and the companies the user may switch
	// between, read together for every page.
	Viewer(ctx context.Context, companyID, userID uuid.UUID) (user.User, company.Company, []user.Membership, error)
	AcceptMembership(ctx context.Context, companyID, userID uuid.UUID) error
}

// Keys are a company's API keys.
type Keys interface {
	ListKeys(ctx context.Context, companyID uuid.UUID) ([]auth.KeyInfo, error)
	CreateKey(ctx context.Context, companyID uuid.UUID, k auth.NewKey) (auth.KeyInfo, error)
	RevokeCompanyKey(ctx context.Context, companyID, keyID uuid.UUID) (auth.KeyInfo, error)
	SetKeyDomains(ctx context.Context, companyID, keyID uuid.UUID, domains []string, hostnameCheck bool) (auth.KeyInfo, error)
}

// Settings are a company's widget settings and assistant profile.
type Settings interface {
	WidgetSettings(ctx context.Context, companyID uuid.UUID) (widget.Settings, error)
	SetWidgetSettings(ctx context.Context, companyID uuid.UUID, s widget.Settings) error
	AssistantProfile(ctx context.Context, companyID uuid.UUID) ([]byte, error)
	SetAssistantProfile(ctx context.Context, companyID uuid.UUID, profile []byte) error
}

// Session lifetimes: a session ends after IdleTimeout without a request, and AbsoluteTimeout
// after the login whatever happens. A session records its last request when the recorded one is
// TouchEvery old or older, so browsing writes a session at most once a TouchEvery instead of
// at every page (a write PostgreSQL makes durable before the page is answered); the idle
// timeout is kept to within TouchEvery.
const (
	IdleTimeout     = 12 * time.Hour
	AbsoluteTimeout = 30 * 24 * time.Hour
	TouchEvery      = time.Minute
)

// Config is what the dashboard is built from.
type Config struct {
	Store Store
	// Sessions is where sessions are kept (the sessions table through scs's postgresstore).
	Sessions scs.Store
	// PublicURL is where browsers reach the service. With https the session cookie is Secure
	// and named with the __Host- prefix; the embed snippet points there.
	PublicURL string
	// AllowPrivateWebhooks lets a webhook URL be http (LEADCHAT_WEBHOOK_ALLOW_PRIVATE), for
	// development and tests, as the admin commands allow.
	AllowPrivateWebhooks bool
	Log                  *slog.Logger
	// Now is the clock that sessions' idle time and the overview's freshness are measured by;
	// nil means time.Now.
	Now func() time.Time
	// Live and Hub serve the conversations page (its list, replies and live updates); nil
	// leaves the page out.
	Live *chat.Live
	Hub  *live.Hub
	// StreamPing is how often the conversations' live feed sends a comment; 0 is 25 s.
	StreamPing time.Duration
	// ClientIP finds a request's client address, whose failed logins are counted; nil trusts
	// no proxy.
	ClientIP *ratelimit.ClientIP
	// DeviceSecret signs device cookies; every instance must share it. Empty means a random key
	// of this process, whose cookies another instance, or this one after a restart, ignores.
	DeviceSecret []byte
	// Hashing is the turn-taking of password hashes; the zero Gate means one turn.
	Hashing user.Gate
	// Invitations sends a new user their link by e-mail; nil when no SMTP server is set, and
	// the team page then says to copy the link.
	Invitations Inviter
}

// Inviter sends a one-time password link to a new user of a company's dashboard.
type Inviter interface {
	Invite(ctx context.Context, to, company, link string) error
}

// Prefix is where the dashboard is mounted.
const Prefix = "/app/"

// New builds the dashboard's handler for the paths under Prefix.
func New(cfg Config) http.Handler {
	d := &dashboard{store: cfg.Store, log: cfg.Log, publicURL: strings.TrimRight(cfg.PublicURL, "/"), pages: loadPages(),
		hashing: cfg.Hashing, allowPrivateWebhooks: cfg.AllowPrivateWebhooks, now: cfg.Now, ips: cfg.ClientIP,
		invitations: cfg.Invitations, live: cfg.Live, hub: cfg.Hub, streamPing: cfg.StreamPing}
	if d.streamPing == 0 {
		d.streamPing = 25 * time.Second
	}
	if d.hashing == (user.Gate{}) {
		d.hashing = user.NewGate(hashingSlots)
	}
	if d.ips == nil {
		d.ips, _ = ratelimit.NewClientIP("")
	}
	secret := cfg.DeviceSecret
	if len(secret) == 0 {
		secret = make([]byte, 32)
		rand.Read(secret)
	}
	d.devices = user.NewDevices(secret)
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.now == nil {
		d.now = time.Now
	}
	d.overviews = newOverviews(d.now)
	d.buffers.New = func() any { return new(bytes.Buffer) }
	sessions := cfg.Sessions
	if vs, ok := sessions.(viewerSessions); ok {
		sessions = sessionsWithViewer{vs}
	}
	d.sessions = newSessionManager(sessions, d.secure(), d.serverError)

	mux := http.NewServeMux()
	mux.Handle("GET /app/{$}", d.page(user.Leads, d.overview))
	mux.Handle("GET /app/static/", staticHandler())
	mux.HandleFunc("GET /app/login", d.loginPage)
	mux.HandleFunc("POST /app/login", d.login)
	mux.HandleFunc("POST /app/logout", d.logout)
	mux.HandleFunc("GET /app/password/{token}", d.passwordPage)
	mux.HandleFunc("POST /app/password/{token}", d.setPassword)
	mux.Handle("POST /app/company", d.page(user.Leads, d.switchCompany))
	mux.HandleFunc("GET /app/notify/confirm/{token}", d.confirmPage)
	mux.HandleFunc("POST /app/notify/confirm/{token}", d.confirmEmail)

	mux.Handle("GET /app/leads", d.page(user.Leads, d.leads))
	mux.Handle("GET /app/leads.csv", d.page(user.Leads, d.leadsCSV))
	mux.Handle("GET "+leadPagePrefix+"{id}", d.page(user.Leads, d.lead))
	mux.Handle("POST /app/leads/{id}/status", d.page(user.Leads, d.setStatus))
	mux.Handle("POST /app/leads/{id}/erase", d.page(user.Settings, d.eraseLead))
	mux.Handle("POST /app/leads/{id}/assignee", d.page(user.Leads, d.assign))
	mux.Handle("POST /app/leads/{id}/notes", d.page(user.Leads, d.addNote))
	mux.Handle("GET /app/embed", d.page(user.Settings, d.embed))
	mux.Handle("POST /app/embed/keys", d.page(user.Settings, d.createKey))
	mux.Handle("POST /app/embed/keys/{id}/revoke", d.page(user.Settings, d.revokeKey))
	mux.Handle("POST /app/embed/keys/{id}/domains", d.page(user.Settings, d.setDomains))
	mux.Handle("GET /app/widget", d.page(user.Settings, d.widget))
	mux.Handle("POST /app/widget", d.page(user.Settings, d.saveWidget))
	mux.Handle("GET /app/widget/preview", d.page(user.Settings, d.preview))
	mux.Handle("POST /app/widget/preview-key", d.page(user.Settings, d.createPreviewKey))
	mux.Handle("GET /app/assistant", d.page(user.Settings, d.assistant))
	mux.Handle("POST /app/assistant", d.page(user.Settings, d.saveAssistant))
	mux.Handle("GET /app/usage", d.page(user.Settings, d.usagePage("usage")))
	mux.Handle("GET /app/notifications", d.page(user.Settings, d.notifications))
	mux.Handle("POST /app/notifications/webhooks", d.page(user.Settings, d.addWebhook))
	mux.Handle("GET /app/notifications/webhooks/{id}", d.page(user.Settings, d.deliveries))
	mux.Handle("POST /app/notifications/webhooks/{id}/remove", d.page(user.Settings, d.removeWebhook))
	mux.Handle("POST /app/notifications/webhooks/{id}/rotate", d.page(user.Settings, d.rotateWebhook))
	mux.Handle("POST /app/notifications/webhooks/{id}/enable", d.page(user.Settings, d.enableWebhook))
	mux.Handle("POST /app/notifications/webhooks/{id}/deliveries/{delivery}/redeliver", d.page(user.Settings, d.redeliver))
	mux.Handle("POST /app/notifications/emails", d.page(user.Settings, d.saveEmails))
	if d.live != nil && d.hub != nil {
		mux.Handle("GET /app/conversations", d.page(user.Leads, d.conversations))
		mux.Handle("GET /app/conversations/events", d.page(user.Leads, d.conversationEvents))
		mux.Handle("GET /app/conversations/{id}", d.page(user.Leads, d.conversation))
		mux.Handle("POST /app/conversations/{id}/messages", d.page(user.Leads, d.conversationAction(d.reply, "")))
		mux.Handle("POST /app/conversations/{id}/take", d.page(user.Leads, d.conversationAction(d.takeOver,
			"Átvette a beszélgetést: az asszisztens szünetel.")))
		mux.Handle("POST /app/conversations/{id}/release", d.page(user.Leads, d.conversationAction(d.handBack,
			"Visszaadta a beszélgetést az asszisztensnek.")))
	}
	mux.Handle("GET /app/team", d.page(user.Team, d.team))
	mux.Handle("POST /app/team", d.page(user.Team, d.invite))
	mux.Handle("POST /app/team/{id}/remove", d.page(user.Team, d.removeUser))
	mux.Handle("POST /app/team/round-robin", d.page(user.Team, d.setRoundRobin))
	mux.HandleFunc("/app/", func(w http.ResponseWriter, r *http.Request) {
		d.errorPage(w, r, http.StatusNotFound)
	})

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.errorPage(w, r, http.StatusForbidden)
	}))
	return securityHeaders(withViewerSlot(d.sessions.LoadAndSave(cop.Handler(d.plainValues(mux)))))
}

// plainValues answers 400 with a Hungarian page for a request whose path, query or form holds
// what no dashboard field takes: invalid UTF-8, or a control character other than a line break
// or a tab (a NUL would reach PostgreSQL, which refuses it). So no handler sees such a value.
func (d *dashboard) plainValues(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || refused(r.URL.Path) {
			d.errorPage(w, r, http.StatusBadRequest)
			return
		}
		for k, vs := range r.Form {
			if refused(k) || slices.ContainsFunc(vs, refused) {
				d.errorPage(w, r, http.StatusBadRequest)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// refused reports whether a value holds what no dashboard field takes.
func refused(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, lead.RefusedInText) >= 0
}

// hashingSlots is how many password hashes (login, password set) the dashboard computes at
// once: one, which keeps a burst of logins to one hash's 19 MiB and still answers dozens of
// logins a second, far more than people type.
const hashingSlots = 1

// dashboard is the handlers' shared state, built once.
type dashboard struct {
	store     Store
	log       *slog.Logger
	publicURL string
	sessions  *scs.SessionManager
	pages     pages
	// hashing is the turn-taking of password hashes (logins, password sets).
	hashing user.Gate
	// ips finds a request's client address.
	ips *ratelimit.ClientIP
	// devices signs and checks device cookies.
	devices user.Devices
	// allowPrivateWebhooks is Config.AllowPrivateWebhooks.
	allowPrivateWebhooks bool
	now                  func() time.Time
	invitations          Inviter
	live                 *chat.Live
	hub                  *live.Hub
	streamPing           time.Duration
	// overviews keeps the landing page's figures for a few seconds.
	overviews *overviews
	// buffers are rendered pages' buffers, kept for the next page (render).
	buffers sync.Pool
}

// secure reports whether the dashboard is served over https.
func (d *dashboard) secure() bool { return strings.HasPrefix(d.publicURL, "https://") }

// baseURL is where browsers reach the service: the configured public URL, else the address
// this request came to.
func (d *dashboard) baseURL(r *http.Request) string {
	if d.publicURL != "" {
		return d.publicURL
	}
	return "http://" + r.Host
}

// requestHost is the host name (no port) the browser used, as the key checks see an Origin.
func requestHost(r *http.Request) string {
	u, err := url.Parse("http://" + r.Host)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// csp is the policy of every page: only this origin, nothing inline, never in another site's frame.
const csp = "default-src 'self'; base-uri 'none'; form-action 'self'; object-src 'none'; frame-ancestors 'none'"

// securityHeaders sets what every dashboard response carries (pages are private: no caching)
// and bounds a form's body as the API bounds a JSON body.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, limits.BodyBytes)
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
