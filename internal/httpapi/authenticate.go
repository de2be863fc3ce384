package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/errs"
)

// The documented paths that need a key, by gorilla path template.
const (
	pathLeads  = "/api/v1/leads"
	pathConfig = "/api/embed/config"
	pathChat   = "/api/embed/chat"

	pathChatMessages = "/api/embed/chat/messages"
	pathChatStream   = "/api/embed/chat/stream"
	pathEvents       = "/api/embed/events"
)

// authenticate finds the key where the endpoint takes it, resolves it to its company and
// applies the key rules (kinds, origins, allowed domains) before the request is validated or handled, so a
// caller without a valid key learns nothing about the rest of its request.
func (s *server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		st := stateOf(r.Context())
		tmpl := st.route
		var key string
		var err error
		switch tmpl {
		case pathLeads, pathLead, pathLeadMessages:
			key, err = leadKey(r)
			if err == nil && key == "" {
				err = errs.E(errs.Unauthorized, errs.CodeMissingAPIKey)
			}
		case pathConfig, pathChatMessages, pathChatStream:
			st.client = s.clientIP(r)
			st.query = r.URL.Query()
			key = st.query.Get("api_key")
			if key == "" {
				err = errs.E(errs.Invalid, errs.CodeMissingAPIKey)
			}
		case pathChat, pathEvents:
			key, err = keyFromBody(rawBody(r.Context()))
			if err == nil && key == "" {
				err = errs.E(errs.Invalid, errs.CodeMissingAPIKey)
			}
		default:
			next.ServeHTTP(w, r)
			return
		}
		if err == nil {
			err = s.limitByIP(tmpl, r)
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		p, err := s.keys.Resolve(r.Context(), key)
		if errs.Is(err, errs.Unauthorized) {
			s.authFailed(r)
		}
		if err == nil {
			err = privateOnly(p, r.Method, tmpl)
		}
		if err == nil {
			err = allowed(p, tmpl, r.Header)
		}
		if err == nil {
			err = s.limitByKey(tmpl, p, r)
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		st.principal, st.authed = p, true
		next.ServeHTTP(w, r)
	})
}

// allowed applies the rules on which key may be used how. The allowed domains of a public key
// hold on every endpoint that takes one, so a key locked to a site serves no other site its
// widget, chat or lead quota.
func allowed(p auth.Principal, path string, h http.Header) error {
	origin := h.Get("Origin")
	if p.Kind == auth.Private && origin != "" {
		return errs.E(errs.Forbidden, errs.CodePrivateKeyFromBrowser)
	}
	switch {
	case (path == pathConfig || path == pathChatMessages || path == pathChatStream || path == pathEvents) && p.Kind != auth.Public:
		return errs.E(errs.Forbidden, errs.CodePublicKeyRequired)
	case !p.AllowsOrigin(origin, h.Get("Referer")):
		return errs.E(errs.Forbidden, errs.CodeOriginNotAllowed)
	}
	return nil
}

// leadKey reads the lead endpoints' key from, in order, x-api-key, Authorization: Bearer and,
// for a lead create, the body's api_key.
func leadKey(r *http.Request) (string, error) {
	if k := strings.TrimSpace(r.Header.Get("X-Api-Key")); k != "" {
		return k, nil
	}
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, token, ok := strings.Cut(strings.TrimSpace(a), " ")
		if ok && strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != "" {
			return strings.TrimSpace(token), nil
		}
	}
	if r.Method != http.MethodPost {
		return "", nil
	}
	return keyFromBody(rawBody(r.Context()))
}

// keyFromBody reads the api_key field of a JSON body.
func keyFromBody(body []byte) (string, error) {
	var b struct {
		APIKey json.RawMessage `json:"api_key"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return "", errs.Wrap(errs.Invalid, errs.CodeInvalidJSON, err)
	}
	if len(b.APIKey) == 0 || string(b.APIKey) == "null" {
		return "", nil
	}
	var k string
	if err := json.Unmarshal(b.APIKey, &k); err != nil {
		return "", &errs.Error{Kind: errs.Invalid, Code: errs.CodeInvalidField, Field: "api_key", Err: err}
	}
	return strings.TrimSpace(k), nil
}
