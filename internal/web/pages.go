package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/leadchat/leadchat/internal/asset"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/user"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages are the parsed templates by page name (writePage writes the layout around them).
type pages map[string]*template.Template

// titles are the pages' titles, and the names the templates are found by.
var titles = map[string]string{
	"login":         "Belépés",
	"password":      "Jelszó beállítása",
	"confirm":       "E-mail-cím megerősítése",
	"error":         "Hiba",
	"overview":      "Áttekintés",
	"leads":         "Érdeklődők",
	"lead":          "Érdeklődő",
	"embed":         "Beágyazás és kulcsok",
	"widget":        "Csevegőablak",
	"preview":       "Előnézet",
	"assistant":     "Asszisztens",
	"usage":         "Felhasználás",
	"team":          "Csapat",
	"notifications": "Értesítések",
	"deliveries":    "Kézbesítési napló",
	"conversations": "Beszélgetések",
}

// areas are the dashboard's areas by the names the templates' "may" takes: one map for every
// page, which made one at every call.
var areas = map[string]user.Area{"leads": user.Leads, "settings": user.Settings, "team": user.Team}

var funcs = template.FuncMap{
	"may": func(v *viewer, area string) bool {
		if v == nil {
			return false
		}
		return v.Role.May(areas[area])
	},
	"date": formatDate,
	"tel":  telURL,
	"num":  groupDigits,
	"join": strings.Join,
	// limit is a limit by its name in templateLimits, so that a page states the number the
	// service holds it to.
	"limit": func(name string) (int, error) {
		if v, ok := templateLimits[name]; ok {
			return v, nil
		}
		return 0, fmt.Errorf("no limit %q", name)
	},
	// A status comes as a lead.Status, or as text from the history.
	"status":         func(s any) string { return lead.Status(fmt.Sprint(s)).Name() },
	"source":         lead.Source.Name,
	"field":          fieldName,
	"origin":         originName,
	"inc":            func(i int) int { return i + 1 },
	"webhookState":   webhookState,
	"deliveryState":  deliveryState,
	"typeName":       typeName,
	"typesName":      typesName,
	"attemptError":   attemptError,
	"consentSummary": consentSummary,
	"userName":       userName,
	"faqLink":        faqLink,
	"duration":       duration,
	"percent":        percent,
	"deref": func(n *int) int {
		if n == nil {
			return 0
		}
		return *n
	},
}

// consentSummary words a consent as the history keeps it (JSON) for the history table.
func consentSummary(raw string) string {
	if raw == "" {
		return "–"
	}
	var c lead.Consent
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return raw
	}
	marketing := "nem kért marketinget"
	if c.Marketing {
		marketing = "marketinghez hozzájárult"
	}
	return marketing + " (" + formatDate(c.GivenAt) + ")"
}

// formatDate is a time as the pages show it: Budapest time, the Hungarian way.
func formatDate(t time.Time) string { return t.In(budapest).Format(dateLayout) }

// dateLayout is formatDate's layout: digits, dots, spaces and a colon, which HTML needs not
// escape.
const dateLayout = "2006. 01. 02. 15:04"

// budapest is the time zone dates are shown in: the product's users are Hungarian.
var budapest = func() *time.Location {
	if l, err := time.LoadLocation("Europe/Budapest"); err == nil {
		return l
	}
	return time.UTC
}()

