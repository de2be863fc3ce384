package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/user"
)

// Cookie names: over https the __Host- prefix makes the browser insist on Secure, Path=/ and no
// Domain, so no other host (a sibling subdomain) can plant or overwrite the cookie.
const (
	cookieName             = "leadchat_session"
	secureCookieName       = "__Host-leadchat_session"
	deviceCookieName       = "leadchat_device"
	secureDeviceCookieName = "__Host-leadchat_device"
)

// Session keys.
const (
	keyUser    = "user_id"
	keyCompany = "company_id"
	keyFlash   = "flash"
	// keySeen is the session's last recorded request, in Unix seconds.
	keySeen = "seen"
)

// newSessionManager configures scs: sessions in store as JSON (sessionCodec), the token hashed
// there (a copy of the table opens no session), HttpOnly and SameSite=Lax cookies, Secure with
// the __Host- prefix over https, an absolute timeout. The idle timeout is current's: scs's own would write the
// session to the store at every request.
func newSessionManager(store scs.Store, secure bool, fail func(http.ResponseWriter, *http.Request, error)) *scs.SessionManager {
	m := scs.New()
	m.Store = store
	m.Codec = sessionCodec{}
	m.HashTokenInStore = true
	m.Lifetime = AbsoluteTimeout
	m.Cookie.Name = cookieName
	if secure {
		m.Cookie.Name = secureCookieName
	}
	m.Cookie.HttpOnly = true
	m.Cookie.SameSite = http.SameSiteLaxMode
	m.Cookie.Secure = secure
	m.Cookie.Path = "/"
	m.ErrorFunc = fail
	return m
}

// viewer is the logged-in user of a request, with their current company and, on a page, every
// company they may switch to.
type viewer = user.Viewer

// viewerSessions is a session store that reads, in the round trip that finds a session, the
// viewer it names (the user and company ids at the paths of its data as JSON): most requests
// then cost the database one round trip fewer.
type viewerSessions interface {
	scs.Store
	FindCtx(ctx context.Context, token string) ([]byte, bool, error)
	FindViewerCtx(ctx context.Context, token string, userPath, companyPath []string) (data []byte, v user.Viewer, found bool, err error)
	// FindViewerLeadFileCtx is FindViewerCtx with the file of the lead of the viewer's company,
	// as Leads.LeadFile reads it; found is false too when the company has no such lead.
	FindViewerLeadFileCtx(ctx context.Context, token string, userPath, companyPath []string, leadID uuid.UUID,
		related int) (data []byte, v user.Viewer, f lead.File, users []user.User, found bool, err error)
}

// sessionsWithViewer is such a store as scs uses it: a session looked up for a request that
// holds a viewerSlot (withViewerSlot) leaves its viewer there for current.
type sessionsWithViewer struct{ viewerSessions }

// viewerSlot is where a request's session lookup leaves the viewer it read, and, for the lead
// page of lead (withViewerSlot sets it), the lead's file of the viewer's company.
type viewerSlot struct {
	v     viewer
	found bool
	lead  uuid.UUID
	file  *leadFile
}

// leadFile is a lead's file and its company's users as Leads.LeadFile returns them.
type leadFile struct {
	f     lead.File
	users []user.User
}

type viewerSlotKey struct{}

// withViewerSlot gives each request a viewerSlot, with the lead of a lead page (GET
// leadPagePrefix + id), whose file the session's lookup then reads too: the page's one round
// trip to the database instead of two.
func withViewerSlot(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slot := &viewerSlot{}
		if rest, ok := strings.CutPrefix(r.URL.Path, leadPagePrefix); ok && r.Method == http.MethodGet {
			if id, err := uuid.Parse(rest); err == nil && len(rest) == 36 { // the mux's {id}: no slash, its usual form
				slot.lead = id
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), viewerSlotKey{}, slot)))
	})
}

// leadPagePrefix is the lead page's path before the lead's id.
const leadPagePrefix = Prefix + "leads/"

// prefetchedFile returns the file of the lead id that the request's session lookup read for the
// viewer's company, if it read that one.
func prefetchedFile(r *http.Request, v viewer, id uuid.UUID) (*leadFile, bool) {
	slot, ok := r.Context().Value(viewerSlotKey{}).(*viewerSlot)
	if !ok || slot.file == nil || slot.lead != id || slot.v.CompanyID != v.CompanyID || slot.v.ID != v.ID {
		return nil, false
	}
	return slot.file, true
}

