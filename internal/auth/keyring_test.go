package auth

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/leadchat/leadchat/internal/errs"
)

// unknownKeys is a store that holds no key and counts its lookups.
type unknownKeys struct{ lookups atomic.Int64 }

func (u *unknownKeys) KeyByHash(context.Context, [32]byte) (Principal, error) {
	u.lookups.Add(1)
	return Principal{}, errs.E(errs.NotFound, errs.CodeInvalidAPIKey)
}

// TestLateRequestFindsTheRefusedKey: a request that looked in the refused set before a key
// joined it, and asks for the key's lookup only after the shared lookup that refused it ended,
// is answered from the set, not by the store again (TestRefusedKeysCostOneLookup in package
// postgres saw two lookups now and then when such a request was scheduled late).
func TestLateRequestFindsTheRefusedKey(t *testing.T) {
	store := &unknownKeys{}
	k := NewKeyring(store)
	k.Cache().Live(true)
	key, err := Generate(Private)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := k.Resolve(ctx, key); !errs.Is(err, errs.Unauthorized) {
		t.Fatalf("Resolve of an unknown key: %v, want unauthorized", err)
	}
	// The late request: past the refused set's check, at the lookup.
	if _, err := k.lookup(ctx, Hash(key)); !errs.Is(err, errs.NotFound) {
		t.Fatalf("lookup of a refused key: %v, want not found", err)
	}
	if n := store.lookups.Load(); n != 1 {
		t.Errorf("the store was asked %d times, want 1", n)
	}
}

// oneKey is a store that holds one valid key and counts its lookups; while hold is not nil,
// each lookup waits for it to close.
type oneKey struct {
	hash    [32]byte
	hold    chan struct{}
	asked   chan struct{} // receives once per lookup, when it begins
	lookups atomic.Int64
}

func (o *oneKey) KeyByHash(_ context.Context, h [32]byte) (Principal, error) {
	o.lookups.Add(1)
	if o.asked != nil {
		o.asked <- struct{}{}
	}
	if o.hold != nil {
		<-o.hold
	}
	if h != o.hash {
		return Principal{}, errs.E(errs.NotFound, errs.CodeInvalidAPIKey)
	}
	return Principal{Kind: Private}, nil
}

// validKeyring is a live keyring over a store holding one new private key.
func validKeyring(t *testing.T) (*Keyring, *oneKey, string) {
	t.Helper()
	key, err := Generate(Private)
	if err != nil {
		t.Fatal(err)
	}
	store := &oneKey{hash: Hash(key)}
	k := NewKeyring(store)
	k.Cache().Live(true)
	return k, store, key
}

// TestLateRequestFindsTheValidKey: the same as TestLateRequestFindsTheRefusedKey for a valid
// key. A request that missed the cache while the first request's lookup ran, and asks for the
// key's lookup only after that lookup ended (scheduled late on a busy machine), is answered from
// the cache, not by the store again.
func TestLateRequestFindsTheValidKey(t *testing.T) {
	k, store, key := validKeyring(t)
	ctx := context.Background()
	if _, err := k.Resolve(ctx, key); err != nil {
		t.Fatalf("Resolve of a valid key: %v", err)
	}
	// The late request: past the cache's check, at the lookup.
	if _, err := k.lookup(ctx, Hash(key)); err != nil {
		t.Fatalf("lookup of a valid key: %v", err)
	}
	if n := store.lookups.Load(); n != 1 {
		t.Errorf("the store was asked %d times, want 1", n)
	}
}

// TestAbandonedLookupIsCached: a request that gives up while its key is being looked up leaves
// the lookup running for the others; its answer is cached all the same, so the next request
// with the key costs no second lookup.
func TestAbandonedLookupIsCached(t *testing.T) {
	k, store, key := validKeyring(t)
	store.hold, store.asked = make(chan struct{}), make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error)
	go func() {
		_, err := k.Resolve(ctx, key)
		gaveUp <- err
	}()
	<-store.asked
	cancel()
	if err := <-gaveUp; !errs.Is(err, errs.Unavailable) {
		t.Fatalf("Resolve that gave up: %v, want unavailable", err)
	}
	close(store.hold)
	// Joining the lookup waits for its end (or finds it ended).
	h := Hash(key)
	k.loads.Do(string(h[:]), func() (any, error) { return nil, nil })
	if _, err := k.Resolve(context.Background(), key); err != nil {
		t.Fatalf("Resolve after the lookup ended: %v", err)
	}
	if n := store.lookups.Load(); n != 1 {
		t.Errorf("the store was asked %d times, want 1", n)
	}
}
