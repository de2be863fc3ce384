//go:build soak

package soak

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/admin"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/user"
)

// The login flood: connections posting made-up one-time links to /app/password/{token} (before,
// each hashed its password before the link was checked, and a real owner's login waited 11 to
// 16 s, then failed), while the company's real owner logs in again and again from their browser.
const (
	loginFlooders   = 100 // connections posting made-up links, at any time
	ownerLoginEvery = 500 * time.Millisecond
	ownerLoginLimit = 2 * time.Second // the target for each of the owner's logins, which the run reports
	ownerEmail      = "tulajdonos@soak.hu"
	ownerPassword   = "a tulajdonos jó hosszú jelszava"
)

// provisionOwner gives the company an owner with a password.
func provisionOwner(ctx context.Context, dsn string, companyID uuid.UUID) error {
	store, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 2})
	if err != nil {
		return err
	}
	defer store.Close()
	_, err = admin.CreateUser(ctx, store, "http://127.0.0.1", companyID, ownerEmail, user.Owner, ownerPassword)
	return err
}

// loginFlood is the flood and the owner's logins beside it, with what each was answered.
type loginFlood struct {
	base string

	mu      sync.Mutex
	answers map[string]int  // the flood's answers ("404", "transport"...) by count
	logins  []time.Duration // the owner's logins that landed on the leads, by how long each took
	failed  []string        // the owner's logins that did not
}

func newLoginFlood(base string) *loginFlood {
	return &loginFlood{base: base, answers: map[string]int{}}
}

// run floods and logs the owner in until ctx ends.
func (f *loginFlood) run(ctx context.Context) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: loginFlooders},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var wg sync.WaitGroup
	for range loginFlooders {
		wg.Go(func() { f.flood(ctx, client) })
	}
	wg.Go(func() { f.owner(ctx) })
	wg.Wait()
}

func (f *loginFlood) flood(ctx context.Context, client *http.Client) {
	form := url.Values{"password": {"egy kitalált jó hosszú jelszó"}, "password_again": {"egy kitalált jó hosszú jelszó"}}.Encode()
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.base+"/app/password/"+randomWord(52), strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", randomIPv6())
		answer := "transport"
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			answer = fmt.Sprint(resp.StatusCode)
		} else if ctx.Err() != nil {
			return
		}
		f.mu.Lock()
		f.answers[answer]++
		f.mu.Unlock()
	}
}

// owner logs in from one browser (its cookies kept, as a browser keeps them) every
// ownerLoginEvery.
func (f *loginFlood) owner(ctx context.Context) {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"email": {ownerEmail}, "password": {ownerPassword}}.Encode()
	for ctx.Err() == nil {
		req, _ := http.NewRequest(http.MethodPost, f.base+"/app/login", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", "192.0.2.10")
		start := time.Now()
		resp, err := client.Do(req)
		took := time.Since(start)
		f.mu.Lock()
		switch {
		case err != nil:
			f.failed = append(f.failed, fmt.Sprintf("after %v: %v", took.Round(time.Millisecond), err))
		case resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/app/":
			f.failed = append(f.failed, fmt.Sprintf("after %v: %d %s", took.Round(time.Millisecond), resp.StatusCode, resp.Header.Get("Location")))
		default:
			f.logins = append(f.logins, took)
		}
		f.mu.Unlock()
		if resp != nil {
			resp.Body.Close()
		}
		pause(ctx, ownerLoginEvery, ownerLoginEvery+time.Millisecond)
	}
}

// problems are the owner's logins that failed, and any server error the flood met. How long
// the logins took is a figure of the run (figures), measured on a machine the flood saturates.
func (f *loginFlood) problems() []string {
	var out []string
	for _, p := range f.failed {
		out = append(out, "login flood: the owner's login failed "+p)
	}
	if len(f.logins) == 0 {
		out = append(out, "login flood: the owner never logged in")
	}
	for answer, n := range f.answers {
		if strings.HasPrefix(answer, "5") {
			out = append(out, fmt.Sprintf("login flood: %d made-up links answered %s", n, answer))
		}
	}
	return out
}

// figures is the flood's line of the run's summary.
func (f *loginFlood) figures() string {
	n := 0
	for _, c := range f.answers {
		n += c
	}
	slowest := time.Duration(0)
	if len(f.logins) > 0 {
		slowest = slices.Max(f.logins)
	}
	return fmt.Sprintf("\n  %-22s %d made-up links from %d connections (%s); the owner logged in %d times (slowest %v, target %v: %s), failed %d",
		"login flood", n, loginFlooders, byAnswer(f.answers), len(f.logins), slowest.Round(time.Millisecond), ownerLoginLimit, verdict(slowest <= ownerLoginLimit), len(f.failed))
}
