package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/service"
)

// newServer opens the service on dsn and returns a function that serves one request in
// process and returns its status.
func newServer(t *testing.T, dsn string) func(*http.Request) int {
	t.Helper()
	svc, err := service.Open(context.Background(), service.Config{DatabaseURL: dsn, MaxDBConns: 4, ShutdownGrace: time.Second}, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return func(r *http.Request) int {
		w := httptest.NewRecorder()
		svc.Handler().ServeHTTP(w, r)
		return w.Code
	}
}
