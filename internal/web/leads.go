package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/csvexport"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/user"
)

// Leads are a company's leads as the dashboard reads and manages them (lead.All, which the
// export walks, takes a whole lead.Store).
type Leads interface {
	lead.Store
	LeadHistory(ctx context.Context, companyID, leadID uuid.UUID) ([]lead.HistoryEntry, error)
	AddLeadNote(ctx context.Context, companyID, leadID, authorID uuid.UUID, text string) (lead.InternalNote, error)
	LeadNotes(ctx context.Context, companyID, leadID uuid.UUID) ([]lead.InternalNote, error)
	// LeadFile returns what a lead's page shows, with up to related of the same person's
	// other leads, and the company's users (their ids and addresses).
	LeadFile(ctx context.Context, companyID, leadID uuid.UUID, related int) (lead.File, []user.User, error)
	// EraseLeads erases those of ids that are the company's leads, everything held on them
	// with them, and returns how many it erased.
	EraseLeads(ctx context.Context, companyID uuid.UUID, ids []uuid.UUID) (int, error)
	// ExportLeads calls each with every lead of the company that f selects, newest first, and
	// returns each's first error; a RateLimited error, before any call, when the company's
	// exports are all running already.
	ExportLeads(ctx context.Context, companyID uuid.UUID, f lead.Filter, each func(lead.Stored) error) error
}

// leadsPageSize is how many leads a page of the list shows.
const leadsPageSize = 50

// relatedShown is how many of the same person's other leads a lead's page lists.
const relatedShown = 50

// leadQuery is the list's filter as the form sends it, kept as text so the form shows it back.
type leadQuery struct {
	Status, Source, Month, Text string
	// Assignee is "mine" (the viewer's leads), "unassigned", or "" for every lead.
	Assignee string
}

// readLeadQuery reads the filter form's fields from the URL.
func readLeadQuery(r *http.Request) leadQuery {
	q := r.URL.Query()
	return leadQuery{Status: q.Get("status"), Source: q.Get("source"), Month: strings.TrimSpace(q.Get("month")),
		Text: strings.TrimSpace(q.Get("q")), Assignee: q.Get("assignee")}
}

// values is the query as URL parameters, empty fields left out.
func (q leadQuery) values() url.Values {
	v := url.Values{}
	for name, val := range map[string]string{"status": q.Status, "source": q.Source, "month": q.Month, "q": q.Text,
		"assignee": q.Assignee} {
		if val != "" {
			v.Set(name, val)
		}
	}
	return v
}

// filter is the query as a checked lead.Filter for the viewer; a month is a calendar month in
// Budapest time.
func (q leadQuery) filter(v viewer) (lead.Filter, error) {
	f := lead.Filter{Status: lead.Status(q.Status), Source: lead.Source(q.Source), Text: q.Text}
	switch q.Assignee {
	case "":
	case "mine":
		f.Assignee = v.ID
	case "unassigned":
		f.Unassigned = true
	default:
		return f, errs.Field(errs.CodeInvalidField, "assignee")
	}
	if q.Month != "" {
		m, err := time.ParseInLocation("2006-01", q.Month, budapest)
		if err != nil {
			return f, errs.Field(errs.CodeInvalidField, "month")
		}
		f.Since, f.Until = m, m.AddDate(0, 1, 0)
	}
	return f.Check()
}

// named is a value and its Hungarian name, as a filter's options show them.
type named struct{ Value, Name string }

// statusNames are the statuses with their names, in the order the filter offers them.
var statusNames = func() []named {
	var out []named
	for _, s := range lead.Statuses() {
		out = append(out, named{string(s), s.Name()})
	}
	return out
}()

// sourceNames are the sources with their names, in the order the filter offers them.
var sourceNames = func() []named {
	var out []named
	for _, s := range lead.Sources() {
		out = append(out, named{string(s), s.Name()})
	}
	return out
}()

