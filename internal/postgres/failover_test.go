package postgres_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/postgres"
	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// severalHosts rewrites the test database's URL into the key=value form with two hosts, as a
// DATABASE_URL naming a primary and its standby would: the first a port nobody listens on (a
// primary that is gone), or with live the test server itself, twice.
func severalHosts(t *testing.T, dsn string, live bool) string {
	t.Helper()
	u := mustURL(t, dsn)
	first := u.Port()
	if !live {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		first = fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
		ln.Close()
	}
	kv := fmt.Sprintf("host=%[1]s,%[1]s port=%s,%s dbname=%s user=%s target_session_attrs=read-write connect_timeout=3",
		u.Hostname(), first, u.Port(), strings.TrimPrefix(u.Path, "/"), u.User.Username())
	if pw, ok := u.User.Password(); ok {
		kv += " password='" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(pw) + "'"
	}
	if m := u.Query().Get("sslmode"); m != "" {
		kv += " sslmode=" + m
	}
	return kv
}

func TestSeveralHostsInURLFormAreRefused(t *testing.T) {
	t.Parallel()
	_, err := postgres.Open(context.Background(), "postgres://leadchat@db1:5432,db2:5432/leadchat?target_session_attrs=read-write", postgres.Options{})
	if err == nil || !strings.Contains(err.Error(), "key=value") {
		t.Fatalf("Open: %v; want a refusal that names the key=value form", err)
	}
}

// TestReconnectsAfterFailover: with a DATABASE_URL of several hosts in key=value form the store
// finds the host that takes writes, and when every connection it has is cut, as a primary that
// fails over cuts them, the pool and its prepared statements, and the change listener, come
// back by themselves: a lead is stored after at most a few refused tries (which clients retry),
// and a key revoked by another instance is refused at once again.
func TestReconnectsAfterFailover(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDSN(t)
	ctx := context.Background()
	multi := severalHosts(t, dsn, false)
	s, err := postgres.Open(ctx, multi, postgres.Options{MaxOpenConns: 4})
	if err != nil {
		t.Fatalf("opening %q: %v", multi, err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	other, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 2}) // another instance
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	k, _ := keyring(t, s)
	key, info := newKey(t, s, auth.Private, "Átállás Kft.")
	companyID := info.CompanyID
	if _, err := s.CreateLead(ctx, companyID, newLead("Első"), nil, nil); err != nil {
		t.Fatalf("a lead before the cut: %v", err)
	}

	cut := time.Now()
	var killed int
	err = other.DB().QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&killed)
	if err != nil || killed < 2 {
		t.Fatalf("cut %d connections (%v), want the pool's and the listener's", killed, err)
	}

	var tries int
	for tries = 1; ; tries++ {
		_, err := s.CreateLead(ctx, companyID, newLead("Második"), nil, nil)
		if err == nil {
			break
		}
		if !errs.Is(err, errs.Unavailable) || tries == 5 {
			t.Fatalf("lead try %d after the cut: %v; want unavailable, then stored", tries, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("a lead was stored at try %d after every connection was cut", tries)

	// The listener is back when a LISTEN connection newer than the cut exists and the cache
	// caches again.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var listening bool
		err := other.DB().QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE datname = current_database() AND query LIKE 'LISTEN%' AND backend_start > $1)`, cut).Scan(&listening)
		if err != nil {
			t.Fatal(err)
		}
		if listening && k.IsLive() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the change listener did not come back after its connection was cut")
		}
	}
	for range 3 {
		if _, err := k.Resolve(ctx, key); err != nil {
			t.Fatalf("the key before its revocation: %v", err)
		}
	}
	if _, err := other.RevokeKey(ctx, info.ID); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := k.Resolve(ctx, key); errs.Is(err, errs.Unauthorized) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a key revoked by another instance still works a second later")
		}
	}
	var leads int
	if err := other.DB().QueryRow(`SELECT count(*) FROM leads WHERE company_id = $1`, companyID).Scan(&leads); err != nil || leads != 2 {
		t.Errorf("%d leads stored (%v), want 2", leads, err)
	}
}

// TestNoWritableHostIsUnavailable: mid-failover no host may take writes (the old primary
// demoted, the standby not yet promoted) while both answer; lib/pq then refuses every host, with
// no network error among its reasons, and the store answers unavailable, which clients retry,
// until one takes writes again.
func TestNoWritableHostIsUnavailable(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDSN(t)
	ctx := context.Background()
	s, err := postgres.Open(ctx, severalHosts(t, dsn, true), postgres.Options{MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	admin, err := postgres.Open(ctx, dsn, postgres.Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	companyID := company(t, s, "Csak olvasható Kft.")
	readOnly := func(on bool) {
		t.Helper()
		q := `ALTER DATABASE ` + strings.TrimPrefix(mustURL(t, dsn).Path, "/") + ` RESET default_transaction_read_only`
		if on {
			q = strings.Replace(q, "RESET default_transaction_read_only", "SET default_transaction_read_only = on", 1)
		}
		if _, err := admin.DB().Exec(q); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.DB().Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
			t.Fatal(err)
		}
	}
	readOnly(true)
	// The first try may still find a connection of the pool whose end it has not read yet.
	for try := 1; ; try++ {
		_, err = s.CreateLead(ctx, companyID, newLead("Írás"), nil, nil)
		if !errs.Is(err, errs.Unavailable) {
			t.Fatalf("with no host taking writes: %v; want unavailable", err)
		}
		if try == 2 {
			break
		}
	}
	readOnly(false)
	if _, err := s.CreateLead(ctx, companyID, newLead("Írás"), nil, nil); err != nil {
		t.Fatalf("once a host takes writes again: %v", err)
	}
}

func mustURL(t *testing.T, dsn string) *url.URL {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
