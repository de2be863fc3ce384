package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/user"
)

type teamData struct {
	Users []user.User
	// Link is a new user's one-time link, shown this once.
	Link, LinkEmail string
	// Sent says what became of the invitation e-mail: "sent", "failed", or "" when no SMTP
	// server is set (the owner copies the link).
	Sent        string
	Error       string
	Email, Role string
}

func (d *dashboard) team(w http.ResponseWriter, r *http.Request, v viewer) {
	d.renderTeam(w, r, v, http.StatusOK, teamData{Role: string(user.Member)})
}

func (d *dashboard) renderTeam(w http.ResponseWriter, r *http.Request, v viewer, status int, data teamData) {
	users, err := d.store.Users(r.Context(), v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	data.Users = users
	d.render(w, r, status, "team", &v, data)
}

// invite makes an address a member of the company with a one-time link, shown in this response
// only. An address with an account elsewhere gets the same answer, link and page: its link only
// brings it to the dashboard (its password stays), so nothing here tells the company that the
// address is known.
func (d *dashboard) invite(w http.ResponseWriter, r *http.Request, v viewer) {
	email, roleName := strings.TrimSpace(r.PostFormValue("email")), r.PostFormValue("role")
	role, err := user.ParseRole(roleName)
	if err != nil {
		d.renderTeam(w, r, v, http.StatusUnprocessableEntity, teamData{Email: email, Role: roleName, Error: "Válasszon szerepkört."})
		return
	}
	u, token, err := user.Create(r.Context(), d.store, v.CompanyID, email, role, "")
	switch {
	case errors.Is(err, user.ErrInvalidEmail):
		d.renderTeam(w, r, v, http.StatusUnprocessableEntity, teamData{Email: email, Role: roleName, Error: "Adjon meg egy érvényes e-mail-címet."})
		return
	case errors.Is(err, user.ErrEmailTaken):
		d.renderTeam(w, r, v, http.StatusConflict, teamData{Email: email, Role: roleName,
			Error: "Ez az e-mail-cím már tagja a cégnek."})
		return
	case err != nil:
		d.serverError(w, r, err)
		return
	}
	link := d.baseURL(r) + "/app/password/" + token
	data := teamData{Link: link, LinkEmail: u.Email, Role: string(user.Member)}
	if d.invitations != nil {
		data.Sent = "sent"
		if err := d.invitations.Invite(r.Context(), u.Email, v.Company.Name, link); err != nil {
			d.log.Warn("the invitation e-mail was not sent", "error", err.Error())
			data.Sent = "failed"
		}
	}
	d.renderTeam(w, r, v, http.StatusCreated, data)
}

// setRoundRobin turns the round-robin assignment of new leads on or off.
func (d *dashboard) setRoundRobin(w http.ResponseWriter, r *http.Request, v viewer) {
	on := r.PostFormValue("round_robin") == "on"
	_, err := d.store.UpdateCompany(r.Context(), v.CompanyID, company.Changes{RoundRobin: &on})
	msg := "Az új érdeklődők kiosztatlanul érkeznek."
	if on {
		msg = "Az új érdeklődőket mostantól sorban kapják a csapat tagjai."
	}
	d.done(w, r, err, msg, "/app/team")
}

// removeUser removes a user of the viewer's company; their sessions end with their next
// request. Owners cannot remove themselves, so a company always keeps an owner here.
func (d *dashboard) removeUser(w http.ResponseWriter, r *http.Request, v viewer) {
	id, ok := formUUID(r, "id")
	if !ok {
		d.errorPage(w, r, http.StatusNotFound)
		return
	}
	if id == v.ID {
		d.renderTeam(w, r, v, http.StatusUnprocessableEntity, teamData{Role: string(user.Member),
			Error: "Saját magát nem távolíthatja el; ezt egy másik tulajdonos teheti meg."})
		return
	}
	u, err := d.store.RemoveCompanyUser(r.Context(), v.CompanyID, id)
	d.done(w, r, err, u.Email+" eltávolítva; a munkamenetei a következő kérésükkel véget érnek.", "/app/team")
}
