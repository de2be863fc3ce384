package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/alexedwards/scs/v2/memstore"

	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/user"
	"github.com/leadchat/leadchat/internal/web"
)

// behindProxy makes the test's loopback address a trusted proxy, so that each client can say
// its own address in X-Forwarded-For.
func behindProxy(cfg *service.Config) { cfg.TrustedProxies = "127.0.0.1" }

// Made-up one-time links posted in a flood take no hashing turn: only the real login hashes,
// and it logs in.
func TestMadeUpLinksTakeNoHashingTurn(t *testing.T) {
	t.Parallel()
	gate := user.NewGate(1)
	f := startDashboard(t, web.Config{Sessions: memstore.New(), Hashing: gate})

	const senders, each = 16, 25
	var wg sync.WaitGroup
	statuses := make(chan int, senders*each)
	for i := range senders {
		wg.Go(func() {
			c := f.client(t)
			for j := range each {
				token := fmt.Sprintf("kitalalt-%d-%d-%s", i, j, strings.Repeat("A", 40))
				statuses <- c.post("/app/password/"+token, url.Values{"password": {"egy jó hosszú jelszó"}, "password_again": {"egy jó hosszú jelszó"}}).status
			}
		})
	}
	f.client(t).login(f.owner)
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != http.StatusNotFound {
			t.Fatalf("a made-up link: %d, want 404", s)
		}
	}
	if n := gate.Hashed(); n != 1 {
		t.Errorf("%d hashes for %d made-up links and one login, want 1 (the login's)", n, senders*each)
	}
}

// One client address may fail 20 logins in 15 minutes across addresses; the 21st attempt is
// refused without a hash, whatever the address, while another client logs in.
func TestClientFailureLimit(t *testing.T) {
	// Not parallel: 20 failed logins hash one at a time within the client's timeout.
	f := start(t, behindProxy)
	c := f.client(t)
	from := []string{"X-Forwarded-For", "203.0.113.7"}
	for i := range user.MaxClientFailures {
		email := fmt.Sprintf("probalkozas-%d@sehol.hu", i)
		if r := c.post("/app/login", url.Values{"email": {email}, "password": {"próba jelszó 1"}}, from...); r.status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, r.status)
		}
	}
	r := c.post("/app/login", url.Values{"email": {f.owner}, "password": {password}}, from...)
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "erről a hálózati címről") {
		t.Fatalf("the 21st attempt from one address: %d, Retry-After %q\n%s", r.status, r.header.Get("Retry-After"), r.body)
	}
	// Password sets share the budget: a real link's form from that address waits too, and is
	// not used up.
	_, token, err := user.Create(context.Background(), f.store, f.a.ID, "uj@a-ceg.hu", user.Member, "")
	if err != nil {
		t.Fatal(err)
	}
	r = c.post("/app/password/"+token, url.Values{"password": {password}, "password_again": {password}}, from...)
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "erről a hálózati címről") {
		t.Errorf("a password set from the address over its budget: %d", r.status)
	}
	other := f.client(t)
	if r := other.post("/app/login", url.Values{"email": {f.owner}, "password": {password}}, "X-Forwarded-For", "198.51.100.9"); r.status != http.StatusSeeOther {
		t.Errorf("the owner from another address: %d", r.status)
	}
	if r := other.post("/app/password/"+token, url.Values{"password": {password}, "password_again": {password}}, "X-Forwarded-For", "198.51.100.9"); r.status != http.StatusSeeOther {
		t.Errorf("the link from another address: %d", r.status)
	}
}

// Five wrong passwords from someone else hold the account, but not a browser that logged in to
// it before: the owner's device cookie lets them in at once, and a browser without one waits.
func TestDeviceCookieKeepsTheOwnerIn(t *testing.T) {
	t.Parallel()
	f := start(t, behindProxy)
	owner := f.client(t)
	owner.login(f.owner)
	if r := owner.post("/app/logout", url.Values{}); r.status != http.StatusSeeOther {
		t.Fatalf("logout: %d", r.status)
	}
	attacker := f.client(t)
	for i := range user.MaxFailedLogins + 2 {
		r := attacker.post("/app/login", url.Values{"email": {f.owner}, "password": {"kitalált jelszó"}}, "X-Forwarded-For", "203.0.113.66")
		if want := http.StatusUnauthorized; i >= user.MaxFailedLogins {
			if r.status != http.StatusTooManyRequests {
				t.Fatalf("attempt %d after %d failures: %d, want 429", i+1, user.MaxFailedLogins, r.status)
			}
		} else if r.status != want {
			t.Fatalf("attempt %d: %d", i+1, r.status)
		}
	}
	owner.login(f.owner)
	if r := f.client(t).post("/app/login", url.Values{"email": {f.owner}, "password": {password}}); r.status != http.StatusTooManyRequests ||
		!strings.Contains(r.body, "ezzel az e-mail-címmel") {
		t.Errorf("the right password from a browser without the device cookie: %d, want 429", r.status)
	}
	forged := f.client(t)
	forged.http.Jar.SetCookies(mustURL(f.base), []*http.Cookie{{Name: "leadchat_device", Value: deviceCookie(owner)[:20] + "x"}})
	if r := forged.post("/app/login", url.Values{"email": {f.owner}, "password": {password}}); r.status != http.StatusTooManyRequests {
		t.Errorf("with a forged device cookie: %d, want 429", r.status)
	}
}

// deviceCookie is the client's device cookie value.
func deviceCookie(c *client) string {
	for _, ck := range c.http.Jar.Cookies(mustURL(c.base)) {
		if ck.Name == "leadchat_device" {
			return ck.Value
		}
	}
	c.t.Fatal("no device cookie")
	return ""
}

// A NUL, another control character or invalid UTF-8 in the login e-mail or in any form field is
// a Hungarian 400 page, never 500.
func TestControlCharactersAreBadRequests(t *testing.T) {
	t.Parallel()
	f := start(t)
	anon, owner := f.client(t), f.client(t)
	owner.login(f.owner)
	for _, bad := range []string{"a\x00@a-ceg.hu", "tulajdonos\x01@a-ceg.hu", "\xff\xfe@a-ceg.hu", "a\u0085@a-ceg.hu"} {
		if r := anon.post("/app/login", url.Values{"email": {bad}, "password": {password}}); r.status != http.StatusBadRequest ||
			!strings.Contains(r.body, "érvénytelen") {
			t.Errorf("login e-mail %q: %d", bad, r.status)
		}
		if r := anon.post("/app/password/x", url.Values{"password": {bad + "hosszú"}, "password_again": {bad}}); r.status != http.StatusBadRequest {
			t.Errorf("password %q: %d", bad, r.status)
		}
		if r := owner.post("/app/team", url.Values{"email": {bad}, "role": {"member"}}); r.status != http.StatusBadRequest {
			t.Errorf("team e-mail %q: %d", bad, r.status)
		}
		if r := owner.get("/app/leads?q=" + url.QueryEscape(bad)); r.status != http.StatusBadRequest {
			t.Errorf("lead search %q: %d", bad, r.status)
		}
	}
	if r := owner.post("/app/assistant", url.Values{"profile": {"sor\r\nmásik sor\tbehúzva"}}); r.status >= 500 || r.status == http.StatusBadRequest {
		t.Errorf("line breaks and a tab in a text area: %d", r.status)
	}
}
