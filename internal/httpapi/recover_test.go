package httpapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/gen/api"
)

func TestPanicIsTheJSONError(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	s := &server{log: slog.New(slog.NewJSONHandler(&logs, nil))}
	h := withRequestID(context.WithTimeout, DefaultRequestTimeout, s.recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("secret internal state")
	})))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	var body api.Error
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("body %q is not JSON: %v", w.Body, err)
	}
	if w.Code != 500 || body.Code != api.ErrorCodeInternal || body.Error == "" {
		t.Errorf("got %d %+v, want 500 internal", w.Code, body)
	}
	if strings.Contains(w.Body.String(), "secret") {
		t.Error("the panic value reached the client")
	}
	if !strings.Contains(logs.String(), "secret internal state") || !strings.Contains(logs.String(), w.Header().Get("X-Request-Id")) {
		t.Errorf("the panic was not logged with the request id: %s", logs.String())
	}
}
