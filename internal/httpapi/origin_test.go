package httpapi_test

import (
	"net/url"
	"testing"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/plan"
)

// A public key's allowed domains hold wherever the key is taken: creating a lead, reading the
// widget config and chatting, so a key copied from a customer's page works on no other site.
func TestAllowedDomainsOnEveryEndpoint(t *testing.T) {
	t.Parallel()
	e := start(t)
	c := e.company(plan.Enterprise, -1)
	listed := e.key(c, auth.Public, []string{"example.hu", "*.shop.example.com"}, true).Key
	unchecked := e.key(c, auth.Public, []string{"example.hu"}, false).Key
	open := e.key(c, auth.Public, nil, true).Key

	endpoints := []struct {
		name string
		call func(key string, header map[string]string) (int, map[string]any)
		ok   int
	}{
		{"lead", func(key string, h map[string]string) (int, map[string]any) {
			h["X-Api-Key"] = key
			resp, body := e.do("POST", "/api/v1/leads", okBody, h)
			return resp.StatusCode, body
		}, 201},
		{"config", func(key string, h map[string]string) (int, map[string]any) {
			resp, body := e.do("GET", "/api/embed/config?api_key="+url.QueryEscape(key), "", h)
			return resp.StatusCode, body
		}, 200},
		{"chat", func(key string, h map[string]string) (int, map[string]any) {
			resp, body := e.do("POST", "/api/embed/chat", `{"api_key": "`+key+`", "message": "Szia!"}`, h)
			return resp.StatusCode, body
		}, 200},
	}
	cases := []struct {
		name    string
		key     string
		header  map[string]string
		allowed bool
	}{
		{"listed host", listed, map[string]string{"Origin": "https://example.hu"}, true},
		{"listed host with port", listed, map[string]string{"Origin": "http://example.hu:8080"}, true},
		{"subdomain of a wildcard", listed, map[string]string{"Origin": "https://a.b.shop.example.com"}, true},
		{"apex of a wildcard", listed, map[string]string{"Origin": "https://shop.example.com"}, false},
		{"subdomain of an exact host", listed, map[string]string{"Origin": "https://www.example.hu"}, false},
		{"look-alike host", listed, map[string]string{"Origin": "https://example.hu.evil.org"}, false},
		{"referer without origin", listed, map[string]string{"Referer": "https://example.hu/kapcsolat?x=1"}, true},
		{"foreign referer without origin", listed, map[string]string{"Referer": "https://evil.org/"}, false},
		{"origin beats referer", listed, map[string]string{"Origin": "https://evil.org", "Referer": "https://example.hu/"}, false},
		{"neither origin nor referer", listed, nil, false},
		{"hostname check off", unchecked, map[string]string{"Origin": "https://evil.org"}, true},
		{"empty list allows any origin", open, map[string]string{"Origin": "https://evil.org"}, true},
		{"empty list allows no origin", open, nil, true},
	}
	for _, ep := range endpoints {
		t.Run(ep.name, func(t *testing.T) {
			for _, tt := range cases {
				t.Run(tt.name, func(t *testing.T) {
					h := map[string]string{}
					for k, v := range tt.header {
						h[k] = v
					}
					status, body := ep.call(tt.key, h)
					switch {
					case tt.allowed && status != ep.ok:
						t.Errorf("status %d (%v), want %d", status, body, ep.ok)
					case !tt.allowed && (status != 403 || body["code"] != "origin_not_allowed"):
						t.Errorf("status %d (%v), want 403 origin_not_allowed", status, body)
					}
				})
			}
		})
	}
	// Refused requests leave nothing behind: every lead and session is an allowed request's.
	var sessions int
	if err := e.store.DB().QueryRow(`SELECT count(*) FROM chat_sessions WHERE company_id = $1`, c).Scan(&sessions); err != nil {
		t.Fatal(err)
	}
	allowed := 0
	for _, tt := range cases {
		if tt.allowed {
			allowed++
		}
	}
	if leads, _ := e.count(c); leads != allowed || sessions != allowed {
		t.Errorf("%d leads and %d chat sessions, want %d of each", leads, sessions, allowed)
	}
}