// groupDigits writes n with a thin space between groups of three digits, the Hungarian way.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u202f")
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// loadPages parses each page's templates: its "content" and, for a page that adds to the
// layout's head, its "head" (writePage writes the layout around them).
func loadPages() pages {
	p := pages{}
	for name := range titles {
		p[name] = template.Must(template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/"+name+".html"))
	}
	return p
}

// view is what the layout renders: the page's data and what every page shows.
type view struct {
	Page   string
	Title  string
	Viewer *viewer
	Flash  string
	Data   any
}

// render writes a page. A page is rendered into a buffer first, so a template error becomes a
// clean 500 rather than half a page.
func (d *dashboard) render(w http.ResponseWriter, r *http.Request, status int, name string, v *viewer, data any) {
	vw := view{Page: name, Title: titles[name], Viewer: v, Data: data}
	if v != nil {
		vw.Flash = d.sessions.PopString(r.Context(), keyFlash)
		var err error
		if v.Companies == nil { // a viewer not read by current
			if v.Companies, err = d.store.Memberships(r.Context(), v.ID); err != nil {
				d.serverError(w, r, err)
				return
			}
		}
	}
	buf := d.buffers.Get().(*bytes.Buffer)
	defer d.putBuffer(buf)
	if err := writePage(buf, d.pages[name], &vw); err != nil {
		d.serverError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// The page's length, known here, spares a page longer than net/http's buffer its chunked
	// framing, whose last chunk was a write of its own after the page.
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// maxPooledBuffer is the largest page buffer kept for the next page; a larger one (a lead
// with a long transcript) goes to the collector rather than staying held.
const maxPooledBuffer = 256 << 10

// putBuffer keeps a page buffer for the next page: growing a new one to a page's size, at
// every page, was a part of the lead page's allocations.
func (d *dashboard) putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	d.buffers.Put(b)
}

// e164 is a phone number in E.164, the only form a tel: link is made from.
var e164 = regexp.MustCompile(`^\+[1-9][0-9]{5,14}$`)

// telURL is the tel: link of an E.164 number, "" for anything else. html/template lets only
// http, https and mailto links through as they are, so a checked tel: link is marked safe here.
func telURL(phone string) template.URL {
	if !e164.MatchString(phone) {
		return ""
	}
	return template.URL("tel:" + phone)
}

// errorMessages are the error pages' sentences by status.
var errorMessages = map[int]string{
	http.StatusBadRequest:          "A kérés egyik értéke érvénytelen. Térjen vissza, és próbálja újra.",
	http.StatusNotFound:            "Ez az oldal nem létezik, vagy nem az Ön cégéhez tartozik.",
	http.StatusForbidden:           "Ehhez nincs jogosultsága. Ha más oldalról küldött űrlapot, térjen vissza a dashboardra, és próbálja újra onnan.",
	http.StatusInternalServerError: "Váratlan hiba történt. Kérjük, próbálja újra később.",
	http.StatusServiceUnavailable:  "A kérés most túl sokáig tartott. Kérjük, próbálja újra egy kicsit később, vagy szűkítse a keresést.",
}

// notOwner is the forbidden page's sentence for a member on an owner's page; the one in
// errorMessages is for a form sent from another site.
const notOwner = "Ezt az oldalt csak a cég tulajdonosai láthatják. Munkatársként az érdeklődőket " +
	"és a beszélgetéseket kezelheti; ha ehhez is hozzáférés kell, kérje a cég egyik tulajdonosát."

// errorPage answers with a Hungarian error page.
func (d *dashboard) errorPage(w http.ResponseWriter, r *http.Request, status int) {
	d.errorPageSaying(w, r, status, errorMessages[status])
}

// errorPageSaying answers with a Hungarian error page that says msg.
func (d *dashboard) errorPageSaying(w http.ResponseWriter, r *http.Request, status int, msg string) {
	var v *viewer
	if cur, ok, err := d.current(r); err == nil && ok {
		v = &cur
	}
	d.render(w, r, status, "error", v, struct {
		Status  int
		Message string
	}{status, msg})
}

// serverError logs err once and answers 500 without details. A request whose client went away
// is no server error: its answer reaches nobody, and nothing is logged.
func (d *dashboard) serverError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	// The route's pattern, never the path: a one-time link carries its token there.
	d.log.Error("dashboard", "err", err.Error(), "route", r.Pattern)
	var buf bytes.Buffer
	_ = writePage(&buf, d.pages["error"], &view{Page: "error", Title: titles["error"], Data: struct {
		Status  int
		Message string
	}{http.StatusInternalServerError, errorMessages[http.StatusInternalServerError]}})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	w.Write(buf.Bytes())
}

// staticHandler serves the embedded stylesheet and scripts.
func staticHandler() http.Handler {
	types := map[string]string{".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
	mux := http.NewServeMux()
	entries, _ := fs.ReadDir(staticFS, "static")
	for _, e := range entries {
		body, _ := fs.ReadFile(staticFS, "static/"+e.Name())
		ct := types[e.Name()[strings.LastIndex(e.Name(), "."):]]
		mux.Handle("GET /app/static/"+e.Name(), asset.Handler(body, asset.Options{ETag: true, Gzip: true,
			Header: map[string]string{"Content-Type": ct}}))
	}
	return mux
}

// templateLimits are the limits the pages show (in maxlength and in their texts), by name.
var templateLimits = map[string]int{
	"ProfileName": limits.ProfileNameLen, "ProfileDescription": limits.ProfileDescriptionLen,
	"ProfileField": limits.ProfileFieldLen, "Phone": limits.PhoneLen, "Email": limits.EmailLen,
	"WebhookURL": limits.WebhookURLLen, "QuickButtons": limits.QuickButtons, "Password": user.MinPasswordLen,
}
