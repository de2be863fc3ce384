package bench

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// lcDashboardLeads is the read pair's dashboard step: the leads page of the company that
// holds bigLeads leads, as its logged-in owner opens it.
const lcDashboardLeads = "leadchat: dashboard leads page"

// lcDashboardSearch is the read pair's dashboard search step: the same leads page searched for a
// text, as the owner types one into the search box.
const lcDashboardSearch = "leadchat: dashboard search"

// searchTexts is how many texts the search step searches for, spread over the company's leads
// so that no single page stays hot in the caches.
const searchTexts = 64

// dashboardSearches are the search step's requests: for each of searchTexts leads spread over
// the company's n, a text that finds only it (its e-mail address, its phone number as written)
// or some (the start of its e-mail address, which starts a hundred or so others), and every
// eighth a common word, which the list finds among its newest leads.
func dashboardSearches(host, cookie string, n int) [][]byte {
	names := []string{"Kovács", "Eszter", "Hőszivattyú", "tető"}
	var reqs [][]byte
	for k := range searchTexts {
		i := 1 + k*(n/searchTexts) + k%7 // the seeded lead numbers run from 1 to n
		var q string
		switch k % 8 {
		case 7:
			q = names[k/8%len(names)]
		case 0, 3:
			q = fmt.Sprintf("+36 30 %07d", i%10000000)
		case 1, 5:
			q = fmt.Sprintf("lead%d", i)
		default:
			q = fmt.Sprintf("lead%d@example.hu", i)
		}
		reqs = append(reqs, []byte(fmt.Sprintf("GET /app/leads?q=%s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n",
			url.QueryEscape(q), host, cookie)))
	}
	return reqs
}

// dashboardOwner and dashboardPassword are the big company's dashboard login.
const (
	dashboardOwner    = "tulajdonos@bench-big.hu"
	dashboardPassword = "bench jelszó 1234"
)

// createDashboardOwner gives the big company an owner who can log in to the dashboard.
func (b *bench) createDashboardOwner(ctx context.Context, s *postgres.Store) error {
	u, _, err := user.Create(ctx, s, b.bigCompany, dashboardOwner, user.Owner, dashboardPassword)
	if err != nil {
		return fmt.Errorf("creating the dashboard owner: %w", err)
	}
	b.ownerID = u.ID
	return nil
}

// dashboardLogin logs the big company's owner in and returns the cookies it set (the
// session's and the device's) as a Cookie header's value, as a browser sends them back.
func (b *bench) dashboardLogin(ctx context.Context) (string, error) {
	return b.dashboardLoginAs(ctx, b.leadchatAddr, dashboardOwner, dashboardPassword)
}

// dashboardLoginAs logs a user in through the leadchat at addr; see dashboardLogin.
func (b *bench) dashboardLoginAs(ctx context.Context, addr, email, password string) (string, error) {
	client := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"email": {email}, "password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/app/login", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("dashboard login: %w", err)
	}
	res.Body.Close()
	var cookies []string
	for _, c := range res.Cookies() {
		if c.Value != "" {
			cookies = append(cookies, c.Name+"="+c.Value)
		}
	}
	if res.StatusCode != http.StatusSeeOther || len(cookies) == 0 {
		return "", fmt.Errorf("dashboard login: status %d, %d cookies", res.StatusCode, len(cookies))
	}
	return strings.Join(cookies, "; "), nil
}

// lcOverview is the read pair's overview step: the landing page (30 days) of the company that
// holds bigLeads leads and a year of widget events, as its owner opens it.
const lcOverview = "leadchat: dashboard overview"

// seedWidgetEvents gives company $1 a count of widget events for each of the last 365 days,
// $2 events in all: the roll-ups the overview's funnel reads.
const seedWidgetEvents = `
INSERT INTO widget_events (company_id, day, shown, opened)
SELECT $1, (now() AT TIME ZONE 'Europe/Budapest')::date - d, $2::bigint / 365 * 9 / 10, $2::bigint / 365 / 10
FROM generate_series(0, 364) AS d
ON CONFLICT (company_id, day) DO UPDATE SET shown = excluded.shown, opened = excluded.opened`

// bigEvents is how many widget events the big company's roll-ups count.
const bigEvents = 10_000_000

// overviewRequest is GET /app/ with a session cookie.
func overviewRequest(host, cookie string) []byte {
	return []byte(fmt.Sprintf("GET /app/ HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n", host, cookie))
}

// dashboardRequest is GET /app/leads with a session cookie.
func dashboardRequest(host, cookie string) []byte {
	return []byte(fmt.Sprintf("GET /app/leads HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n", host, cookie))
}

// csvExport is one download of the big company's whole CSV export from the dashboard: its rows,
// how long it took, and the server's peak resident set while it streamed.
type csvExport struct {
	rows    int
	elapsed time.Duration
	rss     int64
	err     string
}

func (e csvExport) perSecond() float64 {
	if e.elapsed <= 0 {
		return 0
	}
	return float64(e.rows) / e.elapsed.Seconds()
}

// exportCSV downloads /app/leads.csv (no filter: every lead of the big company) as its owner
// does, counting the records as they arrive.
func (b *bench) exportCSV(ctx context.Context) csvExport {
	var e csvExport
	pid := b.leadchat.pid()
	if err := resetPeakRSS(pid); err != nil {
		e.err = err.Error()
		return e
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+b.leadchatAddr+"/app/leads.csv", nil)
	if err != nil {
		e.err = err.Error()
		return e
	}
	req.Header.Set("Cookie", b.dashboardCookie)
	start := time.Now()
	res, err := (&http.Client{Timeout: 10 * time.Minute}).Do(req)
	if err != nil {
		e.err = err.Error()
		return e
	}
	defer res.Body.Close()
	r := csv.NewReader(bufio.NewReaderSize(res.Body, 64<<10))
	r.ReuseRecord = true
	records := 0
	for {
		if _, err = r.Read(); err != nil {
			break
		}
		records++
	}
	e.elapsed = time.Since(start)
	e.rss = peakRSS(pid)
	switch {
	case err != io.EOF:
		e.err = err.Error()
	case res.StatusCode != http.StatusOK:
		e.err = fmt.Sprintf("status %d", res.StatusCode)
	case records > 0:
		e.rows = records - 1 // the header
	}
	return e
}
