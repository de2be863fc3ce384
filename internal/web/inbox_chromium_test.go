package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/lead"
)

// TestInboxInChromium drives the sales inbox as an owner and as a member would: the new-lead
// e-mail's link through the login to the lead, giving the lead to themself, a note, the same
// person's other lead, the overview with its chart and table, and (owner) adding a question the
// assistant could not answer to the FAQ; axe scans every page on the way.
func TestInboxInChromium(t *testing.T) {
	f := overviewFixture(t)
	chat := f.addLead(t, f.a, lead.Lead{FirstName: "Péter", LastName: "Kovács", Email: "kovacs.peter@pelda.hu", Source: lead.SourceChat})
	earlier := f.addLead(t, f.a, lead.Lead{FirstName: "Péter", LastName: "Kovács", Email: "Kovacs.Peter@pelda.hu", Source: lead.SourceForm})
	link := "/app/leads/" + chat.ID.String()

	for _, who := range []struct{ role, email string }{{"owner", f.owner}, {"member", f.member}} {
		t.Run(who.role, func(t *testing.T) {
			b := newTab(t, f.base)
			if status := b.open(link); status != http.StatusOK || !strings.HasPrefix(b.path(), "/app/login?next=") {
				t.Fatalf("the e-mail's link logged out: %d at %s", status, b.path())
			}
			b.set("#email", who.email)
			b.set("#password", password)
			if status := b.submit("form[action='/app/login']"); status != http.StatusOK || b.path() != link {
				t.Fatalf("after the login: %d at %s, want the lead", status, b.path())
			}
			b.check("inbox-lead-" + who.role)

			me := f.userID(t, who.email)
			b.set("#assignee", me)
			if status := b.submit("form[action$='/assignee']"); status != http.StatusOK || !strings.Contains(b.text(".notice"), who.email) {
				t.Fatalf("assigning: %d, notice %q", status, b.text(".notice"))
			}
			if got := b.text("[data-assignee]"); got != who.email {
				t.Errorf("the lead's assignee shows %q", got)
			}

			note := "Hívás " + who.role + ": holnap 10-kor visszahívjuk."
			b.set("#note", note)
			if status := b.submit("form[action$='/notes']"); status != http.StatusOK {
				t.Fatalf("the note: %d", status)
			}
			if !strings.Contains(b.text("ol.notes"), note) || !strings.Contains(b.text("ol.notes"), who.email) ||
				!strings.Contains(b.text("section[aria-labelledby=history-title] tbody"), note) {
				t.Errorf("the note is not on the page with its author, or not in the history")
			}
			b.check("inbox-lead-noted-" + who.role)

			if n := js[int](b, `document.querySelectorAll('tr[data-related]').length`); n != 1 {
				t.Fatalf("%d related leads, want 1", n)
			}
			if status := b.load("the related lead", run(`document.querySelector('tr[data-related] a').click()`)); status != http.StatusOK ||
				b.path() != "/app/leads/"+earlier.ID.String() {
				t.Fatalf("the related lead: %d at %s", status, b.path())
			}

			if status := b.open("/app/"); status != http.StatusOK {
				t.Fatalf("the overview: %d", status)
			}
			if n := js[int](b, `document.querySelectorAll('svg.chart rect').length`); n < 3 {
				t.Errorf("the chart has %d bars", n)
			}
			if n := js[int](b, `document.querySelectorAll('table.daily tbody tr').length`); n != 30 {
				t.Errorf("the table has %d days", n)
			}
			js[bool](b, `document.querySelector('details').open = true; true`)
			b.check("overview-" + who.role)
			faq := js[int](b, `document.querySelectorAll('a[href^="/app/assistant?kerdes="]').length`)
			if who.role == "member" {
				if faq != 0 {
					t.Errorf("a member is offered %d FAQ actions", faq)
				}
				return
			}
			if status := b.load("add to FAQ", run(`document.querySelector('a[href^="/app/assistant?kerdes="]').click()`)); status != http.StatusOK ||
				!strings.HasPrefix(b.path(), "/app/assistant?") {
				t.Fatalf("add to FAQ: %d at %s", status, b.path())
			}
			if got := js[string](b, `document.querySelector('[data-new-question] input[name=faq_question]').value`); got != "Van parkolási lehetőség?" {
				t.Errorf("the FAQ row holds %q", got)
			}
			if got := js[string](b, `document.activeElement && document.activeElement.name || ''`); got != "faq_answer" {
				t.Errorf("the focus is on %q, want the answer", got)
			}
			b.check("assistant-faq")
		})
	}
}
