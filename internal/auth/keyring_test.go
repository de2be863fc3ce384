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
