package httpapi

import (
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/gorilla/mux"
)

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
		st := stateOf(r.Context())
		rec := &st.rec // in the state, which is allocated anyway
		rec.ResponseWriter = w
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		d := time.Since(start)
		s.metrics.Request(st.route, r.Method, rec.status, d)
		level := slog.LevelInfo
		if rec.status >= 500 {
			level = slog.LevelWarn
		}
		if s.log.Enabled(r.Context(), level) {
			s.log.LogAttrs(r.Context(), level, "request",
				slog.String("request_id", st.id), slog.String("method", clip(r.Method)),
				slog.String("route", st.route), slog.Int("status", rec.status),
				slog.Float64("duration_ms", float64(d.Microseconds())/1000))
		}
	})
}

// maxLogged bounds what a log field carries of a client's input (a method, a path), so a
// client cannot make the logs as large as its requests.
const maxLogged = 256

// clip cuts client input to maxLogged bytes for a log field, on a character boundary.
func clip(s string) string {
	if len(s) <= maxLogged {
		return s
	}
	cut := maxLogged
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// nameRoute records the matched route template, once, for the later layers, metrics and logs.
// A request that staticRoutes dispatched carries no gorilla route: its template is already
// recorded.
func nameRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if route := mux.CurrentRoute(r); route != nil {
			if tmpl, err := route.GetPathTemplate(); err == nil {
				stateOf(r.Context()).route = tmpl
			}
		}
		next.ServeHTTP(w, r)
	})
}
