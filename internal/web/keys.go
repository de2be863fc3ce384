package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/leadchat/leadchat/internal/auth"
)

type embedData struct {
	BaseURL string
	Keys    []auth.KeyInfo
	// Snippet is the newest usable public key's ready-to-paste tag, "" without one.
	Snippet string
	// NewKey is a key just created, shown this once.
	NewKey     string
	NewKeyKind auth.Kind
	Error      string
	// Form holds what was typed into the create form, after an error.
	Form keyForm
}

type keyForm struct {
	Kind          string
	Domains       string
	HostnameCheck bool
}

func (d *dashboard) embed(w http.ResponseWriter, r *http.Request, v viewer) {
	data := embedData{Form: keyForm{Kind: "public", HostnameCheck: true}}
	if key := d.takeNewKey(w, r); key != "" {
		if kind, err := auth.Parse(key); err == nil {
			data.NewKey, data.NewKeyKind = key, kind
		}
	}
	d.renderEmbed(w, r, v, http.StatusOK, data)
}

// newKeyCookie carries a key just created from the create form's POST to the page it redirects
// to, which shows it once and deletes the cookie. The key travels in the creator's browser
// alone (HttpOnly, on /app/embed only, five minutes at most): the service keeps only its hash,
// so it cannot sit in the session row, and a refresh or a reload of that page shows it no more.
const newKeyCookie = "leadchat_new_key"

// giveNewKey hands key to the next GET of /app/embed in this browser.
func (d *dashboard) giveNewKey(w http.ResponseWriter, key string) {
	http.SetCookie(w, &http.Cookie{Name: newKeyCookie, Value: key, Path: "/app/embed", MaxAge: 300,
		HttpOnly: true, Secure: d.secure(), SameSite: http.SameSiteStrictMode})
}

// takeNewKey returns the key giveNewKey handed over, "" when there is none, and deletes it.
func (d *dashboard) takeNewKey(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(newKeyCookie)
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: newKeyCookie, Value: "", Path: "/app/embed", MaxAge: -1,
		HttpOnly: true, Secure: d.secure(), SameSite: http.SameSiteStrictMode})
	return c.Value
}

func (d *dashboard) renderEmbed(w http.ResponseWriter, r *http.Request, v viewer, status int, data embedData) {
	keys, err := d.store.ListKeys(r.Context(), v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	data.BaseURL = d.baseURL(r)
	data.Keys = keys
	for i := len(keys) - 1; i >= 0; i-- {
		if k := keys[i]; k.Kind == auth.Public && k.RevokedAt == nil && k.PublicKey != "" {
			data.Snippet = Snippet(data.BaseURL, k.PublicKey)
			break
		}
	}
	d.render(w, r, status, "embed", &v, data)
}

// Snippet is the tag a customer pastes into their pages.
func Snippet(baseURL, publicKey string) string {
	return `<script async src="` + baseURL + `/embed.js" data-api-key="` + publicKey + `" data-base-url="` + baseURL + `"></script>`
}

// domainLines splits the domains field: one entry per line, commas also accepted.
func domainLines(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' || r == '\r' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// domainError is the Hungarian sentence for a refused domain list.
func domainError(err error) string {
	var de *auth.DomainError
	switch {
	case errors.As(err, &de):
		return "Érvénytelen domain: „" + de.Entry + "”. Adjon meg egy gazdanevet (például pelda.hu) vagy helyettesítőt " +
			"(például *.pelda.hu) séma (https://), útvonal és port nélkül; ékezetes nevet punycode alakban (xn--…)."
	case errors.Is(err, auth.ErrDomainsOnPrivate):
		return "Privát kulcshoz nem adható meg domain: a privát kulcsot böngészőből soha nem szabad használni."
	}
	return ""
}

// createKey makes a key and shows it in full, this once, in the response itself: it is never
// kept where a later page could show it again.
func (d *dashboard) createKey(w http.ResponseWriter, r *http.Request, v viewer) {
	form := keyForm{Kind: r.PostFormValue("kind"), Domains: r.PostFormValue("domains"), HostnameCheck: r.PostFormValue("hostname_check") == "on"}
	kind, err := auth.ParseKind(form.Kind)
	if err != nil {
		d.renderEmbed(w, r, v, http.StatusUnprocessableEntity, embedData{Form: form, Error: "Válassza ki a kulcs fajtáját."})
		return
	}
	key, nk, err := auth.Create(kind, domainLines(form.Domains), form.HostnameCheck)
	if msg := domainError(err); msg != "" {
		d.renderEmbed(w, r, v, http.StatusUnprocessableEntity, embedData{Form: form, Error: msg})
		return
	}
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	if _, err := d.store.CreateKey(r.Context(), v.CompanyID, nk); err != nil {
		d.serverError(w, r, err)
		return
	}
	d.giveNewKey(w, key)
	http.Redirect(w, r, "/app/embed", http.StatusSeeOther)
}

func (d *dashboard) revokeKey(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	k, err := d.store.RevokeCompanyKey(r.Context(), v.CompanyID, id)
	d.done(w, r, err, "A(z) "+k.Prefix+"… kulcs visszavonva: mostantól minden kérése 401-es választ kap.", "/app/embed")
}

func (d *dashboard) setDomains(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	domains, err := auth.NormalizeDomains(domainLines(r.PostFormValue("domains")))
	if msg := domainError(err); msg != "" {
		d.renderEmbed(w, r, v, http.StatusUnprocessableEntity, embedData{Error: msg, Form: keyForm{Kind: "public", HostnameCheck: true}})
		return
	}
	k, err := d.store.SetKeyDomains(r.Context(), v.CompanyID, id, domains, r.PostFormValue("hostname_check") == "on")
	d.done(w, r, err, "A(z) "+k.Prefix+"… kulcs domainjei elmentve.", "/app/embed")
}