type leadsData struct {
	Query    leadQuery
	Statuses []named
	Sources  []named
	// Rows are the page's leads as the table's rows.
	Rows template.HTML
	// Next is the next page's URL, "" on the last; First is the first page's, "" on it.
	Next, First string
	// CSV is the export of the current filter.
	CSV   string
	Error string
}

// leads lists the company's leads that the filter selects, one keyset page at a time.
func (d *dashboard) leads(w http.ResponseWriter, r *http.Request, v viewer) {
	q := readLeadQuery(r)
	data := leadsData{Query: q, Statuses: statusNames, Sources: sourceNames}
	query := q.values()
	data.CSV = "/app/leads.csv"
	if len(query) > 0 {
		data.CSV += "?" + query.Encode()
	}
	f, err := q.filter(v)
	if err != nil {
		data.Error = "A szűrő egyik értéke érvénytelen; javítsa, és keressen újra."
		d.render(w, r, http.StatusBadRequest, "leads", &v, data)
		return
	}
	f.Limit = leadsPageSize
	if after := r.URL.Query().Get("after"); after != "" {
		c, err := lead.ParseCursor(after, f)
		if err != nil {
			data.Error = "Ez a lapozási hivatkozás érvénytelen; kezdje az első oldallal."
			d.render(w, r, http.StatusBadRequest, "leads", &v, data)
			return
		}
		f.After = &c
		data.First = "/app/leads"
		if len(query) > 0 {
			data.First += "?" + query.Encode()
		}
	}
	page, err := d.store.ListLeads(r.Context(), v.CompanyID, f)
	if errs.Is(err, errs.Unavailable) { // the database is busy, or a search ran out of time
		data.Error = errorMessages[http.StatusServiceUnavailable]
		d.render(w, r, http.StatusServiceUnavailable, "leads", &v, data)
		return
	}
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	// The users' names are read only for a page that shows an assignee: a round trip to
	// PostgreSQL that a page of unassigned leads does not need.
	var users map[uuid.UUID]string
	if anyAssigned(page.Leads) {
		if users, err = d.userNames(r.Context(), v); err != nil {
			d.serverError(w, r, err)
			return
		}
	}
	data.Rows = leadRows(page.Leads, users)
	if page.Next != nil {
		next := q.values()
		next.Set("after", page.Next.Text(f))
		data.Next = "/app/leads?" + next.Encode()
	}
	d.render(w, r, http.StatusOK, "leads", &v, data)
}

// anyAssigned reports whether any of leads is given to a user.
func anyAssigned(leads []lead.Stored) bool {
	for i := range leads {
		if leads[i].AssigneeID != uuid.Nil {
			return true
		}
	}
	return false
}

// leadRows writes the list's table rows. They are written here rather than by the template: a
// template reaches every field and function of fifty rows by reflection, and escapes each value
// through a function called by reflection, which took more than half of the page's time. Every
// text is escaped with html/template's own escaper (safe in text and in quoted attributes); the
// id and the status are a UUID and a known word, and are escaped all the same.
func leadRows(leads []lead.Stored, users map[uuid.UUID]string) template.HTML {
	var b htmlWriter
	b.Grow(600 * len(leads))
	text := b.text
	for i := range leads {
		l := &leads[i]
		id := l.ID.String()
		b.WriteString("<tr data-lead=\"")
		text(id)
		b.WriteString("\">\n      <td><a href=\"/app/leads/")
		text(id)
		b.WriteString("\">")
		if name := l.DisplayName(); name != "" {
			text(name)
		} else {
			b.WriteString("(név nélkül)")
		}
		b.WriteString("</a></td>\n      <td>")
		if l.Email != "" {
			b.WriteString(`<span class="mono">`)
			text(l.Email)
			b.WriteString("</span>")
			if l.Phone != "" {
				b.WriteString("<br>")
			}
		}
		text(l.Phone)
		b.WriteString("</td>\n      <td>")
		text(l.Service)
		b.WriteString("</td>\n      <td>")
		text(l.Source.Name())
		b.WriteString("</td>\n      <td><span class=\"badge status-")
		text(string(l.Status))
		b.WriteString("\">")
		text(l.Status.Name())
		b.WriteString("</span>")
		if l.OverLimit && l.Status != lead.StatusOverLimit { // came in past the limit, moved on since
			b.WriteString(` <span class="badge status-over_limit">kereten felül</span>`)
		}
		b.WriteString("</td>\n      <td>")
		if l.AssigneeID != uuid.Nil {
			text(users[l.AssigneeID])
		} else {
			b.WriteString("–")
		}
		b.WriteString("</td>\n      <td>")
		b.date(l.CreatedAt)
		b.WriteString("</td>\n    </tr>\n    ")
	}
	return b.html()
}

