// Package httpapi is the HTTP face of leadchat: the strict server generated from
// api/openapi.yaml, its middleware, and the one mapping of errors to status and message.
// It is the only package that imports gen/.
package httpapi

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/insight"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/live"
	"github.com/leadchat/leadchat/internal/metrics"
	"github.com/leadchat/leadchat/internal/ratelimit"
	"github.com/leadchat/leadchat/internal/widget"
)

// Config is what the HTTP layer needs, built once by the caller.
type Config struct {
	Keys    *auth.Keyring
	Leads   lead.Store
	Configs *widget.Configs
	Chat    *chat.Service
	Log     *slog.Logger
	Metrics *metrics.Metrics
	// MetricsNetworks are the client networks GET /metrics answers; others get 404.
	MetricsNetworks []netip.Prefix
	// Limits are the rate limits; nil turns them off.
	Limits *Limits
	// ClientIP finds a request's client address; nil trusts no proxy.
	ClientIP *ratelimit.ClientIP
	// Ready reports whether the service can serve (database reachable, schema current).
	Ready func(context.Context) error
	// Static serves GET paths outside the API (embed.js, docs, the demo page); may be nil.
	Static map[string]http.Handler
	// Live serves the conversations' messages to visitors' streams, and Hub routes the news of
	// new ones to them; both nil turn the stream and message endpoints into server errors.
	Live *chat.Live
	Hub  *live.Hub
	// StreamPing is how often an idle stream sends a comment; 0 is StreamPing.
	StreamPing time.Duration
	// Dashboard serves every path under /app/ (its own pages, errors and headers, no CORS);
	// may be nil.
	Dashboard http.Handler
	// RequestTimeout bounds a request's work; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Deadline makes a request's deadline context, given the time left until the deadline
	// (RequestTimeout from the request's start), when the request first waits on it; nil is
	// context.WithDeadline. A test passes one that follows a clock it moves, instead of
	// waiting for the deadline.
	Deadline func(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc)
	// WidgetEvents counts the widget's funnel events; nil counts none.
	WidgetEvents WidgetEvents
	// Contract is the loaded contract; nil loads the embedded one. A process that builds many
	// handlers (a test package) loads it once and shares it.
	Contract *Contract
}

// Contract is the embedded OpenAPI contract with its request checks compiled. Nothing changes it
// once loaded (a handler reads it as concurrent requests do), so handlers may share one.
type Contract struct{ validator *validator }

// LoadContract loads the embedded contract and compiles its request checks.
func LoadContract() (*Contract, error) {
	doc, err := api.GetSpec()
	if err != nil {
		return nil, fmt.Errorf("loading the embedded OpenAPI spec: %w", err)
	}
	return &Contract{validator: newValidator(doc)}, nil
}

// WidgetEvents counts a company's widget events per day.
type WidgetEvents interface {
	CountWidgetEvent(ctx context.Context, companyID uuid.UUID, t insight.EventType) error
}

type server struct {
	log       *slog.Logger
	keys      *auth.Keyring
	leads     lead.Store
	configs   *widget.Configs
	chat      *chat.Service
	validator *validator
	metrics   *metrics.Metrics
	limits    *Limits
	ips       *ratelimit.ClientIP
	live      *chat.Live
	hub       *live.Hub
	// streamPing is how often an idle chat stream sends a comment.
	streamPing time.Duration
	events     WidgetEvents
	// bodies lends the lead list's response buffers (leadListJSON).
	bodies sync.Pool
}

// New builds the service's HTTP handler.
func New(cfg Config) (http.Handler, error) {
	contract := cfg.Contract
	if contract == nil {
		var err error
		if contract, err = LoadContract(); err != nil {
			return nil, err
		}
	}
	s := &server{log: cfg.Log, keys: cfg.Keys, leads: cfg.Leads, configs: cfg.Configs, chat: cfg.Chat,
		validator: contract.validator, metrics: cfg.Metrics, limits: cfg.Limits, ips: cfg.ClientIP,
		live: cfg.Live, hub: cfg.Hub, streamPing: cmp.Or(cfg.StreamPing, StreamPing), events: cfg.WidgetEvents}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.ips == nil {
		s.ips, _ = ratelimit.NewClientIP("")
	}

	r := mux.NewRouter()
	r.NotFoundHandler = s.fail(errs.E(errs.NotFound, errs.CodeNotFound))
	r.MethodNotAllowedHandler = s.fail(errs.E(errs.MethodNotAllowed, errs.CodeMethodNotAllowed))
	r.Use(nameRoute, s.readBody, s.authenticate, s.validate)
	strict := api.NewStrictHandlerWithOptions(s, nil, api.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  s.requestError,
		ResponseErrorHandlerFunc: s.writeError,
	})
	api.HandlerWithOptions(leadBinding{ServerInterface: strict, s: s}, api.GorillaServerOptions{BaseRouter: r, ErrorHandlerFunc: s.requestError})
	for path, h := range cfg.Static {
		r.Handle(path, h).Methods(http.MethodGet, http.MethodHead)
	}
	r.HandleFunc("/healthz", s.healthz).Methods(http.MethodGet, http.MethodHead)
	r.Handle("/readyz", s.readyz(cfg.Ready)).Methods(http.MethodGet, http.MethodHead)
	if cfg.Metrics != nil {
		r.Handle("/metrics", s.onlyFrom(cfg.MetricsNetworks, cfg.Metrics.Handler())).Methods(http.MethodGet)
	}
	var h http.Handler = cors(staticRoutes(r))
	if cfg.Dashboard != nil {
		h = dashboardFirst(cfg.Dashboard, h)
	}
	timeout := cfg.RequestTimeout
	if timeout == 0 {
		timeout = DefaultRequestTimeout
	}
	return withRequestID(cfg.Deadline, timeout, s.observe(s.recoverer(s.limitHeaders(h)))), nil
}

