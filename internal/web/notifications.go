package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/event"
	"github.com/leadchat/leadchat/internal/limits"
	"github.com/leadchat/leadchat/internal/webhook"
)

// Notifications are a company's lead events as the dashboard manages them: webhook endpoints
// with their delivery logs, and the new-lead e-mail's addresses. Adding an endpoint and
// rotating its secret go through webhook.Add and webhook.Rotate, as the admin commands do.
type Notifications interface {
	webhook.Endpoints
	Endpoints(ctx context.Context, companyID uuid.UUID) ([]event.Endpoint, error)
	Endpoint(ctx context.Context, companyID, endpointID uuid.UUID) (event.Endpoint, error)
	RemoveEndpoint(ctx context.Context, companyID, endpointID uuid.UUID) error
	EnableEndpoint(ctx context.Context, companyID, endpointID uuid.UUID) (event.Endpoint, error)
	DeliveriesBefore(ctx context.Context, companyID, endpointID uuid.UUID, before event.Cursor, limit int) ([]event.Record, error)
	Redeliver(ctx context.Context, companyID, deliveryID uuid.UUID) error
	NotifyEmails(ctx context.Context, companyID uuid.UUID) ([]string, error)
	NotifyAddresses(ctx context.Context, companyID uuid.UUID) ([]event.NotifyAddress, error)
	SetNotifyEmails(ctx context.Context, companyID uuid.UUID, emails []string) error
	ConfirmLink(ctx context.Context, hash []byte) (email, company string, err error)
	ConfirmNotifyEmail(ctx context.Context, hash []byte) (email, company string, err error)
}

// deliveriesPageSize is how many deliveries a page of a delivery log shows.
const deliveriesPageSize = 50

// typeNames are the event types' Hungarian descriptions, in the order the form offers them.
var typeNames = []struct {
	Type event.Type
	Name string
}{
	{event.LeadCreated, "új érdeklődő"},
	{event.LeadUpdated, "érdeklődő módosult (elérhetőség vagy állapot)"},
	{event.LeadErased, "érdeklődő törölve"},
}

type notificationsData struct {
	Endpoints []event.Endpoint
	Types     []struct {
		Type event.Type
		Name string
	}
	Emails string
	// Addresses are the stored addresses with whether each is confirmed; MaxEmails and
	// DailyCap the limits the form states.
	Addresses           []event.NotifyAddress
	MaxEmails, DailyCap int
	// Secret is a signing secret just made (SecretFor the endpoint's URL), shown this once;
	// Rotated says it replaced one, which keeps signing until GraceUntil.
	Secret, SecretFor string
	Rotated           bool
	GraceUntil        time.Time
	Error             string
	// Form is what was typed into the add form, after an error.
	URL    string
	Picked map[event.Type]bool
}

func (d *dashboard) notifications(w http.ResponseWriter, r *http.Request, v viewer) {
	d.renderNotifications(w, r, v, http.StatusOK, notificationsData{})
}

