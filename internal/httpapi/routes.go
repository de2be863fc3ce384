package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"
)

// staticRoutes dispatches the requests whose method and path are exactly one of r's routes
// without path variables (the lead create, the widget's calls, the static files) straight to
// that route's handler, wrapped in r's middleware as gorilla wraps it; every other request goes
// through r. Gorilla tries each route's regular expression in turn, builds the middleware chain
// anew and copies the request twice (for its variables and its route) on every request, which
// profiles showed as a good part of a widget config's cost; a map lookup finds the same route.
//
// A route is taken only when r itself matches its method and template to it, so a route
// registered earlier that would win the same request (a template with variables, or a
// duplicate) keeps it, and the map answers exactly what r would.
func staticRoutes(r *mux.Router) http.Handler {
	direct := map[routeKey]staticRoute{}
	_ = r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tmpl, err := route.GetPathTemplate()
		if err != nil || strings.Contains(tmpl, "{") {
			return nil
		}
		methods, err := route.GetMethods()
		if err != nil {
			return nil
		}
		for _, m := range methods {
			var match mux.RouteMatch
			probe := &http.Request{Method: m, URL: &url.URL{Path: tmpl}, Header: http.Header{}}
			if !r.Match(probe, &match) || match.Route != route || match.MatchErr != nil || len(match.Vars) != 0 {
				continue
			}
			if _, taken := direct[routeKey{m, tmpl}]; !taken {
				direct[routeKey{m, tmpl}] = staticRoute{tmpl: tmpl, h: match.Handler}
			}
		}
		return nil
	})
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if sr, ok := direct[routeKey{req.Method, req.URL.Path}]; ok {
			stateOf(req.Context()).route = sr.tmpl
			sr.h.ServeHTTP(w, req)
			return
		}
		r.ServeHTTP(w, req)
	})
}

// staticRoute is a route template and its handler in the router's middleware.
type staticRoute struct {
	tmpl string
	h    http.Handler
}
