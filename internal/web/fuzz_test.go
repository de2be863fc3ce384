package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/plan"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
	"github.com/leadchat/leadchat/internal/service"
	"github.com/leadchat/leadchat/internal/user"
)

// FuzzDashboardForms sends any text as the fields of the dashboard's forms (login, a one-time
// link's password set, an invitation, the lead search) and fails on any 5xx: whatever a browser
// or an attacker types is a page of ours, never a server error.
func FuzzDashboardForms(f *testing.F) {
	ctx := context.Background()
	svc, err := service.Open(ctx, service.Config{DatabaseURL: pgtest.NewDSN(f), MaxDBConns: 4, ShutdownGrace: time.Second}, io.Discard, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { svc.Close() })
	store, h := svc.Store(), svc.Handler()
	c, err := store.CreateCompany(ctx, "Fuzz Kft.", plan.Pro, plan.Override{})
	if err != nil {
		f.Fatal(err)
	}
	if _, _, err := user.Create(ctx, store, c.ID, "tulaj@fuzz.hu", user.Owner, password); err != nil {
		f.Fatal(err)
	}
	_, token, err := user.Create(ctx, store, c.ID, "uj@fuzz.hu", user.Member, "")
	if err != nil {
		f.Fatal(err)
	}
	serve := func(method, target string, form url.Values, cookies []*http.Cookie) *httptest.ResponseRecorder {
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req := httptest.NewRequest(method, target, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for _, ck := range cookies {
			req.AddCookie(ck)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	send := func(t *testing.T, method, target string, form url.Values, cookies []*http.Cookie) {
		t.Helper()
		if w := serve(method, target, form, cookies); w.Code >= 500 {
			t.Fatalf("%s %s %q: status %d\n%s", method, target, form, w.Code, w.Body)
		}
	}
	login := serve(http.MethodPost, "/app/login", url.Values{"email": {"tulaj@fuzz.hu"}, "password": {password}}, nil)
	session := login.Result().Cookies()
	if login.Code != http.StatusSeeOther || len(session) == 0 {
		f.Fatalf("the owner's login: %d", login.Code)
	}

	for _, seed := range [][2]string{
		{"tulaj@fuzz.hu", "rossz jelszó 123"},
		{"a\x00@fuzz.hu", "jelszó\x00"},
		{"\xff\xfe", "\u0085\u202e"},
		{"", strings.Repeat("é", 600)},
		{"%00", "%zz&password=x"},
		{token, "egy jó hosszú jelszó"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		send(t, http.MethodPost, "/app/login", url.Values{"email": {a}, "password": {b}}, nil)
		send(t, http.MethodPost, "/app/password/"+url.PathEscape(a), url.Values{"password": {b}, "password_again": {b}}, nil)
		send(t, http.MethodPost, "/app/team", url.Values{"email": {a}, "role": {b}}, session)
		send(t, http.MethodGet, "/app/leads?"+url.Values{"q": {a}, "status": {b}}.Encode(), nil, session)
		send(t, http.MethodPost, "/app/company", url.Values{"company": {a}}, session)
	})
}
