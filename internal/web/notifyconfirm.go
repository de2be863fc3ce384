package web

import (
	"net/http"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/event"
)

// confirmData is the page of a new-lead e-mail address's confirmation link.
type confirmData struct {
	Email, Company string
	Confirmed      bool
	Error          string
}

const confirmInvalid = "Ez a megerősítő link érvénytelen, már felhasználták, vagy lejárt. " +
	"Ha továbbra is kéri az értesítéseket, kérje meg a cég dashboardjának tulajdonosát, hogy mentse el újra a címet."

// confirmPage asks the reader of a confirmation link to confirm with a button: a link opened
// by a mail scanner confirms nothing.
func (d *dashboard) confirmPage(w http.ResponseWriter, r *http.Request) {
	email, company, err := d.store.ConfirmLink(r.Context(), event.ConfirmHash(r.PathValue("token")))
	d.renderConfirm(w, r, confirmData{Email: email, Company: company}, err)
}

// confirmEmail confirms the address of the link: from now on it gets the new-lead e-mails.
func (d *dashboard) confirmEmail(w http.ResponseWriter, r *http.Request) {
	email, company, err := d.store.ConfirmNotifyEmail(r.Context(), event.ConfirmHash(r.PathValue("token")))
	d.renderConfirm(w, r, confirmData{Email: email, Company: company, Confirmed: true}, err)
}

func (d *dashboard) renderConfirm(w http.ResponseWriter, r *http.Request, data confirmData, err error) {
	w.Header().Set("Referrer-Policy", "no-referrer") // the token is in the address
	switch {
	case errs.Is(err, errs.NotFound):
		d.render(w, r, http.StatusNotFound, "confirm", nil, confirmData{Error: confirmInvalid})
	case err != nil:
		d.serverError(w, r, err)
	default:
		d.render(w, r, http.StatusOK, "confirm", nil, data)
	}
}
