package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/lead"
)

// A page opened without a session goes to the login, and the login back to that page: a page
// of the dashboard only, whatever the link or the form says.
func TestLoginReturnsToThePage(t *testing.T) {
	t.Parallel()
	f := start(t)
	l := lead.Lead{ID: lead.NewID(), FirstName: "Péter", LastName: "Kovács", Email: "kovacs.peter@pelda.hu", Source: lead.SourceForm}
	if _, err := f.store.CreateLead(t.Context(), f.a.ID, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	page := "/app/leads/" + l.ID.String() + "?from=mail"

	t.Run("the e-mail's link through the login to the lead", func(t *testing.T) {
		c := f.client(t)
		r := c.get(page)
		if r.status != http.StatusSeeOther || r.location != "/app/login?next="+url.QueryEscape(page) {
			t.Fatalf("anonymous GET %s: %d %s", page, r.status, r.location)
		}
		form := c.get(r.location)
		if !strings.Contains(form.body, `name="next" value="`+strings.ReplaceAll(page, "&", "&amp;")+`"`) {
			t.Fatalf("the login form does not carry the page back:\n%s", form.body)
		}
		r = c.post("/app/login", url.Values{"email": {f.member}, "password": {password}, "next": {page}})
		if r.status != http.StatusSeeOther || r.location != page {
			t.Fatalf("login: %d %s, want %s", r.status, r.location, page)
		}
		if r := c.get(page); r.status != http.StatusOK || !strings.Contains(r.body, "Kovács Péter") {
			t.Fatalf("the lead after the login: %d", r.status)
		}
	})

	t.Run("a wrong password keeps the page to return to", func(t *testing.T) {
		c := f.client(t)
		r := c.post("/app/login", url.Values{"email": {f.owner}, "password": {"rossz jelszó 123"}, "next": {page}})
		if r.status != http.StatusUnauthorized || !strings.Contains(r.body, `name="next"`) {
			t.Fatalf("a wrong password: %d", r.status)
		}
	})

	t.Run("a form sent without a session is not returned to", func(t *testing.T) {
		r := f.client(t).post("/app/leads/"+l.ID.String()+"/status", url.Values{"status": {"won"}})
		if r.status != http.StatusSeeOther || r.location != "/app/login" {
			t.Fatalf("anonymous POST: %d %s", r.status, r.location)
		}
	})

	attacks := []string{
		"//evil.example/app/", "https://evil.example/app/leads", "/\\evil.example/app/", "/app/\\..\\evil",
		"http:/app/leads", "javascript:alert(1)", "/app/login", "/app/logout", "/app/../login", "/app/..",
		"/apps", "app/leads", "/app/\r\nSet-Cookie: x=1", "/app/%2F%2Fevil.example", " /app/leads", "",
	}
	for _, next := range attacks {
		t.Run("next "+next, func(t *testing.T) {
			c := f.client(t)
			r := c.post("/app/login", url.Values{"email": {f.owner}, "password": {password}, "next": {next}})
			if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/app/") ||
				strings.HasPrefix(r.location, "/app/login") || strings.ContainsAny(r.location, "\\\r\n") {
				t.Fatalf("login with next %q: %d %q", next, r.status, r.location)
			}
			if u, err := url.Parse(r.location); err != nil || u.Host != "" || u.Scheme != "" {
				t.Fatalf("login with next %q went to %q", next, r.location)
			}
			// Logged in, the login page sends on at once, as carefully.
			if r := c.get("/app/login?next=" + url.QueryEscape(next)); r.status != http.StatusSeeOther ||
				!strings.HasPrefix(r.location, "/app/") || strings.HasPrefix(r.location, "//") {
				t.Fatalf("logged in, GET /app/login?next=%q: %d %q", next, r.status, r.location)
			}
		})
	}
}

// userID is the id of one of company A's users by address.
func (f *fixture) userID(t *testing.T, email string) string {
	t.Helper()
	users, err := f.store.Users(t.Context(), f.a.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.Email == email {
			return u.ID.String()
		}
	}
	t.Fatalf("no user %s", email)
	return ""
}

// A member gives a lead to themself and to nobody; the list filters "mine" and "unassigned";
// another company's user is refused and nothing changes; the history names the users.
func TestAssignFromTheLeadPage(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	member := f.client(t)
	member.login(f.member)
	page := "/app/leads/" + f.chat.ID.String()
	memberID := f.userID(t, f.member)

	if r := member.get(page); r.status != http.StatusOK || !strings.Contains(r.body, `action="`+page+`/assignee"`) ||
		!strings.Contains(r.body, f.owner) {
		t.Fatalf("the lead page lacks the assignment form: %d", r.status)
	}
	if r := member.post(page+"/assignee", url.Values{"assignee": {memberID}}); r.status != http.StatusSeeOther || r.location != page {
		t.Fatalf("assign: %d %s", r.status, r.location)
	}
	r := member.get(page)
	if !strings.Contains(r.body, "Az érdeklődő felelőse mostantól: "+f.member) {
		t.Errorf("no notice of the assignment")
	}
	list := member.get("/app/leads?assignee=mine").body
	mine := rows(list)
	if len(mine) != 1 || mine[0] != f.chat.ID.String() {
		t.Errorf("mine = %v, want the one lead", mine)
	}
	if !strings.Contains(list, "<td>"+f.member+"</td>") {
		t.Errorf("the list does not name the lead's assignee:\n%s", list)
	}
	if un := rows(member.get("/app/leads?assignee=unassigned").body); len(un) != 50 || slices.Contains(un, f.chat.ID.String()) {
		t.Errorf("unassigned: %d rows, the assigned lead among them: %v", len(un), slices.Contains(un, f.chat.ID.String()))
	}
	if r := member.get("/app/leads?assignee=bob"); r.status != http.StatusBadRequest {
		t.Errorf("an unknown assignee filter: %d", r.status)
	}

	users, _ := f.store.Users(t.Context(), f.b.ID)
	r = member.post(page+"/assignee", url.Values{"assignee": {users[0].ID.String()}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("another company's user: %d", r.status)
	}
	if r := member.get(page); !strings.Contains(r.body, "nem tartozik a céghez") {
		t.Errorf("no refusal shown")
	}
	l, err := f.store.GetLead(t.Context(), f.a.ID, f.chat.ID)
	if err != nil || l.AssigneeID.String() != memberID {
		t.Errorf("after the refusal the lead is %v's", l.AssigneeID)
	}
	if r := member.post(page+"/assignee", url.Values{"assignee": {""}}); r.status != http.StatusSeeOther {
		t.Fatalf("unassign: %d", r.status)
	}
	r = member.get(page)
	if !strings.Contains(r.body, "<td>felelős</td>") || !strings.Contains(r.body, "<td>"+f.member+"</td>") {
		t.Errorf("the history does not name the assignee:\n%s", r.body)
	}
	other := f.client(t)
	other.login(f.ownerB)
	if r := other.post(page+"/assignee", url.Values{"assignee": {""}}); r.status != http.StatusNotFound {
		t.Errorf("another company's owner assigning: %d", r.status)
	}
}

// The owner turns round robin on on the team page; a member may not.
func TestRoundRobinSetting(t *testing.T) {
	t.Parallel()
	f := start(t)
	owner, member := f.client(t), f.client(t)
	owner.login(f.owner)
	member.login(f.member)
	if r := member.post("/app/team/round-robin", url.Values{"round_robin": {"on"}}); r.status != http.StatusForbidden {
		t.Errorf("a member: %d", r.status)
	}
	if r := owner.post("/app/team/round-robin", url.Values{"round_robin": {"on"}}); r.status != http.StatusSeeOther {
		t.Fatalf("on: %d", r.status)
	}
	if c, _ := f.store.Company(t.Context(), f.a.ID); !c.RoundRobin {
		t.Fatal("round robin is off")
	}
	if r := owner.get("/app/team"); !strings.Contains(r.body, `name="round_robin" value="on" checked`) {
		t.Errorf("the team page does not show it on")
	}
	owner.post("/app/team/round-robin", url.Values{})
	if c, _ := f.store.Company(t.Context(), f.a.ID); c.RoundRobin {
		t.Fatal("round robin is still on")
	}
}

// Owners and members keep notes on a lead: shown with author and time, in the history; a note
// that is too long or empty is refused and shown back in the form; one with a control character
// is refused (400) before it.
func TestNotesOnTheLeadPage(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	member := f.client(t)
	member.login(f.member)
	page := "/app/leads/" + f.chat.ID.String()

	if r := member.post(page+"/notes", url.Values{"note": {"Visszahívtam, <b>jövő héten</b> dönt."}}); r.status != http.StatusSeeOther {
		t.Fatalf("a note: %d %s", r.status, r.body)
	}
	r := member.get(page)
	if !strings.Contains(r.body, "Visszahívtam, &lt;b&gt;jövő héten&lt;/b&gt; dönt.") || !strings.Contains(r.body, f.member+" · ") ||
		!strings.Contains(r.body, "<td>belső jegyzet</td>") {
		t.Errorf("the note is not on the page with its author and in the history:\n%s", r.body)
	}
	// A control character is refused before any handler, as in every dashboard form.
	if r := member.post(page+"/notes", url.Values{"note": {"csengő\x07"}}); r.status != http.StatusBadRequest {
		t.Errorf("a note with a control character: %d", r.status)
	}
	for name, text := range map[string]string{"too long": strings.Repeat("x", 5001), "empty": "   "} {
		t.Run(name, func(t *testing.T) {
			r := member.post(page+"/notes", url.Values{"note": {text}})
			if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "A jegyzet 1–5\u202f000 karakter lehet") {
				t.Fatalf("%d\n%s", r.status, r.body)
			}
		})
	}
	notes, err := f.store.LeadNotes(t.Context(), f.a.ID, f.chat.ID)
	if err != nil || len(notes) != 1 {
		t.Errorf("%d notes stored, want 1 (%v)", len(notes), err)
	}
	other := f.client(t)
	other.login(f.ownerB)
	if r := other.post(page+"/notes", url.Values{"note": {"idegen"}}); r.status != http.StatusNotFound {
		t.Errorf("another company's owner writing a note: %d", r.status)
	}
}

// A lead's page links the same person's other leads of the company: the same address in other
// letters' case, the same E.164 number; never another company's.
func TestRelatedLeadsOnTheLeadPage(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	again := f.addLead(t, f.a, lead.Lead{FirstName: "Péter", LastName: "Kovács", Email: "KOVACS.PETER@pelda.hu", Source: lead.SourceForm})
	byPhone := f.addLead(t, f.a, lead.Lead{FirstName: "P.", Phone: "06 30 123 4567", PhoneE164: "+36301234567", Source: lead.SourceAPI})
	foreign := f.addLead(t, f.b, lead.Lead{FirstName: "Péter", LastName: "Kovács", Email: "kovacs.peter@pelda.hu", Source: lead.SourceForm})
	c := f.client(t)
	c.login(f.member)
	r := c.get("/app/leads/" + f.chat.ID.String())
	for _, id := range []uuid.UUID{again.ID, byPhone.ID} {
		if !strings.Contains(r.body, `data-related="`+id.String()+`"><td><a href="/app/leads/`+id.String()+`">`) {
			t.Errorf("the page does not link the related lead %s", id)
		}
	}
	if strings.Contains(r.body, foreign.ID.String()) || strings.Count(r.body, "data-related=") != 2 {
		t.Errorf("the page lists %d related leads, or another company's", strings.Count(r.body, "data-related="))
	}
	if r := c.get("/app/leads/" + f.other.ID.String()); r.status != http.StatusNotFound {
		t.Errorf("another company's lead: %d", r.status)
	}
}
