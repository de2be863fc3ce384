package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// lcDashboardLeads is the read pair's dashboard step: the leads page of the company that
// holds bigLeads leads, as its logged-in owner opens it.
const lcDashboardLeads = "leadchat: dashboard leads page"

// dashboardOwner and dashboardPassword are the big company's dashboard login.
const (
	dashboardOwner    = "tulajdonos@bench-big.hu"
	dashboardPassword = "bench jelszó 1234"
)

// createDashboardOwner gives the big company an owner who can log in to the dashboard.
func (b *bench) createDashboardOwner(ctx context.Context, s *postgres.Store) error {
	if _, _, err := user.Create(ctx, s, b.bigCompany, dashboardOwner, user.Owner, dashboardPassword); err != nil {
		return fmt.Errorf("creating the dashboard owner: %w", err)
	}
	return nil
}

// dashboardLogin logs the big company's owner in and returns the session cookie, as
// "name=value".
func (b *bench) dashboardLogin(ctx context.Context) (string, error) {
	client := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"email": {dashboardOwner}, "password": {dashboardPassword}}
	res, err := client.PostForm("http://"+b.leadchatAddr+"/app/login", form)
	if err != nil {
		return "", fmt.Errorf("dashboard login: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || len(res.Cookies()) == 0 {
		return "", fmt.Errorf("dashboard login: status %d, %d cookies", res.StatusCode, len(res.Cookies()))
	}
	c := res.Cookies()[0]
	return c.Name + "=" + c.Value, nil
}

// dashboardRequest is GET /app/leads with a session cookie.
func dashboardRequest(host, cookie string) []byte {
	return []byte(fmt.Sprintf("GET /app/leads HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n", host, cookie))
}