// FindCtx finds the session, and with it the viewer when the request has a slot. A session
// that names no member (or none at all) is looked up alone again, so that scs still gets the
// data of a session whose user is gone, and current ends it.
func (s sessionsWithViewer) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	slot, ok := ctx.Value(viewerSlotKey{}).(*viewerSlot)
	if !ok {
		return s.viewerSessions.FindCtx(ctx, token)
	}
	userPath, companyPath := sessionValuePath(keyUser), sessionValuePath(keyCompany)
	if slot.lead != uuid.Nil {
		data, v, f, users, found, err := s.FindViewerLeadFileCtx(ctx, token, userPath, companyPath, slot.lead, relatedShown)
		if err == nil && found {
			slot.v, slot.found, slot.file = v, true, &leadFile{f: f, users: users}
			return data, true, nil
		}
		// No such lead of the company (the page is then not found), or no session: the
		// lookups without it tell which.
	}
	data, v, found, err := s.FindViewerCtx(ctx, token, userPath, companyPath)
	if err != nil || !found { // and an error, which the lookup alone reports as it always did
		return s.viewerSessions.FindCtx(ctx, token)
	}
	slot.v, slot.found = v, true
	return data, true, nil
}

// current returns the request's logged-in user, or false. A session idle for longer than
// IdleTimeout, or whose user is gone (removed, or their company's), is destroyed here, so it
// ends at its next request; a live one records this request when its last recorded one is
// TouchEvery old.
func (d *dashboard) current(r *http.Request) (viewer, bool, error) {
	ctx := r.Context()
	uid, err1 := uuid.Parse(d.sessions.GetString(ctx, keyUser))
	cid, err2 := uuid.Parse(d.sessions.GetString(ctx, keyCompany))
	if err1 != nil || err2 != nil {
		return viewer{}, false, nil
	}
	now := d.now()
	seen := time.Unix(d.sessions.GetInt64(ctx, keySeen), 0)
	if now.Sub(seen) > IdleTimeout {
		return viewer{}, false, d.sessions.Destroy(ctx)
	}
	if now.Sub(seen) >= TouchEvery {
		d.sessions.Put(ctx, keySeen, now.Unix())
	}
	// The viewer the session's lookup read, if it read one for these ids (the session's
	// values may have changed since: a login, a switch of company).
	if slot, ok := ctx.Value(viewerSlotKey{}).(*viewerSlot); ok && slot.found && slot.v.ID == uid && slot.v.CompanyID == cid {
		return slot.v, true, nil
	}
	u, c, companies, err := d.store.Viewer(ctx, cid, uid)
	if errs.Is(err, errs.NotFound) {
		return viewer{}, false, d.sessions.Destroy(ctx)
	}
	if err != nil {
		return viewer{}, false, err
	}
	return viewer{User: u, Company: c, Companies: companies}, true, nil
}

// page serves h to logged-in users whose role reaches area. Others are sent to the login page;
// a user whose role does not reach it gets 403 (the page exists, their role is what stops them).
func (d *dashboard) page(area user.Area, h func(http.ResponseWriter, *http.Request, viewer)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, ok, err := d.current(r)
		if err != nil {
			d.serverError(w, r, err)
			return
		}
		if !ok {
			http.Redirect(w, r, loginURL(r), http.StatusSeeOther)
			return
		}
		if !v.Role.May(area) {
			d.errorPageSaying(w, r, http.StatusForbidden, notOwner)
			return
		}
		h(w, r, v)
	})
}