type leadData struct {
	Lead     lead.Stored
	Messages []lead.Message
	History  []lead.HistoryEntry
	// Users are the company's users, whom the lead may be given to; Names their names by id,
	// for the history, which keeps ids.
	Users []user.User
	Names map[uuid.UUID]string
	Notes []lead.InternalNote
	// Related are the same person's other leads (same address or E.164 number), newest first.
	Related []lead.Stored
	// Timeline is the history with the notes among the changes, in time order.
	Timeline []timelineEntry
	// NoteText is a refused note's text, shown back in its form with NoteError.
	NoteText, NoteError string
	NoteMax             int
}

// timelineEntry is a row of the lead's history: a change, or a note written then.
type timelineEntry struct {
	lead.HistoryEntry
	Note *lead.InternalNote
}

// timeline puts the notes among the changes by time, a change first at the same instant.
func timeline(hist []lead.HistoryEntry, notes []lead.InternalNote) []timelineEntry {
	out := make([]timelineEntry, 0, len(hist)+len(notes))
	i, j := 0, 0
	for i < len(hist) || j < len(notes) {
		if j == len(notes) || (i < len(hist) && !notes[j].At.Before(hist[i].At)) {
			out = append(out, timelineEntry{HistoryEntry: hist[i]})
			i++
			continue
		}
		out = append(out, timelineEntry{HistoryEntry: lead.HistoryEntry{At: notes[j].At}, Note: &notes[j]})
		j++
	}
	return out
}

// lead shows one of the company's leads: its fields, referral data, consent, chat, notes and
// history.
func (d *dashboard) lead(w http.ResponseWriter, r *http.Request, v viewer) { d.showLead(w, r, v, nil) }

// showLead shows the lead of the request's path, with a refused note back in its form.
func (d *dashboard) showLead(w http.ResponseWriter, r *http.Request, v viewer, refused *refusedNote) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	var (
		f     lead.File
		users []user.User
		err   error
	)
	if pf, ok := prefetchedFile(r, v, id); ok {
		f, users = pf.f, pf.users
	} else {
		f, users, err = d.store.LeadFile(r.Context(), v.CompanyID, id, relatedShown)
	}
	if errs.Is(err, errs.NotFound) {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	l, msgs, hist, notes, related := f.Lead, f.Messages, f.History, f.Notes, f.Related
	data := leadData{Lead: l, Messages: msgs, History: hist, Related: related,
		Users: users, Names: namesOf(users), Notes: notes, Timeline: timeline(hist, notes), NoteMax: limits.NoteLen}
	status := http.StatusOK
	if refused != nil {
		data.NoteText, data.NoteError, status = refused.text, refused.message, http.StatusUnprocessableEntity
	}
	d.render(w, r, status, "lead", &v, &data) // the content is data's own (writeContent)
}

// refusedNote is a note the lead page shows back in its form, with why it was refused.
type refusedNote struct{ text, message string }

// addNote keeps an internal note on one of the company's leads, written by the viewer; owners
// and members may. A refused note is shown back on the lead's page with the reason.
func (d *dashboard) addNote(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	text := r.PostFormValue("note")
	_, err := d.store.AddLeadNote(r.Context(), v.CompanyID, id, v.ID, text)
	if err != nil && errs.Is(err, errs.Invalid) {
		msg := fmt.Sprintf("A jegyzet 1–%s karakter lehet, sortöréseken kívül vezérlőkarakter nélkül.", groupDigits(limits.NoteLen))
		d.showLead(w, r, v, &refusedNote{text: text, message: msg})
		return
	}
	d.done(w, r, err, "A jegyzet mentve.", "/app/leads/"+id.String()+"#notes-title")
}

