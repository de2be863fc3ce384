package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gorilla/mux"
)

// routeKey holds a *string the router fills with the matched route, for metrics and logs.
const routeKey ctxKey = 100

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe records every request in the metrics and the log: route template, method, status
// and duration, with the request id. Paths are logged as their route template, so no key in a
// query string reaches the log.
func (s *server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		route := "unmatched"
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), routeKey, &route)))
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		d := time.Since(start)
		s.metrics.Request(route, r.Method, rec.status, d)
		level := slog.LevelInfo
		if rec.status >= 500 {
			level = slog.LevelWarn
		}
		if s.log.Enabled(r.Context(), level) {
			s.log.LogAttrs(r.Context(), level, "request",
				slog.String("request_id", w.Header().Get("X-Request-Id")), slog.String("method", r.Method),
				slog.String("route", route), slog.Int("status", rec.status),
				slog.Float64("duration_ms", float64(d.Microseconds())/1000))
		}
	})
}

// nameRoute tells observe which route matched.
func nameRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := r.Context().Value(routeKey).(*string); ok {
			if tmpl, err := mux.CurrentRoute(r).GetPathTemplate(); err == nil {
				*p = tmpl
			}
		}
		next.ServeHTTP(w, r)
	})
}