// done ends a change of one of the company's things: not found (another company's, or none)
// is 404, another error 500, and success shows flash on the page at to.
func (d *dashboard) done(w http.ResponseWriter, r *http.Request, err error, flash, to string) {
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.flash(r.Context(), flash)
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// fail answers a failed read or change of one of the company's things: not found (another
// company's, or none) is 404, another error 500.
func (d *dashboard) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errs.Is(err, errs.NotFound) {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	d.serverError(w, r, err)
}

// flash keeps a message for the next page the user sees.
func (d *dashboard) flash(ctx context.Context, msg string) { d.sessions.Put(ctx, keyFlash, msg) }

// landing is where a login goes when it was not sent from a page.
const landing = Prefix

// loginURL is the login page that returns to r's page after the login. Only a page that a
// browser opened (GET) is returned to: a form sent without a session is not sent again.
func loginURL(r *http.Request) string {
	if r.Method != http.MethodGet {
		return "/app/login"
	}
	return "/app/login?" + url.Values{"next": {r.URL.RequestURI()}}.Encode()
}

// returnPath is next when it is a page of the dashboard, else the landing page: a login link
// made by anyone else must not send a logged-in user to another site ("//evil.example",
// "https://evil.example", "/\evil.example") or back to the login.
func returnPath(next string) string {
	if !strings.HasPrefix(next, Prefix) || strings.ContainsAny(next, "\\\x00\r\n\t") {
		return landing
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return landing
	}
	clean := path.Clean(u.Path)
	if !strings.HasPrefix(clean+"/", Prefix) || clean == "/app/login" || clean == "/app/logout" {
		return landing
	}
	if strings.HasSuffix(u.Path, "/") && clean != "/app" {
		clean += "/"
	}
	if clean == "/app" {
		clean = Prefix
	}
	out := (&url.URL{Path: clean, RawQuery: u.RawQuery}).RequestURI()
	if !strings.HasPrefix(out, Prefix) {
		return landing
	}
	return out
}

type loginData struct {
	Email, Error, Notice string
	// Next is the page to return to after the login ("" for the landing page).
	Next string
}

func (d *dashboard) loginPage(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Query().Get("next")
	if _, ok, _ := d.current(r); ok {
		http.Redirect(w, r, returnPath(next), http.StatusSeeOther)
		return
	}
	data := loginData{}
	if rp := returnPath(next); rp != landing {
		data.Next = rp
	}
	if r.URL.Query().Get("jelszo") == "beallitva" {
		// The same words whether the link set a new account's password or was an existing
		// account's invitation, which leaves its password as it was.
		data.Notice = "Kész. Most már beléphet az e-mail-címével és a jelszavával."
	}
	d.render(w, r, http.StatusOK, "login", nil, data)
}

// login checks the form's email and password; a success renews the session's id (a token
// planted before the login is worthless after it), opens the user's first company, marks the
// browser as the account's device and goes back to the page the login was asked for from, a
// page of the dashboard only, else to the landing page.
func (d *dashboard) login(w http.ResponseWriter, r *http.Request) {
	email := r.PostFormValue("email")
	next := ""
	if rp := returnPath(r.PostFormValue("next")); rp != landing {
		next = rp
	}
	a := user.Attempt{Email: email, Password: r.PostFormValue("password"), Client: d.clientIP(r)}
	if c, err := r.Cookie(d.deviceCookieName()); err == nil {
		if dev, ok := d.devices.Check(c.Value, d.now()); ok {
			a.Device = &dev
		}
	}
	u, err := user.Login(r.Context(), d.store, d.hashing, a)
	var companies []user.Membership
	if err == nil {
		// An account whose last membership went a moment ago opens nothing: a failed login.
		if companies, err = d.store.Memberships(r.Context(), u.ID); err == nil && len(companies) == 0 {
			err = user.ErrBadLogin
		}
	}
	var throttled *user.ThrottledError
	switch {
	case errors.As(err, &throttled):
		d.throttled(w, throttled)
		msg := "Túl sok sikertelen belépés ezzel az e-mail-címmel. Próbálja újra %d perc múlva."
		if throttled.Client {
			msg = "Túl sok sikertelen belépés erről a hálózati címről. Próbálja újra %d perc múlva."
		}
		d.render(w, r, http.StatusTooManyRequests, "login", nil, loginData{Email: email, Next: next,
			Error: fmt.Sprintf(msg, minutes(throttled.Wait))})
		return
	case errors.Is(err, user.ErrBadLogin):
		d.render(w, r, http.StatusUnauthorized, "login", nil, loginData{Email: email, Next: next,
			Error: "Hibás e-mail-cím vagy jelszó."})
		return
	case err != nil:
		d.serverError(w, r, err)
		return
	}
	ctx := r.Context()
	if err := d.store.AcceptMembership(ctx, companies[0].CompanyID, u.ID); err != nil {
		d.serverError(w, r, err)
		return
	}
	if err := d.sessions.RenewToken(ctx); err != nil {
		d.serverError(w, r, err)
		return
	}
	d.sessions.Put(ctx, keyUser, u.ID.String())
	d.sessions.Put(ctx, keyCompany, companies[0].CompanyID.String())
	d.sessions.Put(ctx, keySeen, d.now().Unix())
	http.SetCookie(w, &http.Cookie{Name: d.deviceCookieName(), Value: d.devices.Issue(u.ID, d.now()), Path: "/",
		MaxAge: int(user.DeviceLifetime / time.Second), HttpOnly: true, Secure: d.secure(), SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, returnPath(next), http.StatusSeeOther)
}

// deviceCookieName is the device cookie's name: __Host- prefixed over https, as the session's.
func (d *dashboard) deviceCookieName() string {
	if d.secure() {
		return secureDeviceCookieName
	}
	return deviceCookieName
}

// clientIP is the request's client address by the trusted-proxy rules.
func (d *dashboard) clientIP(r *http.Request) string {
	return d.ips.Of(r.RemoteAddr, r.Header.Values("X-Forwarded-For")).String()
}

// throttled sets Retry-After for a refused attempt.
func (d *dashboard) throttled(w http.ResponseWriter, t *user.ThrottledError) {
	w.Header().Set("Retry-After", fmt.Sprint(int(t.Wait.Seconds()+0.5)))
}

// minutes is a wait as the pages say it, rounded up.
func minutes(wait time.Duration) int { return int((wait + time.Minute - 1) / time.Minute) }

// switchCompany makes another of the user's companies the session's; a company the user is
// not a member of is not found.
func (d *dashboard) switchCompany(w http.ResponseWriter, r *http.Request, v viewer) {
	id, err := uuid.Parse(strings.TrimSpace(r.PostFormValue("company")))
	if err != nil {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	if _, err := d.store.User(r.Context(), id, v.ID); err != nil {
		d.fail(w, r, err)
		return
	}
	if err := d.store.AcceptMembership(r.Context(), id, v.ID); err != nil {
		d.serverError(w, r, err)
		return
	}
	d.sessions.Put(r.Context(), keyCompany, id.String())
	http.Redirect(w, r, "/app/leads", http.StatusSeeOther)
}

// logout deletes the session from the store, so its cookie opens nothing any more.
func (d *dashboard) logout(w http.ResponseWriter, r *http.Request) {
	if err := d.sessions.Destroy(r.Context()); err != nil {
		d.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/app/login", http.StatusSeeOther)
}

type passwordData struct {
	Email, Error string
}

// passwordPage shows the form of a one-time link; showing it does not use the link up, so a
// mail scanner that opens links does not spoil it.
func (d *dashboard) passwordPage(w http.ResponseWriter, r *http.Request) {
	u, err := d.store.LinkUser(r.Context(), user.LinkHash(r.PathValue("token")))
	if errs.Is(err, errs.NotFound) {
		d.render(w, r, http.StatusNotFound, "password", nil, passwordData{Error: linkInvalid})
		return
	}
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer") // the token is in the address
	d.render(w, r, http.StatusOK, "password", nil, passwordData{Email: u.Email})
}

const linkInvalid = "Ez a link érvénytelen, már felhasználták, vagy lejárt. Kérjen újat a cége dashboardjának tulajdonosától."

func (d *dashboard) setPassword(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	_, err := user.SetPassword(r.Context(), d.store, d.hashing, user.PasswordSet{Token: token,
		Password: r.PostFormValue("password"), Again: r.PostFormValue("password_again"), Client: d.clientIP(r)})
	fail := func(status int, msg string) {
		u, _ := d.store.LinkUser(r.Context(), user.LinkHash(token))
		d.render(w, r, status, "password", nil, passwordData{Email: u.Email, Error: msg})
	}
	var throttled *user.ThrottledError
	switch {
	case errors.Is(err, user.ErrLinkInvalid):
		d.render(w, r, http.StatusNotFound, "password", nil, passwordData{Error: linkInvalid})
	case errors.Is(err, user.ErrPasswordsDiffer):
		fail(http.StatusUnprocessableEntity, "A két jelszó nem egyezik.")
	case errors.Is(err, user.ErrPasswordTooShort):
		fail(http.StatusUnprocessableEntity, fmt.Sprintf("A jelszó legalább %d karakter legyen.", user.MinPasswordLen))
	case errors.Is(err, user.ErrPasswordTooLong), errors.Is(err, user.ErrPasswordInvalid):
		fail(http.StatusUnprocessableEntity, "Ez a jelszó nem használható: túl hosszú, vagy nem megengedett karaktert tartalmaz.")
	case errors.As(err, &throttled):
		d.throttled(w, throttled)
		fail(http.StatusTooManyRequests, fmt.Sprintf("Túl sok sikertelen próbálkozás erről a hálózati címről. Próbálja újra %d perc múlva.", minutes(throttled.Wait)))
	case err != nil:
		d.serverError(w, r, err)
	default:
		http.Redirect(w, r, "/app/login?jelszo=beallitva", http.StatusSeeOther)
	}
}

// formUUID reads a path value that must be an id; anything else is no such thing (404).
func formUUID(r *http.Request, name string) (uuid.UUID, bool) {
	id, err := uuid.Parse(strings.TrimSpace(r.PathValue(name)))
	return id, err == nil
}