// userNames are the company's users' names (their e-mail addresses) by id.
func (d *dashboard) userNames(ctx context.Context, v viewer) (map[uuid.UUID]string, error) {
	users, err := d.store.Users(ctx, v.CompanyID)
	if err != nil {
		return nil, err
	}
	return namesOf(users), nil
}

func namesOf(users []user.User) map[uuid.UUID]string {
	names := make(map[uuid.UUID]string, len(users))
	for _, u := range users {
		names[u.ID] = u.Email
	}
	return names
}

// assign gives one of the company's leads to one of its users, or to nobody; owners and
// members may. A user who is not the company's (another company's, removed meanwhile) is
// refused with the page's message, and nothing changes.
func (d *dashboard) assign(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	u := lead.Update{Assign: true}
	if a := strings.TrimSpace(r.PostFormValue("assignee")); a != "" {
		who, err := uuid.Parse(a)
		if err != nil {
			d.errorPage(w, r, http.StatusBadRequest)
			return
		}
		u.Assignee = who
	}
	err := d.store.UpdateLead(r.Context(), v.CompanyID, id, u, lead.OriginDashboard)
	if err != nil && errs.As(err).Code == errs.CodeInvalidAssignee {
		d.flash(r.Context(), "Ez a felhasználó nem tartozik a céghez (talán közben eltávolították); válasszon mást.")
		http.Redirect(w, r, "/app/leads/"+id.String(), http.StatusSeeOther)
		return
	}
	msg := "Az érdeklődő most senkihez sincs rendelve."
	if u.Assignee != uuid.Nil {
		names, nerr := d.userNames(r.Context(), v)
		if nerr == nil {
			msg = "Az érdeklődő felelőse mostantól: " + names[u.Assignee] + "."
		}
	}
	d.done(w, r, err, msg, "/app/leads/"+id.String())
}

// setStatus moves one of the company's leads to a lifecycle status; owners and members may.
func (d *dashboard) setStatus(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	status := lead.Status(r.PostFormValue("status"))
	if !status.Lifecycle() {
		d.errorPage(w, r, http.StatusBadRequest)
		return
	}
	err := d.store.SetLeadStatus(r.Context(), v.CompanyID, id, status, lead.OriginDashboard)
	d.done(w, r, err, "Az állapot mentve: "+status.Name()+".", "/app/leads/"+id.String())
}

// eraseLead answers a person's request to be forgotten: it erases one of the company's leads
// with its conversation, history and what its events' receivers answered, as the API's DELETE
// and `leads erase` do. Owners only, and only with the confirmation box ticked.
func (d *dashboard) eraseLead(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	if r.PostFormValue("confirm") != "on" {
		d.flash(r.Context(), "A törléshez jelölje be, hogy az érdeklődő minden adata véglegesen törlődik.")
		http.Redirect(w, r, "/app/leads/"+id.String(), http.StatusSeeOther)
		return
	}
	n, err := d.store.EraseLeads(r.Context(), v.CompanyID, []uuid.UUID{id})
	if err == nil && n == 0 {
		err = errs.E(errs.NotFound, errs.CodeLeadNotFound)
	}
	d.done(w, r, err, "Az érdeklődő és minden hozzá tartozó adat (beszélgetés, előzmények) véglegesen törölve.", "/app/leads")
}

// lifecycleNames are the statuses a company may move a lead to.
func lifecycleNames() []named {
	var out []named
	for _, n := range statusNames {
		if lead.Status(n.Value).Lifecycle() {
			out = append(out, n)
		}
	}
	return out
}

// exportsBusy answers an export past the company's limit.
var exportsBusy = fmt.Sprintf("Cégenként egyszerre legfeljebb %d exportálás futhat. Várja meg, amíg egy befejeződik, és próbálja újra.",
	limits.ExportsPerCompany)

