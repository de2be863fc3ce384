// Package httpapi is the HTTP face of leadchat: the strict server generated from
// api/openapi.yaml, its middleware, and the one mapping of errors to status and message.
// It is the only package that imports gen/.
package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/chat"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/widget"
)

// Config is what the HTTP layer needs, built once by the caller.
type Config struct {
	Keys    *auth.Keyring
	Leads   lead.Store
	Configs *widget.Configs
	Chat    *chat.Service
	Log     *slog.Logger
	// Static serves the paths outside the API (embed.js, the demo page); may be nil.
	Static map[string]http.Handler
}

type server struct {
	log       *slog.Logger
	keys      *auth.Keyring
	leads     lead.Store
	configs   *widget.Configs
	chat      *chat.Service
	validator *validator
}

// New builds the service's HTTP handler.
func New(cfg Config) (http.Handler, error) {
	doc, err := api.GetSwagger()
	if err != nil {
		return nil, fmt.Errorf("loading the embedded OpenAPI spec: %w", err)
	}
	s := &server{log: cfg.Log, keys: cfg.Keys, leads: cfg.Leads, configs: cfg.Configs, chat: cfg.Chat, validator: newValidator(doc)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}

	r := mux.NewRouter()
	r.NotFoundHandler = s.fail(errs.E(errs.NotFound, "not_found"))
	r.MethodNotAllowedHandler = s.fail(errs.E(errs.MethodNotAllowed, "method_not_allowed"))
	r.Use(s.readBody, s.authenticate, s.validate)
	strict := api.NewStrictHandlerWithOptions(s, nil, api.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  s.requestError,
		ResponseErrorHandlerFunc: s.writeError,
	})
	api.HandlerWithOptions(strict, api.GorillaServerOptions{BaseRouter: r, ErrorHandlerFunc: s.requestError})
	for path, h := range cfg.Static {
		r.Handle(path, h).Methods(http.MethodGet, http.MethodHead)
	}
	return withRequestID(s.recoverer(cors(r))), nil
}

// fail answers every request with one error.
func (s *server) fail(err error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.writeError(w, r, err) })
}

// requestError handles what the generated code could not bind: the spec validator has already
// accepted the request, so this is a body or parameter the generated types cannot hold.
func (s *server) requestError(w http.ResponseWriter, r *http.Request, err error) {
	if _, ok := err.(*errs.Error); !ok {
		err = errs.Wrap(errs.Invalid, "invalid_json", err)
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

var _ api.StrictServerInterface = (*server)(nil)