// renderNotifications shows the page with data's message, secret or form; the e-mail field
// shows the stored addresses unless data brings back what was typed.
func (d *dashboard) renderNotifications(w http.ResponseWriter, r *http.Request, v viewer, status int, data notificationsData) {
	ctx := r.Context()
	eps, err := d.store.Endpoints(ctx, v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	addrs, err := d.store.NotifyAddresses(ctx, v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	data.Addresses, data.MaxEmails, data.DailyCap = addrs, limits.NotifyEmails, limits.LeadEmailsPerDay
	if data.Emails == "" {
		emails := make([]string, len(addrs))
		for i, a := range addrs {
			emails[i] = a.Email
		}
		data.Emails = strings.Join(emails, "\n")
	}
	data.Endpoints, data.Types = eps, typeNames
	d.render(w, r, status, "notifications", &v, data)
}

// addWebhook stores an endpoint and shows its secret in this response only.
func (d *dashboard) addWebhook(w http.ResponseWriter, r *http.Request, v viewer) {
	if err := r.ParseForm(); err != nil {
		d.errorPage(w, r, http.StatusBadRequest)
		return
	}
	url := strings.TrimSpace(r.PostFormValue("url"))
	types := r.PostForm["event"]
	ep, secret, err := webhook.Add(r.Context(), d.store, v.CompanyID, url, types, d.allowPrivateWebhooks)
	if err != nil {
		picked := map[event.Type]bool{}
		for _, t := range types {
			picked[event.Type(t)] = true
		}
		form := notificationsData{URL: url, Picked: picked}
		switch {
		case errors.Is(err, webhook.ErrBadURL):
			form.Error = fmt.Sprintf("Érvénytelen webhook-cím. Adjon meg egy teljes https:// címet (például https://pelda.hu/leadchat), "+
				"felhasználónév és jelszó nélkül, legfeljebb %d karakterben.", limits.WebhookURLLen)
		case errors.Is(err, webhook.ErrSpecialTarget):
			form.Error = "Ez a cím nem használható webhookként: belső, helyi, dokumentációs vagy más különleges célú IP-címre mutat. " +
				"Adjon meg egy nyilvános címet."
		case errors.Is(err, event.ErrTooManyEndpoints):
			form.Error = fmt.Sprintf("Egy cégnek legfeljebb %d webhookja lehet. Új hozzáadása előtt távolítson el egyet.", limits.WebhookEndpoints)
		case errors.Is(err, event.ErrUnknownType):
			form.Error = "Ismeretlen eseménytípus; válasszon a felsoroltak közül."
		default:
			d.serverError(w, r, err)
			return
		}
		d.renderNotifications(w, r, v, http.StatusUnprocessableEntity, form)
		return
	}
	d.renderNotifications(w, r, v, http.StatusCreated, notificationsData{Secret: secret, SecretFor: ep.URL})
}

// rotateWebhook gives an endpoint a new secret, shown in this response only; the old one
// signs beside it for webhook.RotationGrace.
func (d *dashboard) rotateWebhook(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	ep, secret, err := webhook.Rotate(r.Context(), d.store, v.CompanyID, id, webhook.RotationGrace)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	data := notificationsData{Secret: secret, SecretFor: ep.URL, Rotated: true}
	if ep.PreviousUntil != nil {
		data.GraceUntil = *ep.PreviousUntil
	}
	d.renderNotifications(w, r, v, http.StatusOK, data)
}

func (d *dashboard) removeWebhook(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	ep, err := d.store.Endpoint(r.Context(), v.CompanyID, id)
	if err == nil {
		err = d.store.RemoveEndpoint(r.Context(), v.CompanyID, id)
	}
	d.done(w, r, err, "A(z) "+ep.URL+" webhook eltávolítva, a kézbesítési naplójával együtt.", "/app/notifications")
}

func (d *dashboard) enableWebhook(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	ep, err := d.store.EnableEndpoint(r.Context(), v.CompanyID, id)
	d.done(w, r, err, "A(z) "+ep.URL+" webhook újra bekapcsolva: a mostantól történő események eljutnak hozzá.", "/app/notifications")
}

// saveEmails replaces the new-lead e-mail's addresses: one a line (commas also accepted),
// checked as `leadchat notify set` checks them; none turns the e-mail off.
func (d *dashboard) saveEmails(w http.ResponseWriter, r *http.Request, v viewer) {
	typed := r.PostFormValue("emails")
	emails, err := event.NotifyAddresses(domainLines(typed))
	var bad *event.EmailError
	if errors.Is(err, event.ErrTooManyEmails) {
		d.renderNotifications(w, r, v, http.StatusUnprocessableEntity, notificationsData{Emails: typed,
			Error: fmt.Sprintf("Legfeljebb %d e-mail-cím adható meg.", limits.NotifyEmails)})
		return
	}
	if errors.As(err, &bad) {
		d.renderNotifications(w, r, v, http.StatusUnprocessableEntity, notificationsData{Emails: typed,
			Error: "Érvénytelen e-mail-cím: „" + bad.Address + "”. Soronként egy címet adjon meg, név nélkül (például ertekesites@pelda.hu)."})
		return
	}
	if err == nil {
		err = d.store.SetNotifyEmails(r.Context(), v.CompanyID, emails)
	}
	msg := "Az új érdeklődőkről nem megy e-mail."
	if len(emails) > 0 {
		msg = "Új érdeklődőnként e-mail megy ide: " + strings.Join(emails, ", ") + ". " +
			"Az új címekre először megerősítő levelet küldünk: egy cím a benne lévő link megnyitása után kapja a leveleket " +
			"(a tulajdonosok saját belépési címe megerősítés nélkül)."
	}
	d.done(w, r, err, msg, "/app/notifications")
}

type deliveriesData struct {
	Endpoint   event.Endpoint
	Deliveries []event.Record
	// Next is the next page's URL, "" on the last; First is the first page's, "" on it.
	Next, First string
	Error       string
}

// deliveries is an endpoint's delivery log, newest first, one keyset page at a time.
func (d *dashboard) deliveries(w http.ResponseWriter, r *http.Request, v viewer) {
	d.renderDeliveries(w, r, v, http.StatusOK, "")
}

func (d *dashboard) renderDeliveries(w http.ResponseWriter, r *http.Request, v viewer, status int, msg string) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	ep, err := d.store.Endpoint(r.Context(), v.CompanyID, id)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	data := deliveriesData{Endpoint: ep, Error: msg}
	base := "/app/notifications/webhooks/" + ep.ID.String()
	var before event.Cursor
	if s := r.URL.Query().Get("before"); s != "" {
		if before, ok = parseDeliveryCursor(s); !ok {
			data.Error = "Ez a lapozási hivatkozás érvénytelen; kezdje az első oldallal."
			d.render(w, r, http.StatusBadRequest, "deliveries", &v, data)
			return
		}
		data.First = base
	}
	list, err := d.store.DeliveriesBefore(r.Context(), v.CompanyID, ep.ID, before, deliveriesPageSize+1)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	if len(list) > deliveriesPageSize {
		list = list[:deliveriesPageSize]
		data.Next = base + "?before=" + deliveryCursor(list[len(list)-1].Next())
	}
	data.Deliveries = list
	d.render(w, r, status, "deliveries", &v, data)
}

// deliveryCursor writes a cursor for a URL: the microseconds since 1970 (PostgreSQL's
// precision, so it reads back exactly) and the id.
func deliveryCursor(c event.Cursor) string {
	return strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "_" + c.ID.String()
}

func parseDeliveryCursor(s string) (event.Cursor, bool) {
	micros, id, ok := strings.Cut(s, "_")
	n, err1 := strconv.ParseInt(micros, 10, 64)
	u, err2 := uuid.Parse(id)
	if !ok || err1 != nil || err2 != nil || n <= 0 {
		return event.Cursor{}, false
	}
	return event.Cursor{CreatedAt: time.UnixMicro(n).UTC(), ID: u}, true
}

// redeliver sends a settled delivery of the endpoint again, with the same webhook-id. One still
// on its way cannot be: the log says so (409).
func (d *dashboard) redeliver(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok1 := formUUID(r, "id")
	did, ok2 := formUUID(r, "delivery")
	if !ok1 || !ok2 {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	if _, err := d.store.Endpoint(r.Context(), v.CompanyID, id); err != nil {
		d.fail(w, r, err)
		return
	}
	err := d.store.Redeliver(r.Context(), v.CompanyID, did)
	if errors.Is(err, event.ErrPending) {
		d.renderDeliveries(w, r, v, http.StatusConflict, "Ez a kézbesítés még folyamatban van (újrapróbálásra vár); újraküldeni a lezárulta után lehet.")
		return
	}
	d.done(w, r, err, "A kézbesítés újra sorba állítva, ugyanazzal a webhook-id fejléccel; pár másodperc múlva frissítse az oldalt.",
		"/app/notifications/webhooks/"+id.String())
}

// badge is a state as the pages show it: a class for its colour, and its words.
type badge struct{ Class, Text string }

// webhookState is an endpoint's state as the list shows it.
func webhookState(e event.Endpoint) badge {
	switch {
	case e.DisabledAt != nil:
		return badge{"off", "kikapcsolva " + formatDate(*e.DisabledAt) + disabledWhy(e.DisabledReason)}
	case e.Failing:
		return badge{"fail", "hibás: a legutóbbi kézbesítés nem sikerült"}
	}
	return badge{"on", "aktív"}
}

// disabledWhy words why an endpoint was disabled: a 410 answer is the only reason today.
func disabledWhy(reason string) string {
	var code int
	if _, err := fmt.Sscanf(reason, "answered %d", &code); err == nil {
		return fmt.Sprintf(" (a fogadó %d-es választ adott)", code)
	}
	return ""
}

// deliveryState is a delivery's state as the log shows it.
func deliveryState(s event.State) badge {
	switch s {
	case event.Delivered:
		return badge{"on", "kézbesítve"}
	case event.Failed:
		return badge{"fail", "sikertelen"}
	}
	return badge{"off", "folyamatban"}
}

// typeName is an event type's Hungarian description.
func typeName(t event.Type) string {
	for _, n := range typeNames {
		if n.Type == t {
			return n.Name
		}
	}
	return string(t)
}

// typesName lists an endpoint's event types, or says it takes every one.
func typesName(ts []event.Type) string {
	if len(ts) == 0 {
		return "minden esemény"
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = typeName(t)
	}
	return strings.Join(names, "; ")
}

// attemptErrors word, in Hungarian, why an attempt got no answer: the delivery log keeps the
// sender's own (English, technical) text, which the admin command prints and the page does not.
var attemptErrors = []struct{ has, say string }{
	{"lead was erased", "az érdeklődőt időközben törölték, így nem küldtük el"},
	{"endpoint is disabled", "a webhook ki volt kapcsolva"},
	{"no answer in time", "nem válaszolt időben (10 másodperc)"},
	{"refused:", "tiltott cím: webhook nem csatlakozhat helyi vagy privát hálózati címre"},
	{"must be https", "a cím nem https"},
	{"connection refused", "a fogadó elutasította a kapcsolatot"},
	{"no such host", "a gépnév nem található (DNS)"},
	{"certificate", "a fogadó TLS-tanúsítványa nem ellenőrizhető"},
	{"tls", "TLS-hiba a kapcsolat felépítésekor"},
	{"connection reset", "a fogadó bontotta a kapcsolatot"},
	{"EOF", "a fogadó válasz nélkül bontotta a kapcsolatot"},
}

// attemptError is why an attempt got no answer, in Hungarian.
func attemptError(s string) string {
	for _, e := range attemptErrors {
		if strings.Contains(s, e.has) {
			return e.say
		}
	}
	return "a kapcsolat nem jött létre"
}
