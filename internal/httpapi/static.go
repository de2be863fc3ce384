package httpapi

import (
	"bytes"
	"crypto/rand"
	_ "embed"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/leadchat/leadchat/internal/asset"
	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/widget"
)

// ScriptHandler serves embed.js, minified once here at start: public caching for a few minutes so
// that a fix reaches visitors soon, a strong ETag, a gzip copy, and any site may load it.
func ScriptHandler() http.Handler {
	return asset.Handler(widget.Script(), asset.Options{ETag: true, Gzip: true, Header: map[string]string{
		"Content-Type":                "text/javascript; charset=utf-8",
		"Access-Control-Allow-Origin": "*",
	}})
}

// demoHTML is a made-up Hungarian company's home page, in Hungarian like the product.
//
//go:embed demo.html
var demoHTML string

// DemoPage serves a made-up Hungarian company's home page with the widget embedded the way
// a customer pastes it. The page is sent with a strict Content-Security-Policy (no 'unsafe-inline';
// the page's own <style> carries a per-request nonce), so the demo also proves that the widget
// works on such a site. baseURL is where the service is reached; publicKey is a public API key.
// The page states the company's assistant profile and nothing else, so that it never tells a
// visitor something other than the chat beside it does.
func DemoPage(baseURL, publicKey string, profile assistant.Profile) http.Handler {
	base := strings.TrimRight(baseURL, "/")
	origin := "'self'"
	if u, err := url.Parse(base); err == nil && u.Scheme != "" && u.Host != "" {
		origin = u.Scheme + "://" + u.Host
	}
	page := template.Must(template.New("demo").Parse(demoHTML))
	priced := slices.ContainsFunc(profile.Services, func(s assistant.Service) bool { return s.Price != "" })

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce := rand.Text()
		var buf bytes.Buffer
		data := struct {
			BaseURL, PublicKey, Nonce string
			Profile                   assistant.Profile
			Priced                    bool
		}{base, publicKey, nonce, profile, priced}
		if err := page.Execute(&buf, data); err != nil {
			http.Error(w, "a bemutató oldal nem készült el", http.StatusInternalServerError)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' "+origin+"; connect-src "+origin+
			"; style-src 'self' 'nonce-"+nonce+"'; img-src 'self' data:")
		h.Set("Cache-Control", "no-store") // the nonce must differ on every load
		h.Set("X-Content-Type-Options", "nosniff")
		if r.Method == http.MethodHead {
			return
		}
		w.Write(buf.Bytes())
	})
}
