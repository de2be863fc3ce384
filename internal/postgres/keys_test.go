package postgres_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leadchat/leadchat/internal/auth"
	"github.com/leadchat/leadchat/internal/cache"
	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/postgres"
)

// countingKeys is the real store, counting the key lookups that reach the database.
type countingKeys struct {
	*postgres.Store
	lookups atomic.Int64
}

func (c *countingKeys) KeyByHash(ctx context.Context, hash [32]byte) (auth.Principal, error) {
	c.lookups.Add(1)
	return c.Store.KeyByHash(ctx, hash)
}

// keyring is a keyring over s that follows the change feed, as the service's does.
func keyring(t *testing.T, s *postgres.Store) (*auth.Keyring, *countingKeys) {
	k, store, _ := markedKeyring(t, s)
	return k, store
}

// markedKeyring is keyring, and caughtUp, which returns once every change committed before
// it was called has reached the keyring's caches: it sends a notification of its own, which
// PostgreSQL delivers after those of the transactions that committed before it.
func markedKeyring(t *testing.T, s *postgres.Store) (k *auth.Keyring, store *countingKeys, caughtUp func()) {
	t.Helper()
	store = &countingKeys{Store: s}
	k = auth.NewKeyring(store)
	return k, store, markedFollower(t, s, k.Cache())
}

// marking passes the change feed on to the follower, except the test's own notifications,
// which close their channel instead.
type marking struct {
	cache.Follower
	mu    sync.Mutex
	marks map[string]chan struct{}
}

func (m *marking) Changed(what string) {
	m.mu.Lock()
	arrived, ok := m.marks[what]
	delete(m.marks, what)
	m.mu.Unlock()
	if ok {
		close(arrived)
		return
	}
	m.Follower.Changed(what)
}

func newKey(t *testing.T, s *postgres.Store, kind auth.Kind, companyName string) (string, auth.KeyInfo) {
	t.Helper()
	key, err := auth.Generate(kind)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.CreateKey(context.Background(), company(t, s, companyName), auth.NewKey{
		Kind: kind, Prefix: auth.DisplayPrefix(key), Hash: auth.Hash(key), HostnameCheck: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return key, info
}

// TestRefusedKeysCostOneLookup: an unknown or revoked key reaches the database once, however
// many requests carry it and however many at the same time; a malformed one never does.
func TestRefusedKeysCostOneLookup(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	k, store, caughtUp := markedKeyring(t, s)
	fake, err := auth.Generate(auth.Private) // well formed, never stored
	if err != nil {
		t.Fatal(err)
	}
	revoked, info := newKey(t, s, auth.Public, "Visszavont Kft.")
	if _, err := s.RevokeKey(ctx, info.ID); err != nil {
		t.Fatal(err)
	}
	valid, _ := newKey(t, s, auth.Private, "Érvényes Kft.")
	// The keys' notifications empty the caches; once they have arrived they cannot empty them
	// in the middle of the counting below. Then each key is looked up once, and cached.
	caughtUp()
	k.Resolve(ctx, revoked)
	k.Resolve(ctx, valid)

	for _, tt := range []struct {
		name, key string
		lookups   int64
	}{
		{"never issued", fake, 1},
		{"revoked", revoked, 0}, // looked up once above
		{"malformed", fake[:len(fake)-1] + "x", 0},
		// The valid key is cached: a key that differs from it is not taken for it.
		{"malformed like a cached key", valid[:len(valid)-1] + otherBase62(valid[len(valid)-1]), 0},
		{"valid", valid, 0}, // looked up above
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := store.lookups.Load()
			var wg sync.WaitGroup
			for range 50 {
				wg.Go(func() {
					_, err := k.Resolve(ctx, tt.key)
					if (tt.key == valid) != (err == nil) {
						t.Errorf("Resolve: %v", err)
					}
				})
			}
			wg.Wait()
			for range 100 {
				k.Resolve(ctx, tt.key)
			}
			if got := store.lookups.Load() - before; got != tt.lookups {
				t.Errorf("150 requests cost %d lookups, want %d", got, tt.lookups)
			}
		})
	}
}

// otherBase62 is a key character other than c.
func otherBase62(c byte) string {
	if c == 'x' {
		return "y"
	}
	return "x"
}

// TestCreatedKeyWorksAtOnce: creating a key empties the negative cache of every instance, so a
// key whose hash was refused before it existed works as soon as the notification arrives.
func TestCreatedKeyWorksAtOnce(t *testing.T) {
	t.Parallel()
	s := open(t, postgres.Options{})
	ctx := context.Background()
	k, _ := keyring(t, s)
	key, err := auth.Generate(auth.Public)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := k.Resolve(ctx, key); !errs.Is(err, errs.Unauthorized) {
			t.Fatalf("before it exists: %v", err)
		}
	}
	if _, err := s.CreateKey(ctx, company(t, s, "Új Kft."), auth.NewKey{
		Kind: auth.Public, Prefix: auth.DisplayPrefix(key), Hash: auth.Hash(key), HostnameCheck: true,
	}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := k.Resolve(ctx, key); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the new key is still refused 10 s after it was created")
		}
	}
}
