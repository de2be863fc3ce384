package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Creating a key answers with a redirect to the embed page, which shows the full key once:
// a reload of that page shows it no more, and nothing but its hash is stored.
func TestCreateKeyRedirectsAndShowsTheKeyOnce(t *testing.T) {
	t.Parallel()
	f := start(t)
	owner := f.client(t)
	owner.login(f.owner)
	r := owner.post("/app/embed/keys", url.Values{"kind": {"private"}})
	if r.status != http.StatusSeeOther || r.location != "/app/embed" {
		t.Fatalf("create: %d to %q, want 303 to /app/embed", r.status, r.location)
	}
	page := owner.get("/app/embed")
	i := strings.Index(page.body, `value="lc_priv_`)
	if page.status != http.StatusOK || i < 0 {
		t.Fatalf("the page after the redirect: %d, no new private key\n%s", page.status, page.body)
	}
	key := page.body[i+len(`value="`):]
	key = key[:strings.IndexByte(key, '"')]
	if again := owner.get("/app/embed"); strings.Contains(again.body, key) {
		t.Error("a reload shows the private key again")
	}
	keys, err := f.store.ListKeys(context.Background(), f.a.ID)
	if err != nil || len(keys) == 0 || !strings.HasPrefix(key, keys[len(keys)-1].Prefix) {
		t.Errorf("the stored keys %+v (%v) do not end with the shown one", keys, err)
	}
	other := f.client(t)
	other.login(f.owner)
	if p := other.get("/app/embed"); strings.Contains(p.body, key) {
		t.Error("another browser of the same user sees the key")
	}
}