// dashboardFirst sends the paths under /app/ to the dashboard, named "/app/" in metrics and
// logs, and everything else to the API. An EventSource's request keeps no request deadline.
func dashboardFirst(dashboard, api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/app" || strings.HasPrefix(r.URL.Path, "/app/") {
			st := stateOf(r.Context())
			st.route = "/app/"
			if r.Header.Get("Accept") == "text/event-stream" && r.Method == http.MethodGet && st.base != nil {
				// A page's live stream outlives the request deadline; it ends with the client.
				r = r.WithContext(st.base)
			}
			dashboard.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// healthz answers while the process runs.
func (s *server) healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
}

// readyz answers 200 while the database answers and its schema is current, else 503.
func (s *server) readyz(ready func(context.Context) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
			defer cancel()
			if err := ready(ctx); err != nil {
				s.writeError(w, r, errs.Wrap(errs.Unavailable, errs.CodeUnavailable, err))
				return
			}
		}
		s.healthz(w, r)
	})
}

// onlyFrom serves h to clients in networks and answers everyone else 404, as if there were
// nothing here. The client is the one the rate limits see (X-Forwarded-For from trusted proxies
// only), not the connection's: behind a proxy on the same host every connection comes from
// loopback, and judging by that would open the page to everyone the proxy forwards. The page is
// for a scraper, not for browsers, so it carries no CORS header, which cors has set for every
// path.
func (s *server) onlyFrom(networks []netip.Prefix, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Del("Access-Control-Allow-Origin")
		w.Header().Del("Access-Control-Expose-Headers")
		if !ratelimit.Contains(networks, s.clientIP(r)) {
			s.writeError(w, r, errs.E(errs.NotFound, "not_found"))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// fail answers every request with one error.
func (s *server) fail(err error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.writeError(w, r, err) })
}

// requestError handles what the generated code could not bind: the spec validator has already
// accepted the request, so this is a body or parameter the generated types cannot hold (such
// as a lead id that is not a UUID, a format kin-openapi leaves unchecked).
func (s *server) requestError(w http.ResponseWriter, r *http.Request, err error) {
	var param *api.InvalidParamFormatError
	switch _, ok := err.(*errs.Error); {
	case errors.As(err, &param):
		err = paramError(param.ParamName, err)
	case !ok:
		err = errs.Wrap(errs.Invalid, errs.CodeInvalidJSON, err)
	}
	s.writeError(w, r, err)
}

// The preflights only need the headers cors sets.

func (s *server) PreflightLeads(context.Context, api.PreflightLeadsRequestObject) (api.PreflightLeadsResponseObject, error) {
	return api.PreflightLeads204Response{}, nil
}

func (s *server) PreflightWidgetConfig(context.Context, api.PreflightWidgetConfigRequestObject) (api.PreflightWidgetConfigResponseObject, error) {
	return api.PreflightWidgetConfig204Response{}, nil
}

func (s *server) PreflightChat(context.Context, api.PreflightChatRequestObject) (api.PreflightChatResponseObject, error) {
	return api.PreflightChat204Response{}, nil
}

func (s *server) PreflightChatMessages(context.Context, api.PreflightChatMessagesRequestObject) (api.PreflightChatMessagesResponseObject, error) {
	return api.PreflightChatMessages204Response{}, nil
}

func (s *server) PreflightChatStream(context.Context, api.PreflightChatStreamRequestObject) (api.PreflightChatStreamResponseObject, error) {
	return api.PreflightChatStream204Response{}, nil
}

var _ api.StrictServerInterface = (*server)(nil)
