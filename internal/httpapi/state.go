package httpapi

import (
	"bytes"
	"context"
	"net/netip"
	"net/url"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/leadchat/leadchat/internal/auth"
)

// state is what the middleware learns about one request, kept in one context value that each
// layer fills in, so the request is not copied at every layer and the route is looked up once.
type state struct {
	id       string    // the request id, also sent as X-Request-Id
	idHeader [1]string // X-Request-Id's value: a header slice that costs no allocation of its own
	route    string    // the matched route template, "unmatched" before routing
	body     []byte    // the JSON body as read (POST, PATCH)
	// plain is body decoded, when it is a plain object (plainObject); nil otherwise.
	plain map[string]any
	// bodyReader reads body again, for the layers after readBody; validated is the body with
	// the value it was validated as (validate).
	bodyReader readBack
	validated  validatedBody
	// principal is the key's, once authenticate has resolved it (authed).
	principal auth.Principal
	authed    bool
	// base is the request's context before the request deadline: a stream outlives the deadline.
	base context.Context
	// client is the client's address, as the rate limits see it (chat streams only).
	client netip.Addr
	// proto is the request's HTTP major version.
	proto int
	// query is the URL's query as authenticate parsed it, for the validator (nil when
	// authenticate did not need it).
	query url.Values
	// validation is kin-openapi's input for the request, kept here so it needs no allocation
	// of its own.
	validation openapi3filter.RequestValidationInput
	// rec is the response writer observe hands on, which remembers the status.
	rec statusRecorder
	// ctx is the request's context, which holds this state.
	ctx requestContext
}

// readBack is a body already read, to be read again.
type readBack struct{ bytes.Reader }

func (*readBack) Close() error { return nil }

type stateKey struct{}

func withState(ctx context.Context, st *state) context.Context {
	return context.WithValue(ctx, stateKey{}, st)
}

// stateOf returns the request's state; a context without one (a test calling a layer alone)
// gets an empty state.
func stateOf(ctx context.Context) *state {
	if rc, ok := ctx.(*requestContext); ok {
		return rc.st
	}
	if st, ok := ctx.Value(stateKey{}).(*state); ok {
		return st
	}
	return &state{route: "unmatched"}
}

func requestID(ctx context.Context) string { return stateOf(ctx).id }

func rawBody(ctx context.Context) []byte { return stateOf(ctx).body }

func principal(ctx context.Context) (auth.Principal, bool) {
	if st := stateOf(ctx); st.authed {
		return st.principal, true
	}
	return auth.Principal{}, false
}
