package web_test

import (
	"encoding/csv"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/leadchat/leadchat/internal/csvexport"
)

// TestLeadsInChromium drives the leads pages as an owner would (find a lead by text, open it,
// read the chat, change its status, export the filter as CSV) and as another company's owner
// would, with an accessibility scan and screenshots of each page.
func TestLeadsInChromium(t *testing.T) {
	f := startLeads(t)
	b := newTab(t, f.base)
	b.login(f.owner)
	b.open("/app/leads")
	if n := js[int](b, `document.querySelectorAll('tr[data-lead]').length`); n != 50 {
		t.Errorf("the first page shows %d leads, want 50", n)
	}
	b.check("leads-list")

	b.set("#q", "Kovács")
	if status := b.submit("form.filters"); status != http.StatusOK || !strings.HasPrefix(b.path(), "/app/leads?") {
		t.Fatalf("searching: %d at %s", status, b.path())
	}
	if n := js[int](b, `document.querySelectorAll('tr[data-lead]').length`); n != 1 || b.text("tr[data-lead] a") != "Kovács Péter" {
		t.Fatalf("the search found %d leads, the first %q", n, b.text("tr[data-lead] a"))
	}
	b.check("leads-search")
	csvHref := js[string](b, `document.querySelector('a.export').href`)

	path := "/app/leads/" + f.chat.ID.String()
	if status := b.load("opening the lead", run(`document.querySelector('tr[data-lead] a').click()`)); status != http.StatusOK || b.path() != path {
		t.Fatalf("opening the lead: %d at %s", status, b.path())
	}
	if got := b.text(".transcript li.visitor p"); got != "Mennyibe kerül egy 5 kW-os rendszer?" {
		t.Errorf("the visitor's message %q", got)
	}
	if got := b.text(".transcript li.assistant p"); !strings.Contains(got, "visszahívja") {
		t.Errorf("the reply %q", got)
	}
	if got := b.text("main"); !strings.Contains(got, "nincs rögzítve") || !strings.Contains(got, "hirlevel") {
		t.Errorf("the lead page lacks the consent or the referral data: %q", got)
	}
	b.check("lead")

	b.set("#new-status", "qualified")
	if status := b.submit("form[action$='/status']"); status != http.StatusOK || b.path() != path {
		t.Fatalf("changing the status: %d at %s", status, b.path())
	}
	if !strings.Contains(b.text(".notice"), "minősítve") || !strings.Contains(b.text("section[aria-labelledby=history-title] tbody"), "minősítve") {
		t.Errorf("after the change: notice %q, history %q", b.text(".notice"), b.text("section[aria-labelledby=history-title] tbody"))
	}
	b.check("lead-changed")

	t.Run("the export of the search, over HTTP with the session cookie", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, csvHref, nil)
		req.AddCookie(&http.Cookie{Name: "leadchat_session", Value: b.cookie().Value})
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		records, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(raw), csvexport.BOM))).ReadAll()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d, %v", csvHref, res.StatusCode, err)
		}
		if len(records) != 2 || strings.Join(records[0][:3], ",") != "id,first_name,last_name" {
			t.Fatalf("records %q", records)
		}
		if records[1][7] != "'"+formula || records[1][10] != "qualified" {
			t.Errorf("details %q, status %q", records[1][7], records[1][10])
		}
	})

	t.Run("the owner erases the lead after confirming", func(t *testing.T) {
		b := b.on(t)
		if status := b.open(path); status != http.StatusOK {
			t.Fatalf("opening the lead: %d", status)
		}
		js[bool](b, `document.querySelector("form[action$='/erase'] input[name=confirm]").click(); true`)
		if status := b.submit("form[action$='/erase']"); status != http.StatusOK || b.path() != "/app/leads" {
			t.Fatalf("erasing: %d at %s", status, b.path())
		}
		if !strings.Contains(b.text(".notice"), "véglegesen törölve") {
			t.Errorf("after the erasure the notice is %q", b.text(".notice"))
		}
		b.check("lead-erased")
		if status := b.open(path); status != http.StatusNotFound {
			t.Errorf("the erased lead's page: %d, want 404", status)
		}
	})

	t.Run("another company's owner gets 404 for the lead", func(t *testing.T) {
		b := b.on(t)
		if status := b.submit("form[action='/app/logout']"); status != http.StatusOK {
			t.Fatalf("logout: %d", status)
		}
		b.login(f.ownerB)
		if status := b.open(path); status != http.StatusNotFound {
			t.Errorf("B opens A's lead: %d", status)
		}
		if n := js[int](b, `document.querySelectorAll('tr[data-lead]').length`); n != 0 {
			t.Errorf("the 404 page shows %d leads", n)
		}
		b.load("B's list", chromedp.Navigate(f.base+"/app/leads"))
		if got := b.text("tr[data-lead] a"); got != "Nagy Béla" {
			t.Errorf("B's list starts with %q", got)
		}
	})
}