// leadsCSV streams the leads the filter selects as CSV, a page of the store at a time, so
// memory stays flat however many there are. Cells go through csvexport, which keeps a
// spreadsheet from running what a visitor typed.
//
// An export runs to its end, however long: it clears the server's read and write deadlines for
// its connection (net/http clears the read deadline itself once the request's body is read; one
// left would cancel the request when it passed) and leaves the request's deadline behind, while
// still stopping when its client goes away or takes in nothing for exportStall. It is never cut
// silently either: once rows are out the status cannot change, so an export that fails midway
// aborts the response, and the client sees a broken download, not a short file.
func (d *dashboard) leadsCSV(w http.ResponseWriter, r *http.Request, v viewer) {
	f, err := readLeadQuery(r).filter(v)
	if err != nil {
		d.errorPage(w, r, http.StatusBadRequest)
		return
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	out := stallWriter{w: w, rc: rc}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	defer context.AfterFunc(r.Context(), func() {
		if !errors.Is(r.Context().Err(), context.DeadlineExceeded) { // the client is gone
			cancel()
		}
	})()

	var cw *csvexport.LeadWriter
	begin := func() {
		h := w.Header()
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="erdeklodok.csv"`)
		cw = csvexport.NewLeadWriter(out)
	}
	err = d.store.ExportLeads(ctx, v.CompanyID, f, func(l lead.Stored) error {
		if cw == nil {
			begin()
		}
		return cw.Write(l)
	})
	switch {
	case cw == nil && errs.Is(err, errs.RateLimited):
		d.errorPageSaying(w, r, http.StatusTooManyRequests, exportsBusy)
		return
	case cw == nil && errs.Is(err, errs.Unavailable):
		d.errorPage(w, r, http.StatusServiceUnavailable)
		return
	case cw == nil && err != nil:
		d.serverError(w, r, err)
		return
	case cw == nil:
		begin() // no lead: the header row alone
	}
	if err == nil {
		err = cw.Flush()
	}
	if err != nil {
		if ctx.Err() == nil { // else the client left: nothing went wrong here
			d.log.Error("dashboard export cut short", "err", err.Error(), "route", r.Pattern)
		}
		panic(http.ErrAbortHandler)
	}
}

// exportStall is how long an export waits for its client to take in a write: a client that
// stops reading, but keeps its connection open, would otherwise hold the export's database
// connection and one of its company's export slots for ever.
const exportStall = 2 * time.Minute

// stallWriter gives each write to w exportStall to complete.
type stallWriter struct {
	w  io.Writer
	rc *http.ResponseController
}

func (s stallWriter) Write(p []byte) (int, error) {
	_ = s.rc.SetWriteDeadline(time.Now().Add(exportStall))
	return s.w.Write(p)
}

// historyFieldNames are the Hungarian names of the fields a lead's history records.
var historyFieldNames = map[lead.Field]string{
	lead.FieldFirstName: "utónév", lead.FieldLastName: "családnév", lead.FieldEmail: "e-mail",
	lead.FieldPhone: "telefon", lead.FieldStatus: "állapot", lead.FieldService: "szolgáltatás",
	lead.FieldNote: "megjegyzés", lead.FieldConsent: "hozzájárulás", lead.FieldAssignee: "felelős",
}

func fieldName(f lead.Field) string {
	if n, ok := historyFieldNames[f]; ok {
		return n
	}
	return string(f)
}

// originNames are the Hungarian names of where a change came from.
var originNames = map[lead.Origin]string{
	lead.OriginForm: "űrlap", lead.OriginText: "csevegőüzenet", lead.OriginModel: "MI-javaslat",
	lead.OriginAPI: "API", lead.OriginDashboard: "dashboard", lead.OriginCLI: "parancssor",
}

func originName(o lead.Origin) string {
	if n, ok := originNames[o]; ok {
		return n
	}
	return string(o)
}
