package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"
)

// staticRoutes answers every request as the router it was built from would: the same handler,
// inside the router's middleware, with the route's template recorded; and a route registered
// earlier that matches the same request keeps it.
func TestStaticRoutesAnswerAsTheRouter(t *testing.T) {
	t.Parallel()
	r := mux.NewRouter()
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("not found")) })
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("method not allowed"))
	})
	r.Use(nameRoute, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.Write([]byte("middleware "))
			next.ServeHTTP(w, req)
		})
	})
	answer := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) {
			w.Write([]byte(name + " " + stateOf(req.Context()).route))
		}
	}
	r.Handle("/items/{id}", answer("item")).Methods(http.MethodGet)
	r.Handle("/items/new", answer("new")).Methods(http.MethodGet, http.MethodPost) // GET: the route above wins
	r.Handle("/plain", answer("plain")).Methods(http.MethodPost)
	r.Handle("/plain", answer("second plain")).Methods(http.MethodPost)
	h := staticRoutes(r)

	for _, tc := range []struct{ method, path, want string }{
		{http.MethodPost, "/plain", "middleware plain /plain"},
		{http.MethodPost, "/items/new", "middleware new /items/new"},
		{http.MethodGet, "/items/new", "middleware item /items/{id}"},
		{http.MethodGet, "/items/7", "middleware item /items/{id}"},
		{http.MethodGet, "/plain", "method not allowed"},
		{http.MethodGet, "/nowhere", "not found"},
	} {
		for name, handler := range map[string]http.Handler{"router": r, "staticRoutes": h} {
			st := &state{route: "unmatched"}
			req := httptest.NewRequestWithContext(withState(context.Background(), st), tc.method, tc.path, nil)
			w := httptest.NewRecorder()
			handler.ServeHTTP(w, req)
			if got := w.Body.String(); got != tc.want {
				t.Errorf("%s %s through the %s: %q, want %q", tc.method, tc.path, name, got, tc.want)
			}
		}
	}
}
