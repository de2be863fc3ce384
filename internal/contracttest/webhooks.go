package contracttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"go.yaml.in/yaml/v3"
)

// Webhooks validates the messages the service sends to webhook endpoints against the
// contract's `x-webhooks` (OpenAPI 3.0 has no webhooks of its own): each message is checked as
// the request its x-webhooks entry describes, headers and body, with the same validator as
// the API's requests.
type Webhooks struct {
	router routers.Router
}

// receiverBase is where the validator pretends the x-webhooks entries are served.
const receiverBase = "http://receiver.invalid"

// NewWebhooks loads api/openapi.yaml with its x-webhooks entries turned into paths named
// after their keys (`lead-event` becomes `/lead-event`).
func NewWebhooks(t testing.TB) *Webhooks {
	t.Helper()
	defineFormats()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "api", "openapi.yaml")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	hooks, ok := doc["x-webhooks"].(map[string]any)
	if !ok || len(hooks) == 0 {
		t.Fatalf("%s has no x-webhooks", path)
	}
	paths := map[string]any{}
	for name, item := range hooks {
		paths["/"+name] = item
	}
	doc["paths"], doc["servers"] = paths, []any{map[string]any{"url": receiverBase}}
	delete(doc, "x-webhooks")
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		t.Fatalf("loading x-webhooks of %s: %v", path, err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		t.Fatalf("x-webhooks of %s as paths: %v", path, err)
	}
	r, err := gorillamux.NewRouter(spec)
	if err != nil {
		t.Fatalf("building the x-webhooks router: %v", err)
	}
	return &Webhooks{router: r}
}

// Check validates a message a receiver took (its method, headers and body) as the x-webhooks
// entry name describes it.
func (w *Webhooks) Check(name string, received *http.Request, body []byte) error {
	req, err := http.NewRequest(received.Method, receiverBase+"/"+name, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = received.Header.Clone()
	route, params, err := w.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s to x-webhooks %s: %w", received.Method, name, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	if err := openapi3filter.ValidateRequest(req.Context(), in); err != nil {
		return fmt.Errorf("x-webhooks %s: %w", name, err)
	}
	return nil
}
