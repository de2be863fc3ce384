// Package contracttest checks, in tests, that every HTTP response the service gives matches
// api/openapi.yaml: an undeclared status, header or field fails the test that received it, and
// so does an error code that the operation's **Errors** list does not give that status.
package contracttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Spec is api/openapi.yaml from the module root, with its servers replaced by base so that
// routes match a test server on any port. It is a shallow copy of the document the process
// loaded once: the caller may set its top-level fields, and reads the rest.
func Spec(t testing.TB, base string) *openapi3.T {
	t.Helper()
	shared, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	doc := *shared
	doc.Servers = openapi3.Servers{{URL: base}}
	return &doc
}

// loaded parses and validates api/openapi.yaml once per test process (it took some 60 ms of
// CPU for each test that starts a server); nothing writes to the document afterwards.
var loaded = sync.OnceValues(func() (*openapi3.T, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(root, "api", "openapi.yaml")
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("%s is not a valid OpenAPI document: %w", path, err)
	}
	return doc, nil
})

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "api", "openapi.yaml")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("api/openapi.yaml not found above the test's folder")
		}
		dir = parent
	}
}

// Validator validates responses against the spec.
type Validator struct {
	router routers.Router
	mu     sync.Mutex
	seen   map[string]bool
}

// formats switches on the string formats the contract uses and kin-openapi leaves unchecked by
// default. kin-openapi keeps them in package state, hence once per test process.
var formats sync.Once

func defineFormats() {
	formats.Do(func() {
		openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562))
		// The spec and its reference page are documents, not data to decode.
		openapi3filter.RegisterBodyDecoder("application/yaml", openapi3filter.PlainBodyDecoder)
		openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
		openapi3filter.RegisterBodyDecoder("text/javascript", openapi3filter.PlainBodyDecoder)
	})
}

// New builds a validator for a server at base.
func New(t testing.TB, base string) *Validator {
	t.Helper()
	defineFormats()
	r, err := gorillamux.NewRouter(Spec(t, base))
	if err != nil {
		t.Fatalf("building the spec router: %v", err)
	}
	return &Validator{router: r, seen: map[string]bool{}}
}

// Check validates one response to req whose body is body.
func (v *Validator) Check(req *http.Request, resp *http.Response, body []byte) error {
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s %s is not in the spec: %w", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: resp.StatusCode,
		Header: resp.Header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
		},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(req.Context(), in); err != nil {
		return fmt.Errorf("%s %s answered %d against the spec: %w", req.Method, req.URL.Path, resp.StatusCode, err)
	}
	if resp.StatusCode >= 400 && req.Method != http.MethodHead {
		if err := checkCode(route.Operation, resp.StatusCode, body); err != nil {
			return fmt.Errorf("%s %s: %w", req.Method, route.Path, err)
		}
	}
	v.mu.Lock()
	v.seen[fmt.Sprintf("%s %s %d", req.Method, route.Path, resp.StatusCode)] = true
	v.mu.Unlock()
	return nil
}

// CheckStream checks that the spec answers req with a text/event-stream of resp's status.
func (v *Validator) CheckStream(req *http.Request, resp *http.Response) error {
	route, _, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s %s is not in the spec: %w", req.Method, req.URL.Path, err)
	}
	r := route.Operation.Responses.Status(resp.StatusCode)
	if r == nil || r.Value == nil || r.Value.Content.Get("text/event-stream") == nil {
		return fmt.Errorf("%s %s: the spec has no text/event-stream answer %d", req.Method, route.Path, resp.StatusCode)
	}
	v.mu.Lock()
	v.seen[fmt.Sprintf("%s %s %d", req.Method, route.Path, resp.StatusCode)] = true
	v.mu.Unlock()
	return nil
}

// Seen reports whether a response to method on the path template path with status passed Check.
func (v *Validator) Seen(method, path string, status int) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.seen[fmt.Sprintf("%s %s %d", method, path, status)]
}

// CheckRequest reports whether the spec allows req with body: nil when it does, else what it
// breaks. The service's own answer to the request is not consulted.
func (v *Validator) CheckRequest(req *http.Request, body []byte) error {
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s %s is not in the spec: %w", req.Method, req.URL.Path, err)
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	return openapi3filter.ValidateRequest(req.Context(), in)
}

// Transport is an http.RoundTripper that validates every response it carries and reports a
// violation as a test error.
func (v *Validator) Transport(t testing.TB, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err != nil {
			return resp, err
		}
		if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			// A stream does not end: its status and type are checked, its events by the test.
			if err := v.CheckStream(req, resp); err != nil {
				t.Errorf("contract: %v", err)
			}
			return resp, nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err := v.Check(req, resp, body); err != nil {
			t.Errorf("contract: %v", err)
		}
		return resp, nil
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
