package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/leadchat/leadchat/internal/service"
)

// withParams adds run-time settings to a URL or key=value DSN.
func withParams(dsn string, params ...string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		return dsn + sep + strings.Join(params, "&")
	}
	return dsn + " " + strings.Join(params, " ")
}

// A search that runs out of its statement time is a Hungarian page that says so, with the
// filter kept, not a 500. The search is held up by a lock another session holds on the leads,
// with no lock timeout, so the statement timeout is what ends it.
func TestSearchTimeoutIsAHungarianPage(t *testing.T) {
	t.Parallel()
	f := start(t, func(c *service.Config) {
		c.DatabaseURL = withParams(c.DatabaseURL, "statement_timeout=300", "lock_timeout=0")
	})
	c := f.client(t)
	c.login(f.owner)
	if r := c.get("/app/leads?q=Kiss"); r.status != http.StatusOK {
		t.Fatalf("a search with nothing in its way: %d", r.status)
	}

	tx, err := f.store.DB().BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("LOCK TABLE leads IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	r := c.get("/app/leads?q=Kiss&status=new")
	if r.status != http.StatusServiceUnavailable || !strings.Contains(r.body, "túl sokáig tartott") ||
		!strings.Contains(r.body, `value="Kiss"`) {
		t.Errorf("a search past its statement timeout: %d\n%.2000s", r.status, r.body)
	}
}
